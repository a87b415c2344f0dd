"""Conjugate gradient on a 2-D Poisson matrix applied matrix-free (`matvec(p, out)` writes its
result into a preallocated array through interior views), restarted every k iterations
(`p[:] = r`), `x += alpha * p; r -= alpha * q`, `p *= beta; p += r`, the residual norm stored into
a fixed-size history array, and `break` on convergence; then Jacobi-preconditioned CG.
"""
import numpy as np

N = 12


def matvec(v, out):
    u = v.reshape(N, N)
    o = out.reshape(N, N)
    o[...] = 4.0 * u
    o[1:, :] -= u[:-1, :]
    o[:-1, :] -= u[1:, :]
    o[:, 1:] -= u[:, :-1]
    o[:, :-1] -= u[:, 1:]
    return out


def cg(b, x, tol, maxit, restart):
    r = b - matvec(x, np.empty_like(b))
    p = r.copy()
    q = np.empty_like(b)
    rr = r @ r
    hist = np.zeros(maxit + 1)
    hist[0] = np.sqrt(rr)
    k = 0
    while k < maxit:
        matvec(p, q)
        alpha = rr / (p @ q)
        x += alpha * p
        r -= alpha * q
        rr_new = r @ r
        k += 1
        hist[k] = np.sqrt(rr_new)
        if hist[k] < tol * hist[0]:
            break
        if k % restart == 0:
            p[:] = r
        else:
            p *= rr_new / rr
            p += r
        rr = rr_new
    return x, k, hist


def pcg(b, tol, maxit):
    dinv = np.full_like(b, 0.25)
    x = np.zeros_like(b)
    r = b.copy()
    z = dinv * r
    p = z.copy()
    rz = r @ z
    q = np.empty_like(b)
    for k in range(maxit):
        matvec(p, q)
        alpha = rz / (p @ q)
        x += alpha * p
        r -= alpha * q
        if np.linalg.norm(r) < tol:
            return x, k + 1
        np.multiply(dinv, r, out=z)
        rz, rz_old = r @ z, rz
        p = z + (rz / rz_old) * p
    return x, maxit


def rhs():
    g = np.linspace(0, 1, N)
    return (np.sin(np.pi * g)[:, None] * np.cos(2 * g)[None, :]).ravel()


CHECKS = {"cg": lambda: (rhs(), np.zeros(N * N), 1e-10, 80, 7), "cg#short": lambda: (rhs(), np.ones(N * N), 1e-10, 5, 3),
          "pcg": lambda: (rhs(), 1e-9, 60), "matvec": lambda: (rhs(), np.zeros(N * N))}

if __name__ == "__main__":
    x, k, hist = cg(rhs(), np.zeros(N * N), 1e-10, 80, 7)
    print(k, repr(hist[k]), repr(x.sum()))
    x2, k2 = pcg(rhs(), 1e-9, 60)
    print(k2, repr(np.abs(x - x2).max() < 1e-6))
