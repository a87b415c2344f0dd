"""Recover an unknown initial temperature profile from a measured final
profile, by gradient descent with jax.grad through the np2ref-compiled
NumPy simulation of diffusion_inverse.py.

`np2ref.compile(simulate).pure` is a pure JAX function of the same
parameters returning (readings, {"u": final u}); jax.grad differentiates
through it, although the original mutates u in place. Diffusion smooths, so
the problem is ill-posed: a small smoothness penalty regularises it.

    python examples/optimise_initial_condition.py
"""
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

import np2ref

sys.path.insert(0, str(Path(__file__).resolve().parent))
import diffusion_inverse as model  # noqa: E402

SMOOTHING = 1e-3
LEARNING_RATE = 0.9


def make_problem(size="large"):
    """(true initial u, kappa, sensors, steps, measured final u)."""
    inputs = model.make_inputs(size)
    u_true = inputs["u"].copy()
    model.simulate(**inputs)                 # NumPy: inputs["u"] becomes the final state
    return u_true, inputs["kappa"], inputs["sensors"], inputs["steps"], inputs["u"]


def optimise(iterations=300, size="large"):
    """Gradient descent on the initial condition. Returns (u_true, u_found,
    loss history, the jitted value_and_grad of the loss)."""
    u_true, kappa, sensors, steps, measured = make_problem(size)
    sim = np2ref.compile(model.simulate)

    def loss(u0):
        _, final = sim.pure(u0, kappa, sensors, steps)
        misfit = jnp.sum((final["u"] - measured) ** 2)
        return misfit + SMOOTHING * jnp.sum(jnp.diff(u0) ** 2)

    value_and_grad = jax.jit(jax.value_and_grad(loss))
    with jax.enable_x64(True):             # keep float64, as the NumPy original
        u0 = jnp.zeros_like(jnp.asarray(u_true))
        history = []
        for _ in range(iterations):
            value, g = value_and_grad(u0)
            history.append(float(value))
            u0 = u0 - LEARNING_RATE * g
    return u_true, np.asarray(u0), np.array(history), value_and_grad


if __name__ == "__main__":
    u_true, u_found, history, _ = optimise()
    print(f"loss: {history[0]:.3e} -> {history[-1]:.3e}")
    print(f"max |u_found - u_true| = {np.max(np.abs(u_found - u_true)):.3f}")
    # the compiled function behaves as the NumPy original on NumPy arrays
    inputs = {**model.make_inputs("large"), "u": u_found.copy()}
    numpy_readings = model.simulate(**{**inputs, "u": u_found.copy()})
    compiled_readings = np2ref.compile(model.simulate)(**inputs)
    print(f"NumPy vs compiled readings, max difference = "
          f"{np.max(np.abs(numpy_readings - compiled_readings)):.1e}")
