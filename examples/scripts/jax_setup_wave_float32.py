"""A 1-D wave solver whose set-up is written with jax.numpy and whose solver is NumPy.

The initial pulse and the speed profile come from `jnp.linspace`/`jnp.exp` (float32 jax.Arrays
under JAX's default 32-bit mode); the solver takes them with `np.asarray`/`np.array` and runs
in NumPy, so every array is float32 and the Python-float coefficients keep it float32 (NEP 50).
`u_prev, u, u_next = u, u_next, u_prev` rotates three buffers; the energy history is float32
`np.sum` results appended to a list.
"""
import jax.numpy as jnp
import numpy as np

ENTRY = "wave"


def initial_state(n):
    x = jnp.linspace(0.0, 1.0, n)
    pulse = jnp.exp(-200.0 * (x - 0.3) ** 2)
    speed = 0.5 + 0.25 * jnp.sin(6.0 * x)
    return pulse, speed


def wave(pulse, speed, dt, nsteps):
    u = np.array(pulse)
    u_prev = u.copy()
    u_next = np.zeros_like(u)
    c2 = np.asarray(speed) ** 2 * dt * dt
    energy = []
    for step in range(nsteps):
        u_next[1:-1] = 2.0 * u[1:-1] - u_prev[1:-1] + c2[1:-1] * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u_next[0] = 0.0
        u_next[-1] = 0.0
        u_prev, u, u_next = u, u_next, u_prev
        energy.append(np.sum(u * u))
        if step % 5 == 0:
            print(step, repr(energy[-1]), u.dtype)
    return u, energy


def make_inputs(size="small"):
    n = 24 if size == "small" else 200
    pulse, speed = initial_state(n)
    return dict(pulse=pulse, speed=speed, dt=0.02 * 24 / n, nsteps=11)


def make_numpy_inputs():
    inputs = make_inputs("small")
    return dict(inputs, pulse=np.asarray(inputs["pulse"]), speed=np.asarray(inputs["speed"]))


CHECKS = {"wave": lambda: make_inputs("small"), "wave#numpy": make_numpy_inputs}

if __name__ == "__main__":
    inputs = make_inputs("large")
    u, energy = wave(**inputs)
    print(repr(u.sum()), u.dtype, repr(energy[-1]), type(energy[-1]).__name__)
