"""An ensemble of Lorenz trajectories advanced together by Runge-Kutta-Fehlberg 4(5) with one
shared adaptive step: the error estimate is the worst member's, a rejected step shrinks h and
`continue`s, an accepted one writes `y[:] = y5`, h grows by a clipped factor (`min`/`max` of
Python floats), accepted/rejected counts and the separation of two nearby members are printed.
"""
import numpy as np

SIGMA, RHO, BETA = 10.0, 28.0, 8.0 / 3.0


def lorenz(y, out):
    out[:, 0] = SIGMA * (y[:, 1] - y[:, 0])
    out[:, 1] = y[:, 0] * (RHO - y[:, 2]) - y[:, 1]
    out[:, 2] = y[:, 0] * y[:, 1] - BETA * y[:, 2]
    return out


def rkf45(y, t_end, h, tol, max_steps):
    k = np.zeros((6,) + y.shape)
    t = 0.0
    accepted = 0
    rejected = 0
    for _ in range(max_steps):
        if t >= t_end:
            break
        h = min(h, t_end - t)
        lorenz(y, k[0])
        lorenz(y + h * (k[0] / 4), k[1])
        lorenz(y + h * (3 * k[0] + 9 * k[1]) / 32, k[2])
        lorenz(y + h * (1932 * k[0] - 7200 * k[1] + 7296 * k[2]) / 2197, k[3])
        lorenz(y + h * (439 / 216 * k[0] - 8 * k[1] + 3680 / 513 * k[2] - 845 / 4104 * k[3]), k[4])
        lorenz(y + h * (-8 / 27 * k[0] + 2 * k[1] - 3544 / 2565 * k[2] + 1859 / 4104 * k[3]
                        - 11 / 40 * k[4]), k[5])
        y4 = y + h * (25 / 216 * k[0] + 1408 / 2565 * k[2] + 2197 / 4104 * k[3] - k[4] / 5)
        y5 = y + h * (16 / 135 * k[0] + 6656 / 12825 * k[2] + 28561 / 56430 * k[3]
                      - 9 / 50 * k[4] + 2 / 55 * k[5])
        err = np.abs(y5 - y4).max()
        if err > tol:
            h = h * max(0.2, 0.9 * (tol / err) ** 0.25)
            rejected += 1
            continue
        y[:] = y5
        t += h
        accepted += 1
        h = h * min(4.0, max(0.2, 0.9 * (tol / max(err, 1e-300)) ** 0.2))
    return t, h, accepted, rejected


def make_ensemble(m=6):
    rng = np.random.default_rng(5)
    y = np.array([1.0, 1.0, 20.0]) + 1e-6 * rng.standard_normal((m, 3))
    return y


CHECKS = {
    "rkf45": lambda: (make_ensemble(), 0.5, 0.01, 1e-7, 300),
    "rkf45#loose": lambda: (make_ensemble(3), 1.0, 0.1, 1e-3, 50),
}

if __name__ == "__main__":
    y = make_ensemble()
    t, h, acc, rej = rkf45(y, 2.0, 0.01, 1e-8, 5000)
    print(repr(t), acc, rej, type(h).__name__)
    print(repr(np.linalg.norm(y[0] - y[1])), repr(y[:, 2].mean()))
