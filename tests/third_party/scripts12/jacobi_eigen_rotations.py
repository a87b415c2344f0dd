"""The cyclic Jacobi eigenvalue method for a symmetric matrix, written as textbooks and course
scripts write it: rotations applied to two rows and two columns in place with tuple assignments
of views (`A[:, p], A[:, q] = c * A[:, p] - s * A[:, q], s * A[:, p] + c * A[:, q]`, each right
side read before either store), the eigenvector matrix accumulated the same way, sweeps until the
off-diagonal norm drops below a tolerance (`break`), the off-norm printed per sweep, eigenpairs
sorted with np.argsort and columns permuted in place, and a check against the residual.
"""
import numpy as np

rng = np.random.default_rng(12)
B = rng.standard_normal((6, 6))
SYM = (B + B.T) / 2.0
SYM[np.diag_indices(6)] += np.arange(6) * 0.5


def off_norm(a):
    return np.sqrt(np.sum((a - np.diag(np.diag(a))) ** 2))


def rotate(a, v, p, q):
    if a[p, q] == 0.0:
        return 0
    theta = (a[q, q] - a[p, p]) / (2.0 * a[p, q])
    t = np.sign(theta) / (abs(theta) + np.sqrt(theta * theta + 1.0))
    if theta == 0.0:
        t = 1.0
    c = 1.0 / np.sqrt(t * t + 1.0)
    s = t * c
    a[:, p], a[:, q] = c * a[:, p] - s * a[:, q], s * a[:, p] + c * a[:, q]
    a[p, :], a[q, :] = c * a[p, :] - s * a[q, :], s * a[p, :] + c * a[q, :]
    v[:, p], v[:, q] = c * v[:, p] - s * v[:, q], s * v[:, p] + c * v[:, q]
    return 1


def jacobi_eig(a, tol, max_sweeps):
    n = a.shape[0]
    v = np.eye(n)
    history = np.zeros(max_sweeps)
    rotations = 0
    sweeps = 0
    for sweep in range(max_sweeps):
        off = off_norm(a)
        history[sweep] = off
        print("sweep", sweep, "off", repr(float(off)))
        if off < tol:
            break
        for p in range(n - 1):
            for q in range(p + 1, n):
                rotations += rotate(a, v, p, q)
        sweeps += 1
    w = np.diag(a).copy()
    order = np.argsort(w)
    w = w[order]
    v[...] = v[:, order]
    return w, v, history, rotations, sweeps


def residual(m, w, v):
    r = m @ v - v * w
    return np.abs(r).max()


def naive_rotate(a, p, q, c, s):
    # the hand port's slip: column p is written before column q reads it
    a[:, p] = c * a[:, p] - s * a[:, q]
    a[:, q] = s * a[:, p] + c * a[:, q]
    return a


CHECKS = {
    "jacobi_eig": lambda: (SYM.copy(), 1e-10, 8),
    "rotate": lambda: (SYM.copy(), np.eye(6), 1, 4),
    "off_norm": lambda: (SYM.copy(),),
    "naive_rotate": lambda: (SYM.copy(), 0, 2, 0.8, 0.6),
    "residual": lambda: (SYM.copy(), np.arange(6.0), np.eye(6)),
}

if __name__ == "__main__":
    a = SYM.copy()
    w, v, history, rotations, sweeps = jacobi_eig(a, 1e-10, 8)
    print("rotations", rotations, "sweeps", sweeps)
    print(np.round(w, 9))
    print("residual small", residual(SYM, w, v) < 1e-8)
    print("orthogonal", np.allclose(v.T @ v, np.eye(6)))
    print("numpy agrees", np.allclose(w, np.linalg.eigvalsh(SYM)))
    print(np.round(naive_rotate(SYM.copy(), 0, 2, 0.8, 0.6)[:, :3], 9))
