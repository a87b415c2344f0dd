"""A Moran process of two alleles in a population of fixed size, in the pattern of population
genetics teaching scripts: integer counts of the mutant (int64, and an int32 population array
from set-up code), one birth and one death per event chosen with fitness-weighted
probabilities, runs until fixation or loss in a `while` on the count, the fixation probability
against Kimura's formula (rho = (1 - 1/r) / (1 - 1/r^N)), mean absorption times, a
multi-deme variant with migration where demes' counts are int32 written through row views, and
heterozygosity decay of a neutral Wright-Fisher population by binomial draws for comparison.
"""
import numpy as np

N = 20
DEMES = np.array([[3, 17], [10, 10], [0, 20]], dtype=np.int32)


def fixation_theory(r, n):
    if r == 1.0:
        return 1.0 / n
    return (1.0 - 1.0 / r) / (1.0 - r ** -n)


def moran_run(rng, i, n, r, max_events=100000):
    """Events until the mutant count i reaches 0 or n."""
    events = 0
    while 0 < i < n and events < max_events:
        p_birth = r * i / (r * i + (n - i))
        born_mutant = rng.random() < p_birth
        dies_mutant = rng.random() < i / n
        i += int(born_mutant) - int(dies_mutant)
        events += 1
    return i, events


def fixation_estimate(rng, n, r, runs):
    fixed = 0
    times = np.zeros(runs, dtype=np.int64)
    for k in range(runs):
        final, t = moran_run(rng, 1, n, r)
        times[k] = t
        if final == n:
            fixed += 1
    return fixed / runs, times


def migrate_demes(rng, counts, m, generations):
    """counts[d] = [mutants, wild] per deme; each generation a binomial resampling with the pooled
    migrant frequency mixed in, written into each deme's row."""
    sizes = counts.sum(axis=1)
    for g in range(generations):
        freq = counts[:, 0] / sizes
        pooled = freq.mean()
        for d in range(counts.shape[0]):
            row = counts[d]
            p = (1.0 - m) * freq[d] + m * pooled
            row[0] = rng.binomial(sizes[d], p)
            row[1] = sizes[d] - row[0]
    return counts[:, 0].sum()


def wright_fisher_het(rng, p0, n, generations, reps):
    p = np.full(reps, p0)
    het = np.zeros(generations + 1)
    het[0] = np.mean(2.0 * p * (1.0 - p))
    for g in range(1, generations + 1):
        p = rng.binomial(n, p) / n
        het[g] = np.mean(2.0 * p * (1.0 - p))
    return het


CHECKS = {
    "fixation_theory": lambda: (1.5, N),
    "fixation_theory#neutral": lambda: (1.0, N),
    "moran_run": lambda: (np.random.default_rng(1), 1, N, 1.2),
    "moran_run#capped": lambda: (np.random.default_rng(2), 10, N, 1.0, 15),
    "fixation_estimate": lambda: (np.random.default_rng(3), 8, 1.5, 30),
    "migrate_demes": lambda: (np.random.default_rng(4), DEMES.copy(), 0.1, 5),
    "wright_fisher_het": lambda: (np.random.default_rng(5), 0.5, 30, 12, 50),
}

if __name__ == "__main__":
    rng = np.random.default_rng(1859)
    for r in [1.0, 1.1, 1.5]:
        est, times = fixation_estimate(rng, N, r, 100)
        print("r", r, "fixation", round(est, 4), "theory", round(fixation_theory(r, N), 4),
              "mean time", round(float(times.mean()), 2), "longest", int(times.max()), times.dtype)
    demes = DEMES.copy()
    total = migrate_demes(rng, demes, 0.05, 25)
    print("demes after migration", demes.tolist(), "total mutants", total, type(total).__name__, demes.dtype)
    het = wright_fisher_het(rng, 0.5, 2 * N, 40, 400)
    print("heterozygosity", np.round(het[::10], 4), "expected", np.round(0.5 * (1 - 1 / (2 * N)) ** np.arange(0, 41, 10), 4))
