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

ENTRY = "simulate"

N = 64
STEPS = 60
R = 0.2           # dt / dx**2


def face_conductivity(kappa, kface):
    """Harmonic mean of the two cell conductivities at each interior face."""
    kface[:] = 2.0 * kappa[1:] * kappa[:-1] / (kappa[1:] + kappa[:-1])


def step(u, flux, kface, r):
    flux[:] = kface * (u[1:] - u[:-1])
    u[1:-1] += r * (flux[1:] - flux[:-1])
    u[0] = 0.0
    u[-1] = 0.0


def simulate(u, kappa, sensors, steps):
    """Advance u in place for `steps` steps; return (steps, n_sensors)
    readings of u at the sensor cells."""
    n = u.shape[0]
    kface = np.zeros(n - 1)
    flux = np.zeros(n - 1)
    face_conductivity(kappa, kface)
    readings = np.zeros((steps, sensors.shape[0]))
    for k in range(steps):
        step(u, flux, kface, R)
        readings[k] = u[sensors]
    return readings


def make_inputs(size="small"):
    n, steps = (16, 10) if size == "small" else (N, STEPS)
    x = np.linspace(0.0, 1.0, n)
    u = np.exp(-((x - 0.3) / 0.08) ** 2) + 0.5 * np.exp(-((x - 0.7) / 0.05) ** 2)
    kappa = np.where(x < 0.5, 1.0, 0.4)
    sensors = np.array([n // 4, n // 2, 3 * n // 4])
    return dict(u=u, kappa=kappa, sensors=sensors, steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    readings = simulate(**inputs)
    print(f"final sensor readings = {np.round(readings[-1], 6)}")
    print(f"final heat content    = {inputs['u'].sum():.6f}")
