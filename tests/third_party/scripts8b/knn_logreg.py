"""Small ML by hand: k-NN classification with np.argsort (stable kind, so ties go to the lower index)
and a vote by bincount/argmax, logistic regression with float32 weights updated by a Python float
learning rate (stays float32), one-hot labels by fancy index, and early stopping on the loss.
"""
import numpy as np


def knn_predict(train, labels, test, k):
    preds = np.empty(test.shape[0], dtype=labels.dtype)
    for i in range(test.shape[0]):
        d = np.abs(train - test[i]).sum(axis=1)
        nn = np.argsort(d, kind="stable")[:k]
        votes = np.bincount(labels[nn], minlength=3)
        preds[i] = np.argmax(votes)
    return preds


def one_hot(y, k):
    oh = np.zeros((y.shape[0], k), dtype=np.float32)
    oh[np.arange(y.shape[0]), y] = 1
    return oh


def logreg(X, y, lr, epochs):
    w = np.zeros(X.shape[1], dtype=np.float32)
    b = np.float32(0)
    prev = np.inf
    for ep in range(epochs):
        z = X @ w + b
        p = 1 / (1 + np.exp(-z))
        loss = -np.mean(y * np.log(p + 1e-7) + (1 - y) * np.log(1 - p + 1e-7))
        g = X.T @ (p - y) / X.shape[0]
        w -= lr * g
        b -= lr * (p - y).mean()
        if ep % 10 == 0:
            print(ep, loss)
        if prev - loss < 1e-5:
            break
        prev = loss
    return w, b, ep, loss


def make_data():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 6, (30, 3)).astype(np.float32)
    y = (X.sum(axis=1) > 7).astype(np.float32)
    return X, y


CHECKS = {"knn_predict": lambda: (make_data()[0], np.arange(30) % 3, make_data()[0][::4] + 0.5, 4),
          "one_hot": lambda: (np.array([2, 0, 1, 2, -1]), 3),
          "logreg": lambda: (*make_data(), 0.1, 40)}

if __name__ == "__main__":
    X, y = make_data()
    print(knn_predict(X, np.arange(30) % 3, X[::4] + 0.5, 4))
    print(one_hot(np.array([2, 0, 1, 2, -1]), 3))
    w, b, ep, loss = logreg(X, y, 0.1, 40)
    print(w, w.dtype, repr(b), ep, repr(loss))
