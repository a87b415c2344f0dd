"""SEIR compartments on a ring of towns, parameters handed in as Python lists and jax scalars.

The rates arrive as a list `[beta, sigma, gamma]` of Python floats, the mobility as a float32
jax.Array matrix built in set-up (`jnp.eye`, `jnp.roll`), the initial infected as a list of ints.
The model takes `beta, sigma, gamma = rates`, `M = np.asarray(mobility)` (float32) and mixes it
with float64 compartments (float32 @ float64 -> float64); `S, E, I, R = S - dS, ...` rebinds.
"""
import jax.numpy as jnp
import numpy as np

ENTRY = "seir"


def mobility_matrix(n, leak):
    eye = jnp.eye(n)
    return (1.0 - leak) * eye + 0.5 * leak * (jnp.roll(eye, 1, axis=1) + jnp.roll(eye, -1, axis=1))


def seir(pop, infected0, rates, mobility, dt, days):
    beta, sigma, gamma = rates
    M = np.asarray(mobility)
    I = np.array(infected0, dtype=float)
    S = pop - I
    E = np.zeros_like(S)
    R = np.zeros_like(S)
    peak = []
    for day in range(days):
        force = beta * (M @ I) / pop
        dS = dt * force * S
        dE = dt * sigma * E
        dI = dt * gamma * I
        S, E, I, R = S - dS, E + dS - dE, I + dE - dI, R + dI
        peak.append(float(I.max()))
    print("final R", repr(float(R.sum())), M.dtype, I.dtype)
    return S, E, I, R, peak


def make_inputs(size="small"):
    n = 5 if size == "small" else 50
    pop = np.full(n, 1000.0)
    infected0 = [0] * n
    infected0[0] = 10
    return dict(pop=pop, infected0=infected0, rates=[0.4, 0.2, 0.1],
                mobility=mobility_matrix(n, 0.1), dt=0.5, days=30)


if __name__ == "__main__":
    S, E, I, R, peak = seir(**make_inputs("large"))
    print(repr(R.sum()), repr(max(peak)), repr(S[:3].tolist()))
