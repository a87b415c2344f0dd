"""Non-negative matrix factorisation by Lee-Seung multiplicative updates (the pattern of topic
modelling and gene-expression deconvolution scripts): a count matrix drawn with
`rng.poisson`, W and H initialised from `rng.random` scaled by `np.sqrt(X.mean() / k)`, the
Frobenius updates in place (`H *= (W.T @ X) / (W.T @ W @ H + EPS)`, `W *= ...`), the KL
divergence variant with `np.divide(X, WH, out=ratio, where=WH > 0)`, column normalisation of W
with the scale moved into H (`W /= norms; H *= norms[:, None]`), the loss printed every few
iterations and a relative-change stop, top genes per component by `np.argsort(-W[:, j])[:3]`,
and float32 data kept float32 by np.float32 constants.
"""
import numpy as np

EPS = 1e-10


def init(X, k, rng):
    scale = np.sqrt(X.mean() / k)
    W = scale * rng.random((X.shape[0], k))
    H = scale * rng.random((k, X.shape[1]))
    return W.astype(X.dtype), H.astype(X.dtype)


def frobenius(X, W, H):
    R = X - W @ H
    return 0.5 * np.sum(R * R)


def nmf_fro(X, W, H, max_iter, tol=1e-6, every=10):
    eps = X.dtype.type(EPS)
    prev = frobenius(X, W, H)
    it = 0
    while it < max_iter:
        H *= (W.T @ X) / (W.T @ W @ H + eps)
        W *= (X @ H.T) / (W @ (H @ H.T) + eps)
        it += 1
        loss = frobenius(X, W, H)
        if it % every == 0:
            print("iter", it, "loss", round(float(loss), 4))
        if abs(prev - loss) <= tol * prev:
            break
        prev = loss
    return loss, it


def kl_div(X, WH):
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(X > 0, X * np.log(X / WH), 0.0)
    return np.sum(t - X + WH)


def nmf_kl(X, W, H, iters):
    ratio = np.zeros_like(X)
    for it in range(iters):
        WH = W @ H
        np.divide(X, WH, out=ratio, where=WH > 0)
        H *= (W.T @ ratio) / W.sum(axis=0)[:, None]
        WH = W @ H
        np.divide(X, WH, out=ratio, where=WH > 0)
        W *= (ratio @ H.T) / H.sum(axis=1)[None, :]
    return kl_div(X, W @ H)


def normalise(W, H):
    norms = np.sqrt((W * W).sum(axis=0))
    norms[norms == 0] = 1.0
    W /= norms
    H *= norms[:, None]
    return norms


def top_rows(W, n):
    return np.stack([np.argsort(-W[:, j], kind="stable")[:n] for j in range(W.shape[1])])


def make_counts(rng, genes, samples, k):
    Wt = rng.gamma(0.5, 2.0, size=(genes, k))
    Ht = rng.gamma(1.0, 1.0, size=(k, samples))
    return rng.poisson(3.0 * Wt @ Ht).astype(np.float64)


def fro_inputs(dtype):
    rng = np.random.default_rng(4)
    X = make_counts(rng, 12, 8, 2).astype(dtype)
    return (X, *init(X, 2, rng), 25, 1e-6, 10)


CHECKS = {
    "nmf_fro": lambda: fro_inputs(np.float64),
    "nmf_fro#float32": lambda: fro_inputs(np.float32),
    "nmf_kl": lambda: (*fro_inputs(np.float64)[:3], 6),
    "normalise": lambda: (np.array([[1.0, 0.0], [2.0, 0.0]]), np.ones((2, 3))),
    "top_rows": lambda: (np.array([[0.1, 0.5], [0.3, 0.5], [0.2, 0.1]]), 2),
    "kl_div": lambda: (np.array([[0.0, 1.0], [2.0, 3.0]]), np.array([[0.5, 1.0], [1.5, 3.5]])),
}

if __name__ == "__main__":
    rng = np.random.default_rng(2026)
    X = make_counts(rng, 30, 12, 3)
    W, H = init(X, 3, rng)
    loss, its = nmf_fro(X, W, H, 200, every=50)
    print("frobenius", round(float(loss), 6), "iterations", its)
    normalise(W, H)
    print("top genes", top_rows(W, 3).tolist())
    W2, H2 = init(X, 3, np.random.default_rng(1))
    print("kl", round(float(nmf_kl(X, W2, H2, 40)), 6))
    X32 = X.astype(np.float32)
    W3, H3 = init(X32, 3, np.random.default_rng(2))
    loss32, _ = nmf_fro(X32, W3, H3, 30, every=100)
    print("float32", W3.dtype, H3.dtype, type(loss32).__name__)
