"""A two-layer perceptron trained on XOR-like blobs by full-batch backpropagation in float32:
weights initialised from a seeded Generator and cast with `.astype(np.float32)`, tanh hidden
layer, a numerically stable softmax cross-entropy, gradients computed into preallocated arrays
(`np.dot(h.T, dlogits, out=gW2)`), weight decay and the update `W1 -= lr * gW1` in place, the
learning rate a np.float32 halved on a plateau, accuracy and loss printed every N epochs.
"""
import numpy as np


def forward(X, W1, b1, W2, b2):
    h = np.tanh(X @ W1 + b1)
    logits = h @ W2 + b2
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return h, p


def train(X, y, W1, b1, W2, b2, lr, epochs, every):
    n = X.shape[0]
    gW1, gW2 = np.zeros_like(W1), np.zeros_like(W2)
    onehot = np.zeros((n, W2.shape[1]), dtype=np.float32)
    onehot[np.arange(n), y] = 1
    best = np.float32(np.inf)
    for epoch in range(epochs):
        h, p = forward(X, W1, b1, W2, b2)
        loss = -np.log(p[np.arange(n), y] + np.float32(1e-7)).mean()
        dlogits = (p - onehot) / n
        np.dot(h.T, dlogits, out=gW2)
        gb2 = dlogits.sum(axis=0)
        dh = dlogits @ W2.T * (1 - h * h)
        np.dot(X.T, dh, out=gW1)
        gb1 = dh.sum(axis=0)
        gW1 += np.float32(1e-3) * W1
        W1 -= lr * gW1
        b1 -= lr * gb1
        W2 -= lr * gW2
        b2 -= lr * gb2
        if loss < best:
            best = loss
        elif epoch > 10:
            lr = lr * np.float32(0.5)
        if epoch % every == 0:
            acc = (p.argmax(axis=1) == y).mean()
            print(epoch, "loss", f"{loss:.6f}", "acc", acc)
    return best, lr


def make_problem(n=64, hidden=8, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)).astype(np.float32)
    y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(np.int64)
    W1 = (rng.normal(size=(2, hidden)) * 0.5).astype(np.float32)
    W2 = (rng.normal(size=(hidden, 2)) * 0.5).astype(np.float32)
    return X, y, W1, np.zeros(hidden, np.float32), W2, np.zeros(2, np.float32)


CHECKS = {
    "train": lambda: (*make_problem(), np.float32(0.5), 30, 10),
    "forward": lambda: (*make_problem(8, 4)[:1], *make_problem(8, 4)[2:]),
}

if __name__ == "__main__":
    X, y, W1, b1, W2, b2 = make_problem()
    best, lr = train(X, y, W1, b1, W2, b2, np.float32(0.5), 200, 50)
    print(type(best).__name__, type(lr).__name__, f"{best:.5f}", lr, W1.dtype)
