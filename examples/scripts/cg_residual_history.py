"""Conjugate gradients on a 1-D Poisson matrix, the residual norms kept in a Python list.

The loop is `while rnorm > tol * bnorm and k < maxit` (a data-dependent trip count) and appends
each residual norm to `history`, the pattern most solver scripts print at the end; `x += alpha *
p`, `r -= alpha * Ap`, `p = r + beta * p` (a rebinding), and `print` every few iterations.
"""
import numpy as np

ENTRY = "cg"


def apply_laplacian(p):
    Ap = 2.0 * p
    Ap[1:] -= p[:-1]
    Ap[:-1] -= p[1:]
    return Ap


def cg(b, x, tol, maxit):
    r = b - apply_laplacian(x)
    p = r.copy()
    rs = np.dot(r, r)
    bnorm = np.sqrt(np.dot(b, b))
    rnorm = np.sqrt(rs)
    history = [rnorm]
    k = 0
    while rnorm > tol * bnorm and k < maxit:
        Ap = apply_laplacian(p)
        alpha = rs / np.dot(p, Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = np.dot(r, r)
        p = r + (rs_new / rs) * p
        rs = rs_new
        rnorm = np.sqrt(rs)
        history.append(rnorm)
        k += 1
        if k % 4 == 0:
            print("iteration", k, "residual", repr(float(rnorm)))
    return k, history


def make_inputs(size="small"):
    n = 10 if size == "small" else 100
    b = np.sin(np.linspace(0.0, np.pi, n))
    return dict(b=b, x=np.zeros(n), tol=1e-10, maxit=200)


if __name__ == "__main__":
    inputs = make_inputs("large")
    k, history = cg(**inputs)
    print(k, repr(history[-2:]), repr(inputs["x"].sum()))
