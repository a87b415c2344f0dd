"""Monte Carlo photon transport through a 1-D slab shield (analog
simulation, random numbers drawn up front).

Domain: radiation shielding. Photons enter a slab of thickness L at x = 0,
travel exponentially distributed free paths (optical depth drawn as
-log(u)), and at each collision are absorbed with probability 1 - albedo or
scattered isotropically (a new direction cosine mu). The histories are
advanced together, vectorised over photons with boolean masks: `alive`
marks photons still inside, transmitted and reflected photons are tallied
and taken out of play. All random numbers for a fixed maximum number of
collisions are drawn before the run. A collision-density histogram is
accumulated with np.add.at.
"""
import numpy as np

ENTRY = "transport"

NBINS = 10


def tally_collisions(hist, x, alive, thickness):
    """Add one count per live photon to the bin of its collision site."""
    b = np.floor(x / thickness * NBINS).astype(np.int64)
    b = np.clip(b, 0, NBINS - 1)
    np.add.at(hist, b, alive.astype(np.int64))


def transport(x, mu, alive, u_path, u_absorb, u_mu, sigma_t, albedo, thickness, hist):
    """Advance all photons through up to u_path.shape[0] collisions, in
    place. Returns (transmitted fraction, reflected fraction, absorbed
    fraction, photons still alive)."""
    n = x.shape[0]
    transmitted = np.zeros(n, dtype=bool)
    reflected = np.zeros(n, dtype=bool)
    absorbed = np.zeros(n, dtype=bool)
    hist[...] = 0
    for k in range(u_path.shape[0]):
        step = -np.log(u_path[k]) / sigma_t
        x[alive] += step[alive] * mu[alive]
        out_far = alive & (x > thickness)
        out_near = alive & (x < 0.0)
        transmitted |= out_far
        reflected |= out_near
        alive &= ~(out_far | out_near)
        tally_collisions(hist, x, alive, thickness)
        eaten = alive & (u_absorb[k] > albedo)
        absorbed |= eaten
        alive &= ~eaten
        mu[alive] = 2.0 * u_mu[k][alive] - 1.0     # isotropic scattering
    return (transmitted.mean(), reflected.mean(), absorbed.mean(), alive.sum())


def make_inputs(size="small"):
    rng = np.random.default_rng(9)
    n, kmax = (16, 5) if size == "small" else (200000, 60)
    return dict(x=np.zeros(n), mu=np.ones(n), alive=np.ones(n, dtype=bool),
                u_path=1.0 - rng.random((kmax, n)), u_absorb=rng.random((kmax, n)),
                u_mu=rng.random((kmax, n)), sigma_t=1.0, albedo=0.7, thickness=2.0,
                hist=np.zeros(NBINS, dtype=np.int64))


if __name__ == "__main__":
    inputs = make_inputs("large")
    t, r, a, left = transport(**inputs)
    print(f"transmitted = {t:.6f}")
    print(f"reflected   = {r:.6f}")
    print(f"absorbed    = {a:.6f}")
    print(f"still alive = {left}")
