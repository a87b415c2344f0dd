"""Gray-Scott reaction-diffusion from a seeded patch, with set-up and boundary helpers.

Domain: pattern formation. Two species U, V on an n x n periodic grid react (U + 2V -> 3V, feed
F, kill k) and diffuse with the 5-point Laplacian written with np.roll. A set-up function makes
the seeded square and the noise; a helper returns the pair of reaction terms
(`ru, rv = reaction(U, V, F, k)`), and the time step rebinds both fields to new arrays
(`U, V = U + dt * du, V + dt * dv`) after clipping them in place. The mean and extremes of V are
printed every few steps.
"""
import numpy as np

ENTRY = "run_gray_scott"


def seeded(n, rng):
    U = np.ones((n, n))
    V = np.zeros((n, n))
    c, r = n // 2, max(n // 8, 1)
    U[c - r:c + r, c - r:c + r] = 0.5
    V[c - r:c + r, c - r:c + r] = 0.25
    U += 0.02 * rng.random((n, n))
    V += 0.02 * rng.random((n, n))
    return U, V


def laplacian(Z):
    return (np.roll(Z, 1, axis=0) + np.roll(Z, -1, axis=0) + np.roll(Z, 1, axis=1)
            + np.roll(Z, -1, axis=1) - 4 * Z)


def reaction(U, V, F, k):
    uvv = U * V * V
    return -uvv + F * (1 - U), uvv - (F + k) * V


def run_gray_scott(U, V, Du, Dv, F, k, dt, nsteps, every):
    """Returns the final fields; the caller's U, V are clipped at the first step."""
    for step in range(nsteps):
        np.clip(U, 0.0, 1.0, out=U)
        np.clip(V, 0.0, 1.0, out=V)
        ru, rv = reaction(U, V, F, k)
        du = Du * laplacian(U) + ru
        dv = Dv * laplacian(V) + rv
        U, V = U + dt * du, V + dt * dv
        if step % every == 0:
            print(f"step {step:5d}  <V> = {V.mean():.10f}  V in [{V.min():.10f}, {V.max():.10f}]")
    return U, V


def make_inputs(size="small"):
    rng = np.random.default_rng(5)
    n, nsteps, every = (12, 6, 2) if size == "small" else (96, 3000, 500)
    U, V = seeded(n, rng)
    return dict(U=U, V=V, Du=0.16, Dv=0.08, F=0.035, k=0.065, dt=1.0, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    U, V = run_gray_scott(**inputs)
    print(f"spots = {int((V > 0.2).sum())}  <U> = {U.mean():.10f}")
