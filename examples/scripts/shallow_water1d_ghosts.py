"""1-D shallow water, Rusanov fluxes, ghost cells refreshed by slice assignment every step.

Conserved variables h and hu live in arrays with two ghost cells at each end; reflective
walls are applied by slice assignment (`q[:, :2] = q[:, 3:1:-1]`, momentum negated) before
each step; dt comes from the CFL condition on max(|u| + sqrt(g h)); the loop is a `while t <
tend` with the last step cut to land on tend. Mass is printed every few steps.
"""
import numpy as np

ENTRY = "solve"
G = 9.81
NG = 2


def apply_walls(q):
    q[:, :NG] = q[:, 2 * NG - 1:NG - 1:-1]
    q[:, -NG:] = q[:, -NG - 1:-2 * NG - 1:-1]
    q[1, :NG] *= -1.0
    q[1, -NG:] *= -1.0


def flux(q):
    h, hu = q[0], q[1]
    u = hu / h
    return np.array([hu, hu * u + 0.5 * G * h * h])


def solve(q, dx, cfl, tend):
    t = 0.0
    step = 0
    while t < tend:
        apply_walls(q)
        h = q[0]
        c = np.abs(q[1] / h) + np.sqrt(G * h)
        dt = cfl * dx / np.max(c)
        if t + dt > tend:
            dt = tend - t
        qL, qR = q[:, :-1], q[:, 1:]
        a = np.maximum(c[:-1], c[1:])
        F = 0.5 * (flux(qL) + flux(qR)) - 0.5 * a * (qR - qL)
        q[:, NG:-NG] -= dt / dx * (F[:, NG:-NG + 1] - F[:, NG - 1:-NG])
        t += dt
        step += 1
        if step % 10 == 0:
            print(step, repr(float(t)), repr(float(q[0, NG:-NG].sum() * dx)))
    return step, t


def make_inputs(size="small"):
    nx = 20 if size == "small" else 200
    dx = 1.0 / nx
    x = (np.arange(nx + 2 * NG) - NG + 0.5) * dx
    q = np.zeros((2, nx + 2 * NG))
    q[0] = np.where(x < 0.5, 2.0, 1.0)
    return dict(q=q, dx=dx, cfl=0.45, tend=0.05)


if __name__ == "__main__":
    inputs = make_inputs("large")
    steps, t = solve(**inputs)
    q = inputs["q"]
    print(repr(steps), repr(t), repr(q[0].sum()), repr(q[1].sum()), repr(q[0, 50:55].tolist()))
