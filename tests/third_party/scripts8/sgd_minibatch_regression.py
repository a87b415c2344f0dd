"""Linear regression by mini-batch gradient descent: features standardised in place
(`X -= X.mean(axis=0); X /= X.std(axis=0)`), each epoch a `rng.permutation` of the rows, batches
sliced from the permuted index (`idx[b:b + bs]`), weights and bias updated in place with momentum
(`vel *= beta; vel += grad; w -= lr * vel`), the bias a Python float, the loss printed per epoch,
early stopping when the loss improves by less than a tolerance, float32 data.
"""
import numpy as np


def loss(X, y, w, b):
    r = X @ w + b - y
    return float((r * r).mean())


def train(X, y, lr, epochs, bs, rng, tol):
    n, d = X.shape
    X -= X.mean(axis=0)
    X /= X.std(axis=0)
    w = np.zeros(d, dtype=X.dtype)
    vel = np.zeros_like(w)
    b = 0.0
    history = []
    prev = np.inf
    for epoch in range(epochs):
        idx = rng.permutation(n)
        for start in range(0, n, bs):
            rows = idx[start:start + bs]
            xb, yb = X[rows], y[rows]
            r = xb @ w + b - yb
            grad = 2.0 * xb.T @ r / rows.size
            vel *= 0.9
            vel += grad
            w -= lr * vel
            b -= lr * 2.0 * float(r.mean())
        cur = loss(X, y, w, b)
        history.append(cur)
        print(f"epoch {epoch}: loss {cur:.8f}")
        if prev - cur < tol:
            break
        prev = cur
    return w, b, history


def make_data(n=96, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = (rng.normal(size=(n, d)) * [1.0, 5.0, 0.1, 2.0][:d] + 3.0).astype(np.float32)
    y = (X @ np.arange(1.0, d + 1) + 0.5 + 0.1 * rng.normal(size=n)).astype(np.float32)
    return X, y


CHECKS = {
    "train": lambda: (*make_data(), 0.01, 6, 16, np.random.default_rng(1), 1e-6),
    "train#stop": lambda: (*make_data(40, 2), 0.05, 50, 8, np.random.default_rng(2), 1e-2),
}

if __name__ == "__main__":
    X, y = make_data()
    w, b, history = train(X, y, 0.01, 30, 16, np.random.default_rng(1), 1e-7)
    print(w.dtype, np.round(w, 4).tolist(), round(b, 6), len(history), X.dtype)
