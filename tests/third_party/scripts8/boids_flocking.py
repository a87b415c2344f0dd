"""Boids: cohesion, alignment and separation from all pairwise offsets in a periodic box (minimum
image by `d -= L * np.round(d / L)`), neighbour masks with the diagonal cleared by
`np.fill_diagonal`, steering added in place, speeds clamped by rescaling rows where too fast
(`v[fast] *= (vmax / speed[fast])[:, None]`), float32 positions with float64 velocities, and the
polarisation order parameter printed every N steps.
"""
import numpy as np

L = 10.0


def steer(x, v, r_nb, r_sep, w):
    d = x[None, :, :] - x[:, None, :]
    d -= L * np.round(d / L)
    dist = np.sqrt((d ** 2).sum(axis=2))
    nb = dist < r_nb
    np.fill_diagonal(nb, False)
    close = (dist < r_sep) & nb
    cnt = nb.sum(axis=1)
    has = cnt > 0
    acc = np.zeros_like(v)
    centre = (d * nb[:, :, None]).sum(axis=1)
    align = (v[None, :, :] * nb[:, :, None]).sum(axis=1)
    acc[has] += w[0] * centre[has] / cnt[has, None]
    acc[has] += w[1] * (align[has] / cnt[has, None] - v[has])
    acc -= w[2] * (d * close[:, :, None]).sum(axis=1)
    return acc


def simulate(x, v, dt, vmax, nsteps, every, weights):
    pol = []
    for n in range(nsteps):
        v += dt * steer(x, v, 2.0, 0.5, weights)
        speed = np.sqrt((v ** 2).sum(axis=1))
        fast = speed > vmax
        v[fast] *= (vmax / speed[fast])[:, None]
        x += (dt * v).astype(x.dtype)
        x %= L
        p = np.linalg.norm(v.sum(axis=0)) / np.linalg.norm(v, axis=1).sum()
        pol.append(p)
        if n % every == 0:
            print(n, "polarisation", f"{p:.10f}")
    return x, v, pol


def make_flock(n=20, seed=12):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, L, (n, 2)).astype(np.float32)
    v = rng.normal(0, 1, (n, 2))
    return x, v


CHECKS = {
    "simulate": lambda: (*make_flock(), 0.1, 2.0, 30, 10, (0.05, 0.1, 0.3)),
    "steer": lambda: (*make_flock(8), 2.0, 0.5, [0.05, 0.1, 0.3]),
}

if __name__ == "__main__":
    x, v = make_flock(40)
    x, v, pol = simulate(x, v, 0.1, 2.0, 80, 20, (0.05, 0.1, 0.3))
    print(x.dtype, repr(float(pol[-1])), repr(x.mean()), len(pol))
