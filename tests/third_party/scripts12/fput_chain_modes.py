"""The Fermi-Pasta-Ulam-Tsingou alpha chain: N masses between fixed walls, the lowest normal mode
excited, velocity Verlet with the force written into an array handed in (`np.diff` of the padded
displacements, the quadratic term `ALPHA * d * d`), `np.add(x, DT * v, out=x)` and `v += 0.5 * DT
* a` half kicks, the normal-mode energies by a sine-transform matrix built at module level, the
energy of the first modes kept every K steps in a history array and printed, recurrence measured
as the largest return of mode 1's share, the initial amplitudes coming from a list.
"""
import numpy as np

N = 16
ALPHA = 0.25
DT = 0.1
K = 25
J = np.arange(1, N + 1)
MODES = np.sqrt(2.0 / (N + 1)) * np.sin(np.pi * np.outer(J, J) / (N + 1))
OMEGA = 2.0 * np.sin(np.pi * J / (2.0 * (N + 1)))
AMPS = [4.0, 0.0, 0.5]


def force(x, out):
    d = np.diff(np.concatenate(([0.0], x, [0.0])))
    f = d + ALPHA * d * d
    out[:] = f[1:] - f[:-1]
    return out


def mode_energies(x, v):
    q = MODES @ x
    p = MODES @ v
    return 0.5 * (p * p + (OMEGA * q) ** 2)


def run(x, v, steps, history):
    a = np.empty_like(x)
    force(x, a)
    e0 = mode_energies(x, v).sum()
    best_return = 0.0
    row = 0
    for step in range(1, steps + 1):
        v += 0.5 * DT * a
        np.add(x, DT * v, out=x)
        force(x, a)
        v += 0.5 * DT * a
        if step % K == 0:
            e = mode_energies(x, v)
            history[row] = e[:4]
            share = e[0] / e.sum()
            if step > steps // 2:
                best_return = max(best_return, share)
            print("step", step, "mode1", repr(round(float(share), 9)))
            row += 1
    drift = (mode_energies(x, v).sum() - e0) / e0
    return best_return, drift, row


def initial(amps):
    x = np.zeros(N)
    for k, amp in enumerate(amps):
        x += amp * MODES[k]
    return x


CHECKS = {
    "run": lambda: (initial(AMPS), np.zeros(N), 200, np.zeros((8, 4))),
    "force": lambda: (initial(AMPS), np.zeros(N)),
    "mode_energies": lambda: (initial(AMPS), np.linspace(-1.0, 1.0, N)),
    "initial": lambda: (AMPS,),
    "initial#tuple": lambda: ((1.0, 2.0),),
}

if __name__ == "__main__":
    x = initial(AMPS)
    v = np.zeros(N)
    history = np.zeros((12, 4))
    best_return, drift, rows = run(x, v, 300, history)
    print("rows", rows, "return", repr(round(float(best_return), 9)))
    print("drift small", abs(drift) < 1e-3)
    print(np.round(history[:rows:3], 6))
