"""Gray-Scott reaction-diffusion as a module-level script (after the usual tutorials): seeded set-up,
a time loop that prints diagnostics, keeps a history list and plots through matplotlib (not importable
here). `np2ref convert` compiles the array work of each pass as one step (tests/host/test_host_steps.py)."""
import numpy as np
try:
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

n = 48
Du, Dv, F, k = 0.16, 0.08, 0.035, 0.065
np.random.seed(7)
U = np.ones((n, n))
V = np.zeros((n, n))
r = 8
U[n//2 - r:n//2 + r, n//2 - r:n//2 + r] = 0.50
V[n//2 - r:n//2 + r, n//2 - r:n//2 + r] = 0.25
U += 0.05 * np.random.random((n, n))
V += 0.05 * np.random.random((n, n))
plot = False
history = []

for it in range(120):
    Lu = (np.roll(U, 1, 0) + np.roll(U, -1, 0) + np.roll(U, 1, 1) + np.roll(U, -1, 1) - 4 * U)
    Lv = (np.roll(V, 1, 0) + np.roll(V, -1, 0) + np.roll(V, 1, 1) + np.roll(V, -1, 1) - 4 * V)
    uvv = U * V * V
    U += Du * Lu - uvv + F * (1 - U)
    V += Dv * Lv + uvv - (F + k) * V
    if it % 40 == 0:
        print(it, V.mean())
        history.append(float(V.max()))
    if plot and it % 50 == 0:
        plt.imshow(V)
        plt.pause(0.01)

print(U.sum(), V.sum(), history)
