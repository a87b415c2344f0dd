"""Logistic growth on patches with parameters given as Python lists, ints and np.float32 scalars.

The carrying capacities are a Python list, the growth rate an `np.float32` scalar, the step a
Python float, the migration fraction a NumPy float64 scalar: `r * dt` is float32 * float ->
float32 (NEP 50), the population is float32 when its initial list is made with dtype=np.float32
and float64 otherwise. `pop = pop + ...` rebinds; `pop[pop < 1e-3] = 0.0` writes the new array.
"""
import numpy as np

ENTRY = "grow"


def migrate(pop, frac):
    flow = frac * pop
    return pop - flow + np.roll(flow, 1)


def grow(pop0, capacity, r, dt, frac, nsteps):
    pop = np.asarray(pop0)
    K = np.array(capacity)
    rate = r * dt
    history = [pop.sum()]
    for step in range(nsteps):
        pop = pop + rate * pop * (1.0 - pop / K)
        pop = migrate(pop, frac)
        pop[pop < 1e-3] = 0.0
        history.append(pop.sum())
    print(type(rate).__name__, pop.dtype, repr(history[-1]))
    return pop, history, rate


def make_inputs(size="small"):
    n = 6 if size == "small" else 40
    pop0 = np.full(n, 0.5, dtype=np.float32)
    pop0[0] = 5.0
    return dict(pop0=pop0, capacity=[10.0 + i for i in range(n)], r=np.float32(0.8), dt=0.1,
                frac=np.float64(0.05), nsteps=20)


CHECKS = {"grow": lambda: make_inputs("small"),
          "grow#list": lambda: dict(make_inputs("small"), pop0=[1.0, 2.0, 0.001, 4.0, 5.0, 6.0]),
          "grow#ints": lambda: dict(make_inputs("small"), r=2, frac=0.1)}

if __name__ == "__main__":
    pop, history, rate = grow(**make_inputs("large"))
    print(repr(pop.sum()), repr(history[::5]), repr(rate))
