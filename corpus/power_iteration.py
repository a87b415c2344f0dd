"""Power iteration for the dominant eigenpair of a symmetric matrix.

Domain: principal mode of a vibrating spring network (stiffness matrix of a
chain with random spring constants and a few long-range springs). The
iterate is normalised in place each step; iteration stops when the change of
the Rayleigh quotient falls below a tolerance or the iteration cap is hit.
A deflated second pass then estimates the next eigenvalue.
"""
# np2ref: verify vmap  (grad: JAX cannot reverse-differentiate a while loop)
import numpy as np

ENTRY = "dominant_modes"


def power_iterate(K, x, tol, max_iter):
    """Normalise x in place to the dominant eigenvector; return (lam, its)."""
    y = np.empty_like(x)
    norm = np.sqrt(np.dot(x, x))
    x /= norm
    lam = 0.0
    dlam = tol + 1.0
    it = 0
    while dlam > tol and it < max_iter:
        np.dot(K, x, out=y)
        lam_new = np.dot(x, y)
        norm = np.linalg.norm(y)
        x[:] = y
        x /= norm
        dlam = abs(lam_new - lam)
        lam = lam_new
        it += 1
    return lam, it


def dominant_modes(K, x1, x2, tol, max_iter):
    """x1, x2 overwritten with the first two modes; return eigenvalues."""
    lam1, it1 = power_iterate(K, x1, tol, max_iter)
    # deflate: K2 = K - lam1 x1 x1^T
    n = K.shape[0]
    K2 = K.copy()
    for i in range(n):
        for j in range(n):
            K2[i, j] -= lam1 * x1[i] * x1[j]
    lam2, it2 = power_iterate(K2, x2, tol, max_iter)
    return lam1, lam2, it1, it2


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n, tol, max_iter = 6, 1.0e-10, 200
    else:
        n, tol, max_iter = 400, 1.0e-12, 20000
    k = 1.0 + rng.random(n + 1)
    K = np.zeros((n, n))
    for i in range(n):
        K[i, i] = k[i] + k[i + 1]
        if i + 1 < n:
            K[i, i + 1] = -k[i + 1]
            K[i + 1, i] = -k[i + 1]
    extra = rng.integers(0, n, size=(max(1, n // 10), 2))
    for a, b in extra:
        if a != b:
            K[a, a] += 0.5
            K[b, b] += 0.5
            K[a, b] -= 0.5
            K[b, a] -= 0.5
    return dict(K=K, x1=rng.random(n) + 0.1, x2=rng.random(n) + 0.1, tol=tol,
                max_iter=max_iter)


if __name__ == "__main__":
    inputs = make_inputs("large")
    lam1, lam2, it1, it2 = dominant_modes(**inputs)
    print(f"lambda1 = {lam1:.8f}  ({it1} iterations)")
    print(f"lambda2 = {lam2:.8f}  ({it2} iterations)")
    print(f"x1 . x2 = {np.dot(inputs['x1'], inputs['x2']):.3e}")
