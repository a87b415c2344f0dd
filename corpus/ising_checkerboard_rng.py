"""2-D Ising model, checkerboard Metropolis with draws from a generator passed in.

Domain: statistical physics. Spins +-1 on an n x n periodic lattice at inverse temperature beta.
A sweep updates the two sub-lattices of a checkerboard in turn (the sites of one colour do not
neighbour each other, so they can be updated together); each half-sweep draws one uniform number
per site from the seeded generator the caller passes in (`rng.random((n, n))`), and the accepted
flips are applied through a mask (`s[flip] *= -1`). The checkerboard colours come from
`np.meshgrid(range(n), range(n))` in set-up code. Energy and magnetisation per spin are printed
every few sweeps.
"""
import numpy as np

ENTRY = "run_ising"


def checkerboard(n):
    I, J = np.meshgrid(range(n), range(n), indexing="ij")
    return (I + J) % 2 == 0


def neighbour_sum(s):
    return np.roll(s, 1, 0) + np.roll(s, -1, 0) + np.roll(s, 1, 1) + np.roll(s, -1, 1)


def energy_per_spin(s):
    return -np.sum(s * (np.roll(s, 1, 0) + np.roll(s, 1, 1))) / s.size


def half_sweep(s, colour, beta, rng):
    """Metropolis on the sites of one colour; returns the number of flips."""
    dE = 2.0 * s * neighbour_sum(s)
    u = rng.random(s.shape)
    flip = colour & (u < np.exp(-beta * dE))
    s[flip] *= -1
    return np.count_nonzero(flip)


def run_ising(s, beta, nsweeps, every, rng):
    """Sweep the spins s in place; returns energy and magnetisation per spin per sweep."""
    black = checkerboard(s.shape[0])
    white = ~black
    e = np.zeros(nsweeps)
    m = np.zeros(nsweeps)
    flips = 0
    for sweep in range(nsweeps):
        flips += half_sweep(s, black, beta, rng)
        flips += half_sweep(s, white, beta, rng)
        e[sweep] = energy_per_spin(s)
        m[sweep] = np.mean(s)
        if sweep % every == 0:
            print(f"sweep {sweep:5d}  e = {e[sweep]:+.8f}  m = {m[sweep]:+.8f}  flips = {flips}")
    return e, m, flips


def make_inputs(size="small"):
    rng = np.random.default_rng(2024)
    n, nsweeps, every = (6, 5, 2) if size == "small" else (64, 1000, 100)
    s = np.where(rng.random((n, n)) < 0.5, -1, 1).astype(np.int64)
    return dict(s=s, beta=0.5, nsweeps=nsweeps, every=every, rng=rng)


if __name__ == "__main__":
    inputs = make_inputs("large")
    e, m, flips = run_ising(**inputs)
    half = len(e) // 2
    print(f"<e> = {e[half:].mean():+.8f}   <|m|> = {np.abs(m[half:]).mean():.8f}")
    print(f"flips = {flips}")
