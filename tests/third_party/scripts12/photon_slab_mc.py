"""Monte Carlo photon transport through a slab (the MCML pattern, one dimension in depth): photon
packets with weights, step lengths -log(u) / mu_t from a Generator passed in, Henyey-Greenstein
scattering of the direction cosine, absorption by `w[alive] -= dw` with the deposit binned by
depth with np.add.at, reflected and transmitted weight tallied from masks, Russian roulette
`w[survive] *= 1.0 / CHANCE` and `alive &= ...`, a `while alive.any()` loop capped by a step
count, results normalised, the absorption profile printed coarsely.
"""
import numpy as np

MU_A, MU_S, G = 0.5, 4.5, 0.8
THICK = 2.0
NBINS = 10
CHANCE = 0.1
W_MIN = 1e-3


def hg_cosine(g, u):
    if g == 0.0:
        return 2.0 * u - 1.0
    tmp = (1.0 - g * g) / (1.0 - g + 2.0 * g * u)
    return (1.0 + g * g - tmp * tmp) / (2.0 * g)


def launch(n):
    z = np.zeros(n)
    mu = np.ones(n)
    w = np.ones(n)
    alive = np.ones(n, dtype=bool)
    return z, mu, w, alive


def transport(z, mu, w, alive, rng, absorbed, max_steps):
    mu_t = MU_A + MU_S
    reflect = 0.0
    transmit = 0.0
    steps = 0
    while alive.any() and steps < max_steps:
        s = -np.log(rng.random(z.size)) / mu_t
        z[alive] += (mu * s)[alive]
        out_top = alive & (z < 0.0)
        out_bottom = alive & (z > THICK)
        reflect += w[out_top].sum()
        transmit += w[out_bottom].sum()
        alive &= ~(out_top | out_bottom)
        dw = w * MU_A / mu_t
        bins = np.clip((z / THICK * NBINS).astype(np.int64), 0, NBINS - 1)
        np.add.at(absorbed, bins[alive], dw[alive])
        w[alive] -= dw[alive]
        # scatter: new polar cosine relative to the old direction, azimuth drawn
        ct = hg_cosine(G, rng.random(z.size))
        st = np.sqrt(np.maximum(0.0, 1.0 - ct * ct))
        phi = 2.0 * np.pi * rng.random(z.size)
        smu = np.sqrt(np.maximum(0.0, 1.0 - mu * mu))
        mu[alive] = (mu * ct + smu * st * np.cos(phi))[alive]
        np.clip(mu, -1.0, 1.0, out=mu)
        # roulette
        low = alive & (w < W_MIN)
        survive = low & (rng.random(z.size) < CHANCE)
        w[survive] *= 1.0 / CHANCE
        alive &= ~(low & ~survive)
        steps += 1
        if steps % 20 == 0:
            print("step", steps, "alive", int(alive.sum()))
    return reflect, transmit, steps


def simulate(n, seed, max_steps):
    rng = np.random.default_rng(seed)
    z, mu, w, alive = launch(n)
    absorbed = np.zeros(NBINS)
    reflect, transmit, steps = transport(z, mu, w, alive, rng, absorbed, max_steps)
    lost = w[alive].sum()
    return reflect / n, transmit / n, absorbed / n, lost / n, steps


CHECKS = {
    "transport": lambda: (*launch(200), np.random.default_rng(4), np.zeros(NBINS), 300),
    "transport#capped": lambda: (*launch(100), np.random.default_rng(5), np.zeros(NBINS), 15),
    "hg_cosine": lambda: (0.8, np.linspace(0.0, 1.0, 7)),
    "hg_cosine#iso": lambda: (0.0, np.linspace(0.0, 1.0, 7)),
    "launch": lambda: (5,),
}

if __name__ == "__main__":
    r, t, a, lost, steps = simulate(400, 2026, 400)
    print("steps", steps)
    print("R", repr(round(float(r), 9)), "T", repr(round(float(t), 9)), "lost", repr(round(float(lost), 9)))
    print("A", repr(round(float(a.sum()), 9)), "balance", repr(round(float(r + t + a.sum() + lost), 6)))
    print(np.round(a, 5))
