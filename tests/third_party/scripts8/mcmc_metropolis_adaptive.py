"""Random-walk Metropolis for a correlated 2-D Gaussian with an adaptive proposal scale: the chain
stored in a preallocated (n, 2) array, `np.random.seed` + `np.random.randn`/`np.random.rand`
draws, the log density a helper, acceptances counted in an int, the scale adapted every batch
from the acceptance rate (`scale *= np.exp(...)`), burn-in dropped by slicing, the mean and
covariance estimated and the acceptance rate printed per batch.
"""
import numpy as np

PREC = np.linalg.inv(np.array([[1.0, 0.8], [0.8, 1.0]]))


def logp(x):
    return -0.5 * x @ PREC @ x


def chain(x0, n, scale, batch):
    samples = np.empty((n, 2))
    x = x0.copy()
    lp = logp(x)
    accepted = 0
    batch_acc = 0
    for i in range(n):
        prop = x + scale * np.random.randn(2)
        lq = logp(prop)
        if np.log(np.random.rand()) < lq - lp:
            x = prop
            lp = lq
            accepted += 1
            batch_acc += 1
        samples[i] = x
        if (i + 1) % batch == 0:
            rate = batch_acc / batch
            scale *= np.exp(rate - 0.44)
            print(f"batch {(i + 1) // batch}: rate {rate:.3f} scale {scale:.6f}")
            batch_acc = 0
    return samples, accepted / n, scale


def run(n, seed):
    np.random.seed(seed)
    samples, rate, scale = chain(np.zeros(2), n, 1.0, n // 5)
    kept = samples[n // 5:]
    return kept.mean(axis=0), np.cov(kept.T), rate, scale


CHECKS = {
    "run": lambda: (200, 3),
    "run#short": lambda: (40, 5),
}

if __name__ == "__main__":
    mean, cov, rate, scale = run(2000, 3)
    print(np.round(mean, 8).tolist(), np.round(cov, 8).tolist(), rate, type(scale).__name__)
