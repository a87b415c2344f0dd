"""Gaussian-process regression with a squared-exponential kernel (the pattern of GP tutorials
written from Rasmussen and Williams, Algorithm 2.1): the kernel matrix filled by broadcasting,
`np.linalg.cholesky` inside try/except with jitter added to the diagonal in place
(`K[np.diag_indices_from(K)] += jitter`) and grown tenfold until it succeeds, the
triangular solves written out as forward and back substitution loops into preallocated vectors,
the predictive mean and variance (`var -= np.sum(v * v, axis=0)`, clipped at zero), the log
marginal likelihood from the Cholesky diagonal, a grid search over length scales keeping the
best in a Python tuple, duplicated inputs that make K singular.
"""
import numpy as np

NOISE = 2.5e-3


def kernel(a, b, ell, sf2):
    d = a[:, None] - b[None, :]
    return sf2 * np.exp(-0.5 * (d / ell) ** 2)


def chol_jitter(K, jitter=1e-10, tries=8):
    added = 0.0
    for _ in range(tries):
        try:
            L = np.linalg.cholesky(K)
            return L, added
        except np.linalg.LinAlgError:
            K[np.diag_indices_from(K)] += jitter
            added += jitter
            jitter *= 10.0
    raise np.linalg.LinAlgError("not positive definite after jitter")


def forward_sub(L, b, out):
    n = b.size
    for i in range(n):
        s = b[i]
        for j in range(i):
            s -= L[i, j] * out[j]
        out[i] = s / L[i, i]
    return out


def back_sub_t(L, b, out):
    # solves L.T x = b
    n = b.size
    for i in range(n - 1, -1, -1):
        s = b[i]
        for j in range(i + 1, n):
            s -= L[j, i] * out[j]
        out[i] = s / L[i, i]
    return out


def fit_predict(x, y, xs, ell, sf2, noise=NOISE):
    K = kernel(x, x, ell, sf2)
    K += noise * np.eye(x.size)
    L, added = chol_jitter(K)
    tmp = np.empty(x.size)
    alpha = np.empty(x.size)
    forward_sub(L, y, tmp)
    back_sub_t(L, tmp, alpha)
    Ks = kernel(x, xs, ell, sf2)
    mean = Ks.T @ alpha
    v = np.empty_like(Ks)
    for k in range(xs.size):
        forward_sub(L, Ks[:, k], v[:, k])
    var = np.full(xs.size, sf2)
    var -= np.sum(v * v, axis=0)
    np.maximum(var, 0.0, out=var)
    lml = -0.5 * y @ alpha - np.sum(np.log(np.diag(L))) - 0.5 * x.size * np.log(2.0 * np.pi)
    return mean, var, lml, added


def grid_search(x, y, scales):
    best = (-np.inf, None)
    for ell in scales:
        _, _, lml, _ = fit_predict(x, y, x[:1], ell, 1.0)
        if lml > best[0]:
            best = (lml, ell)
        print("ell", ell, "lml", round(float(lml), 6))
    return best


def data(n, seed, duplicate=False):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0.0, 5.0, n))
    if duplicate:
        x[1::3] = x[::3][: x[1::3].size]
    y = np.sin(x) + 0.05 * rng.standard_normal(n)
    return x, y


CHECKS = {
    "fit_predict": lambda: (*data(8, 1), np.linspace(0.0, 5.0, 5), 1.0, 1.0),
    "fit_predict#dup": lambda: (*data(9, 2, duplicate=True), np.linspace(0.0, 5.0, 4), 1.5, 1.0, 0.0),
    "chol_jitter": lambda: (np.ones((3, 3)),),
    "forward_sub": lambda: (np.array([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, 0.5, 4.0]]), np.array([2.0, 1.0, -3.0]),
                            np.zeros(3)),
    "back_sub_t": lambda: (np.array([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, 0.5, 4.0]]), np.array([2.0, 1.0, -3.0]),
                           np.zeros(3)),
    "grid_search": lambda: (*data(7, 3), (0.3, 1.0, 3.0)),
}

if __name__ == "__main__":
    x, y = data(20, 2026)
    xs = np.linspace(0.0, 5.0, 7)
    mean, var, lml, added = fit_predict(x, y, xs, 1.0, 1.0)
    print("mean", repr(np.round(mean, 6)))
    print("sd", repr(np.round(np.sqrt(var), 6)), "lml", round(float(lml), 6), "jitter", added)
    xd, yd = data(12, 5, duplicate=True)
    _, _, lml_d, added_d = fit_predict(xd, yd, xs, 1.0, 1.0, noise=0.0)
    print("duplicates: finite", bool(np.isfinite(lml_d)), "jitter", added_d)
    print("best", grid_search(x, y, (0.25, 0.5, 1.0, 2.0)))
