"""Gray-Scott reaction-diffusion on a periodic square, explicit Euler.

Domain: pattern formation (spots, stripes, mazes). Two concentrations u and
v diffuse with a five-point Laplacian written with np.roll and react
(u + 2v -> 3v, feed F, kill k). The fields are updated in place; the
pattern that forms depends on (F, k), which is what the companion script
batch_gray_scott.py explores with jax.vmap over a batch of simulations.
"""
import numpy as np

ENTRY = "simulate"

N = 64
STEPS = 2000
DU, DV = 0.16, 0.08
DT = 1.0


def laplacian(a, out):
    """Periodic five-point Laplacian of a written into out."""
    out[...] = (np.roll(a, 1, axis=0) + np.roll(a, -1, axis=0)
                + np.roll(a, 1, axis=1) + np.roll(a, -1, axis=1) - 4.0 * a)


def react(u, v, lu, lv, feed, kill):
    uvv = u * v * v
    u += DT * (DU * lu - uvv + feed * (1.0 - u))
    v += DT * (DV * lv + uvv - (feed + kill) * v)


def simulate(u, v, feed, kill, steps):
    """Advance (u, v) in place; return the mean of v every 10 steps."""
    lu = np.zeros_like(u)
    lv = np.zeros_like(v)
    mean_v = np.zeros(steps // 10)
    for k in range(steps):
        laplacian(u, lu)
        laplacian(v, lv)
        react(u, v, lu, lv, feed, kill)
        if k % 10 == 9:
            mean_v[k // 10] = v.mean()
    return mean_v


def initial_state(n, seed=0):
    """u = 1, v = 0, with a noisy square of v in the centre."""
    rng = np.random.default_rng(seed)
    u = np.ones((n, n))
    v = np.zeros((n, n))
    c, r = n // 2, n // 8
    u[c - r:c + r, c - r:c + r] = 0.5
    v[c - r:c + r, c - r:c + r] = 0.25
    u += 0.02 * rng.random((n, n))
    v += 0.02 * rng.random((n, n))
    return u, v


def make_inputs(size="small"):
    n, steps = (16, 20) if size == "small" else (N, STEPS)
    u, v = initial_state(n)
    return dict(u=u, v=v, feed=0.035, kill=0.065, steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    mean_v = simulate(**inputs)
    print(f"mean v end = {mean_v[-1]:.6f}")
    print(f"max v      = {inputs['v'].max():.6f}")
