"""Gray-Scott reaction-diffusion on a periodic square, explicit Euler.

Domain: pattern formation. Two species U (fed at rate F) and V (removed at rate F + k) react as
U + 2V -> 3V and diffuse with Du > Dv. The run starts from U = 1, V = 0 with a perturbed square in
the middle, marked by a mask built from `np.meshgrid(range(n), range(n))` in set-up code; the
five-point Laplacian is a helper built from np.roll, and one Euler step is a helper returning the
new pair (`U, V = react(U, V, ...)`). The loop prints the mean concentrations and the V norm.
"""
import numpy as np

ENTRY = "run_gray_scott"

DU, DV = 0.16, 0.08


def seed_square(n, rng):
    """U = 1, V = 0, except a noisy square of side n/5 in the middle (U = 1/2, V = 1/4)."""
    X, Y = np.meshgrid(range(n), range(n))
    centre = (np.abs(X - n // 2) <= n // 10) & (np.abs(Y - n // 2) <= n // 10)
    U = np.ones((n, n))
    V = np.zeros((n, n))
    U[centre] = 0.50
    V[centre] = 0.25
    U += 0.02 * rng.random((n, n))
    V += 0.02 * rng.random((n, n))
    return U, V


def laplacian(Z):
    return (np.roll(Z, 1, axis=0) + np.roll(Z, -1, axis=0)
            + np.roll(Z, 1, axis=1) + np.roll(Z, -1, axis=1) - 4.0 * Z)


def react(U, V, F, k, dt):
    uvv = U * V * V
    U = U + dt * (DU * laplacian(U) - uvv + F * (1.0 - U))
    V = V + dt * (DV * laplacian(V) + uvv - (F + k) * V)
    return U, V


def run_gray_scott(U, V, F, k, dt, nsteps, every):
    """Returns the final (U, V) and the mean of V per step; the inputs are left as they were
    except for the clamp of the first state into [0, 1]."""
    np.clip(U, 0.0, 1.0, out=U)
    np.clip(V, 0.0, 1.0, out=V)
    mean_v = np.zeros(nsteps)
    for step in range(nsteps):
        U, V = react(U, V, F, k, dt)
        mean_v[step] = V.mean()
        if step % every == 0:
            print(f"step {step:5d}  <U> = {U.mean():.10f}  <V> = {mean_v[step]:.10f}"
                  f"  |V|_2 = {np.linalg.norm(V):.10f}")
    return U, V, mean_v


def make_inputs(size="small"):
    rng = np.random.default_rng(3)
    n, nsteps, every = (10, 6, 3) if size == "small" else (128, 3000, 500)
    U, V = seed_square(n, rng)
    return dict(U=U, V=V, F=0.035, k=0.065, dt=1.0, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    U, V, mean_v = run_gray_scott(**inputs)
    print(f"spots cover   = {(V > 0.1).mean():.6f}")
    print(f"final <V>     = {mean_v[-1]:.10f}")
    print(f"max U         = {U.max():.10f}")
