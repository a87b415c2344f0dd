# np2ref: converted from examples/diffusion_inverse.py by np2ref. Arrays that are written are jax.Ref buffers;
# every read is an explicit load (`u[...]`). Functions marked @npr_jit take NumPy arrays from
# host code, run jit-compiled with NumPy's 64-bit types, and write back what they mutate.
"""1-D diffusion with a spatially varying conductivity, explicit finite
volumes: the forward model of an inverse problem.

Domain: heat conduction in a rod made of two materials, both ends held at
zero. `simulate` advances the temperature u in place with conservative
fluxes (face conductivities are harmonic means), records a sensor reading
at a few points every step, and returns the readings. The companion script
optimise_initial_condition.py recovers the unknown initial temperature from
the final profile, with jax.grad through the np2ref-compiled simulation.
"""
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import (
    npr_at, npr_floordiv, npr_for, npr_get, npr_jit, npr_np_array, npr_np_exp, npr_np_linspace,
    npr_np_where, npr_range,
)


ENTRY = "simulate"

N = 64
STEPS = 60
R = 0.2           # dt / dx**2


@npr_jit(mutated=('kface',))
def face_conductivity(kappa, kface):
    """Harmonic mean of the two cell conductivities at each interior face."""
    npr_at(kface)[:] = 2.0 * kappa[1:] * kappa[:-1] / (kappa[1:] + kappa[:-1])


@npr_jit(mutated=('u', 'flux'))
def step(u, flux, kface, r):
    npr_at(flux)[:] = kface * (u[...][1:] - u[...][:-1])
    npr_at(u)[1:-1] += r * (flux[...][1:] - flux[...][:-1])
    npr_at(u)[0] = 0.0
    npr_at(u)[-1] = 0.0


@npr_jit(mutated=('u',))
def simulate(u, kappa, sensors, steps):
    """Advance u in place for `steps` steps; return (steps, n_sensors)
    readings of u at the sensor cells."""
    n = u.shape[0]
    kface = jax.new_ref(jnp.zeros(n - 1))
    flux = jax.new_ref(jnp.zeros(n - 1))
    face_conductivity(kappa, kface)
    readings = jax.new_ref(jnp.zeros((steps, sensors.shape[0])))
    def _loop_k(k):
        step(u, flux, kface[...], R)
        npr_at(readings)[k] = npr_get(u)[sensors]
    npr_for(npr_range(steps), _loop_k)
    return readings[...]


@npr_jit
def make_inputs(size="small"):
    n, steps = (16, 10) if size == "small" else (N, STEPS)
    x = npr_np_linspace(0.0, 1.0, n)
    u = npr_np_exp(-((x - 0.3) / 0.08) ** 2) + 0.5 * npr_np_exp(-((x - 0.7) / 0.05) ** 2)
    kappa = npr_np_where(x < 0.5, 1.0, 0.4)
    sensors = npr_np_array([npr_floordiv(n, 4), npr_floordiv(n, 2), npr_floordiv(3 * n, 4)])
    return dict(u=u, kappa=kappa, sensors=sensors, steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    readings = simulate(**inputs)
    print(f"final sensor readings = {np.round(readings[-1], 6)}")
    print(f"final heat content    = {inputs['u'].sum():.6f}")
# np2ref: sha256 3ccd51f82cacacfc (np2ref overwrites this file only while it is unedited)
