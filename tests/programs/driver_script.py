"""A script doing its work at module level (tests/host/test_driver.py): its loops that do array work
are lifted into compiled functions by `np2ref convert`; the one that prints stays NumPy."""
import numpy as np

n = 16
alpha = 0.1
nt = 50
u = np.zeros(n)
u[n // 2] = 1.0
energy = 0.0
hist = []


def lap(x):
    return x[2:] - 2.0 * x[1:-1] + x[:-2]


def report():
    print("report", n, alpha)


for t in range(nt):
    u[1:-1] += alpha * lap(u)
    energy += float((u ** 2).sum())

for t in range(3):
    print("step", t, f"{u.sum():.10f}")
    hist.append(u.max())

if __name__ == "__main__":
    k = 0
    while k < 5:
        u *= 0.9
        k += 1
    report()
    print(f"{energy:.10f} {u.sum():.10f} {k} {[f'{h:.10f}' for h in hist]}")
