"""A hot rod cooling by conduction and thermal radiation, with SciPy's constants.

Domain: heat transfer. Temperature T on a 1-D rod (explicit finite differences, insulated ends)
loses heat through its surface by Stefan-Boltzmann radiation to surroundings at T_INF; the
radiation constant comes from scipy.constants, and the early-time similarity profile used as a
check, T_INF + (T0 - T_INF) erfc(x / (2 sqrt(alpha t))), from scipy.special.erfc on the traced
time and grid (a host call when the program runs). The set-up function builds the grid and the
initial hot spot; helpers return the pair (flux, loss) of each step. The mean temperature, the
radiated power and the distance from the similarity profile are printed every few steps.
"""
import numpy as np
import scipy.constants
import scipy.special  # np2ref: requires scipy

ENTRY = "run_rod"
T_INF = 300.0
EMISSIVITY = 0.8
DIAMETER = 0.01
SIGMA_SB = scipy.constants.Stefan_Boltzmann


def make_rod(n, length, t_hot):
    x = np.linspace(0.0, length, n)
    T = np.full(n, T_INF)
    T[: n // 4] = t_hot
    return x, T


def conduction_and_radiation(T, dx, alpha, rho_c):
    lap = np.zeros_like(T)
    lap[1:-1] = (T[2:] - 2 * T[1:-1] + T[:-2]) / dx ** 2
    lap[0] = 2 * (T[1] - T[0]) / dx ** 2
    lap[-1] = 2 * (T[-2] - T[-1]) / dx ** 2
    loss = 4 * EMISSIVITY * SIGMA_SB * (T ** 4 - T_INF ** 4) / (rho_c * DIAMETER)
    return alpha * lap, loss


def run_rod(T, x, alpha, rho_c, dt, nsteps, every):
    """Cool T in place; returns the radiated power per unit area per step."""
    dx = x[1] - x[0]
    t_hot = T.max()
    front = x[np.argmax(T < t_hot)]
    power = np.zeros(nsteps)
    for step in range(nsteps):
        flux, loss = conduction_and_radiation(T, dx, alpha, rho_c)
        T += dt * (flux - loss)
        power[step] = EMISSIVITY * SIGMA_SB * np.mean(T ** 4 - T_INF ** 4)
        if step % every == 0:
            t = (step + 1) * dt
            profile = T_INF + 0.5 * (t_hot - T_INF) * scipy.special.erfc((x - front) / (2 * np.sqrt(alpha * t)))
            print(f"step {step:5d}  mean T = {T.mean():.8f}  power = {power[step]:.8f}  "
                  f"|T - similarity| = {np.abs(T - profile).max():.8f}")
    return power


def make_inputs(size="small"):
    n, nsteps, every = (24, 10, 3) if size == "small" else (200, 4000, 500)
    x, T = make_rod(n, 0.1, 900.0)
    alpha = 1.1e-4
    dt = 0.2 * (x[1] - x[0]) ** 2 / alpha
    return dict(T=T, x=x, alpha=alpha, rho_c=3.4e6, dt=dt, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    power = run_rod(**inputs)
    print(f"final mean T = {inputs['T'].mean():.8f}  total radiated = {power.sum() * inputs['dt']:.8f}")
