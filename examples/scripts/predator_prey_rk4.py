"""Lotka-Volterra predator-prey by classical RK4; the state is rebound and written in place.

`y = y + dt * k` rebinds the state inside the RK stages (a new array each time) while the
trajectory array is written in place row by row (`traj[i + 1] = y`) and the populations are
floored in place (`np.maximum(y, 0.0, out=y)`) after each step. Parameters come from a
module-level tuple; the peak prey population and its time are found with np.argmax.
"""
import numpy as np

ENTRY = "integrate"
ALPHA, BETA, DELTA, GAMMA = 1.1, 0.4, 0.1, 0.4


def rhs(y):
    prey, pred = y
    return np.array([ALPHA * prey - BETA * prey * pred,
                     DELTA * prey * pred - GAMMA * pred])


def rk4_step(y, dt):
    k1 = rhs(y)
    k2 = rhs(y + 0.5 * dt * k1)
    k3 = rhs(y + 0.5 * dt * k2)
    k4 = rhs(y + dt * k3)
    return y + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)


def integrate(y0, traj, dt):
    y = y0.copy()
    for i in range(traj.shape[0] - 1):
        y = rk4_step(y, dt)
        np.maximum(y, 0.0, out=y)
        traj[i + 1] = y
    y0[:] = y                                   # the caller's initial state becomes the final one
    peak = np.argmax(traj[:, 0])
    print(repr(int(peak)), repr(float(traj[peak, 0])))
    return peak * dt, y


def make_inputs(size="small"):
    n = 40 if size == "small" else 2000
    y0 = np.array([10.0, 5.0])
    traj = np.zeros((n, 2))
    traj[0] = y0
    return dict(y0=y0, traj=traj, dt=0.01)


if __name__ == "__main__":
    inputs = make_inputs("large")
    tpeak, y = integrate(**inputs)
    print(repr(tpeak), repr(y.tolist()), repr(inputs["traj"].sum(axis=0).tolist()))
