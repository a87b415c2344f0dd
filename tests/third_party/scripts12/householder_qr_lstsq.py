"""Householder QR in place for a least-squares polynomial fit, in the shape of numerical-methods
course code: the reflector of each column built from a view (`x = R[k:, k]`), its sign chosen
against cancellation, `R[k:, k:] -= 2.0 * np.outer(v, v @ R[k:, k:])` on a trailing block, the
reflectors kept in a list and also stored below the diagonal of a packed array, Q^T b applied to
the right-hand side in place through a helper writing a view, back substitution from the end with
a reversed range, modified Gram-Schmidt beside it (`Q[:, j] -= r * Q[:, i]`), and the residual
norms printed for polynomial degrees 1..4.
"""
import numpy as np

np.random.seed(7)
T = np.linspace(0.0, 2.0, 25)
Y = 1.0 - 0.5 * T + 0.3 * T ** 2 + 0.05 * np.random.randn(T.size)


def vandermonde(t, deg):
    a = np.empty((t.size, deg + 1))
    a[:, 0] = 1.0
    for j in range(1, deg + 1):
        a[:, j] = a[:, j - 1] * t
    return a


def householder(r, packed, betas):
    m, n = r.shape
    for k in range(n):
        x = r[k:, k]
        alpha = -np.copysign(np.linalg.norm(x), x[0])
        v = x.copy()
        v[0] -= alpha
        vnorm = np.linalg.norm(v)
        if vnorm == 0.0:
            betas[k] = 0.0
            continue
        v /= vnorm
        r[k:, k:] -= 2.0 * np.outer(v, v @ r[k:, k:])
        packed[k:, k] = v
        betas[k] = alpha
    return r


def apply_qt(packed, b):
    n = packed.shape[1]
    for k in range(n):
        v = packed[k:, k]
        tail = b[k:]
        tail -= 2.0 * v * (v @ tail)


def back_substitute(r, b, x):
    n = x.shape[0]
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - r[i, i + 1:n] @ x[i + 1:n]) / r[i, i]
    return x


def lstsq_qr(a, y):
    m, n = a.shape
    r = a.copy()
    packed = np.zeros((m, n))
    betas = np.zeros(n)
    householder(r, packed, betas)
    b = y.copy()
    apply_qt(packed, b)
    x = back_substitute(r, b, np.zeros(n))
    resid = np.linalg.norm(b[n:])
    return x, resid, np.abs(np.diag(r)).min()


def mgs(a):
    q = a.copy()
    n = a.shape[1]
    r = np.zeros((n, n))
    for i in range(n):
        r[i, i] = np.linalg.norm(q[:, i])
        q[:, i] /= r[i, i]
        for j in range(i + 1, n):
            r[i, j] = q[:, i] @ q[:, j]
            q[:, j] -= r[i, j] * q[:, i]
    return q, r


CHECKS = {
    "lstsq_qr": lambda: (vandermonde(T, 2), Y.copy()),
    "lstsq_qr#deg4": lambda: (vandermonde(T, 4), Y.copy()),
    "householder": lambda: (vandermonde(T, 3), np.zeros((25, 4)), np.zeros(4)),
    "apply_qt": lambda: (np.tril(np.ones((6, 3))) / 2.0, np.arange(6.0)),
    "back_substitute": lambda: (np.triu(np.arange(1.0, 17.0).reshape(4, 4)), np.ones(4), np.zeros(4)),
    "mgs": lambda: (vandermonde(T, 3),),
    "vandermonde": lambda: (T.copy(), 3),
}

if __name__ == "__main__":
    for deg in range(1, 5):
        a = vandermonde(T, deg)
        coef, resid, rmin = lstsq_qr(a, Y)
        ref = np.linalg.lstsq(a, Y, rcond=None)[0]
        print("deg", deg, "resid", repr(round(float(resid), 9)), "rmin", repr(round(float(rmin), 9)),
              "agrees", np.allclose(coef, ref))
        print("  coef", np.round(coef, 6))
    q, r = mgs(vandermonde(T, 3))
    print("mgs orthogonal", np.allclose(q.T @ q, np.eye(4)), "reconstructs", np.allclose(q @ r, vandermonde(T, 3)))
