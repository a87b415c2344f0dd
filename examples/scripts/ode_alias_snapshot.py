"""RK2 integration of a damped pendulum array where the "previous state" is an alias.

`y_prev = y` (no copy) before `y += ...` makes the step size controller see zero change; the
caller then takes `snap = y[:2]` views into a list (they all alias the final state); in one
branch the state is rebound (`y = y.copy()`) so later steps no longer write the caller's array.
"""
import numpy as np

ENTRY = "integrate"


def rhs(y, g, c):
    n = y.size // 2
    dy = np.empty_like(y)
    dy[:n] = y[n:]
    dy[n:] = -g * np.sin(y[:n]) - c * y[n:]
    return dy


def integrate(y, g, c, dt, nsteps, detach_at):
    snaps = []
    changes = []
    for step in range(nsteps):
        y_prev = y
        k1 = rhs(y, g, c)
        k2 = rhs(y + dt * k1, g, c)
        y += 0.5 * dt * (k1 + k2)
        changes.append(float(np.abs(y - y_prev).max()))
        snaps.append(y[:2])
        if step == detach_at:
            y = y.copy()
            y[0] = 0.0
    print("changes", repr(changes[:3]), "snap0", repr(snaps[0].tolist()))
    return [s.copy() for s in snaps], changes


def make_inputs(size="small"):
    n = 3 if size == "small" else 50
    th = np.linspace(0.1, 1.0, n)
    return dict(y=np.concatenate([th, np.zeros(n)]), g=9.81, c=0.1, dt=0.01, nsteps=8, detach_at=4)


if __name__ == "__main__":
    inputs = make_inputs("large")
    snaps, changes = integrate(**inputs)
    print(repr(snaps[-1].tolist()), repr(snaps[0].tolist()), repr(inputs["y"].sum()))
