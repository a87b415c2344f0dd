"""A small two-layer network's forward and manual backward pass, the activations written as
lambdas inside the function (`dtanh = lambda x: 1 - np.tanh(x) ** 2`), the weights updated in
place by gradient descent."""
import numpy as np

ENTRY = "train"


def train(w1, w2, x, y, steps, lr):
    act = lambda z: np.tanh(z)
    dact = lambda z: 1 - np.tanh(z) ** 2
    losses = np.zeros(steps)
    for s in range(steps):
        h_in = x @ w1
        h = act(h_in)
        out = h @ w2
        err = out - y
        losses[s] = 0.5 * np.mean(err ** 2)
        g_out = err / y.shape[0]
        g_w2 = h.T @ g_out
        g_h = g_out @ w2.T * dact(h_in)
        w2 -= lr * g_w2
        w1 -= lr * (x.T @ g_h)
    return losses


def make_inputs(size="small"):
    n, d, k = (8, 3, 4) if size == "small" else (4096, 32, 64)
    rng = np.random.default_rng(0)
    return dict(w1=rng.normal(size=(d, k)) * 0.5, w2=rng.normal(size=(k, 1)) * 0.5,
                x=rng.normal(size=(n, d)), y=rng.normal(size=(n, 1)), steps=6 if size == "small" else 500,
                lr=0.1)


if __name__ == "__main__":
    inputs = make_inputs("large")
    losses = train(**inputs)
    print(f"last = {losses[-1]}")
