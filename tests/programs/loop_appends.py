"""Loops that append to lists (tests/loops/test_loop_appends.py): the append-only lists a lax loop
stacks (rt/appends.py), and the appends that keep the Python loop or are refused."""
import numpy as np


def history(u, steps):
    """A state's copies and its energies, one of each per trip: arrays and NumPy scalars."""
    hist, energy = [], []
    for t in range(steps):
        u[1:-1] += 0.1 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        hist.append(u.copy())
        energy.append(np.sum(u ** 2))
    return hist, energy


def python_numbers(u, dt, steps):
    """float(v), the loop variable, t * dt and a Python float accumulated: Python numbers in NumPy's list."""
    fs, ts, times, clock, roots = [], [], [], [], []
    time = 0.0
    for t in range(steps):
        u *= 0.5
        time += dt
        fs.append(float(u[2]))
        ts.append(t)
        times.append(t * dt)
        clock.append(time)
        roots.append(np.sqrt(dt))
    return fs, ts, times, clock, roots


def tuples_and_ints(u, steps):
    """A tuple per trip, an int count, an int64 reduction, a bool."""
    pairs, counts, flags = [], [], []
    for t in range(steps):
        u[1:] += u[:-1]
        pairs.append((t, u[1:3].copy()))
        counts.append(np.count_nonzero(u > 3.0))
        flags.append(bool(u[0] > 0.5))
    return pairs, counts, flags


def stacked_after(u, steps):
    """np.array of the list, its last item and its length, read after the loop."""
    energy = []
    for t in range(steps):
        u[1:-1] += 0.1 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        energy.append(u.sum())
    return np.array(energy), energy[-1], len(energy), max(energy)


def started_list(u, steps):
    """A list holding a value before the loop: the loop's rows follow it."""
    hist = [u.copy()]
    for t in range(steps):
        u *= 0.5
        hist.append(u.copy())
    return hist


def carried_and_appended(u, dt, steps):
    """A carried scalar beside the list, the list read after the loop by a sum."""
    energy, e = [], 0.0
    for t in range(steps):
        u[1:-1] += dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        e = e + dt * np.sum(u)
        energy.append(e)
    return sum(energy), energy, e


def rows_of_array(acc, a):
    """`for row in a:` appending a reduction of each row. (A function that writes no array and
    only builds lists stays host code by design: analysis/containers.py builds_in_loop.)"""
    out = []
    for row in a:
        acc += row
        out.append(row.max() - acc.min())
    return out


def no_trips(u, steps):
    """A loop that runs no trip: the list stays as it was."""
    hist = []
    for t in range(steps):
        u += 1.0
        hist.append(u.copy())
    return hist


def appended_twice(u, steps):
    """Two appends to one list per trip: a row of two items a trip (graph breaks, part 5)."""
    vals = []
    for t in range(steps):
        u *= 0.5
        vals.append(u[0])
        vals.append(u[1])
    return vals


def appended_written_array(u, steps):
    """The written array itself appended: NumPy's list holds u (every item the final u): refused."""
    hist = []
    for t in range(steps):
        u *= 0.5
        hist.append(u)
    return hist


def appended_view(u, steps):
    """A view of the written array appended: NumPy's list sees later writes: refused."""
    hist = []
    for t in range(steps):
        u *= 0.5
        hist.append(u[1:3])
    return hist


def appended_unwritten(a, steps):
    """An array the function never writes appended: NumPy's list holds the same array each time."""
    hist = []
    total = np.zeros(2)
    for t in range(steps):
        total += a[:2]
        hist.append(a)
    return hist, total


def lazy_history(u, steps):
    """Used after the loop only by len, np.array and return: rows never traced one by one."""
    energy, hist = [], []
    for t in range(steps):
        u *= 0.9
        energy.append(u.sum())
        hist.append(u.copy())
    return len(energy), np.array(energy), hist


def calls_a_lazy_helper(u, steps):
    """A compiled function that reads, item by item, the lazy list a helper returns."""
    n, energy, hist = lazy_history(u, steps)
    return n, hist[-1] * 2.0, hist[0] + hist[1]


def reported(u, steps, every):
    """A history and a progress print every `every` steps (exact values: halvings of 2**k)."""
    totals = []
    for step in range(steps):
        u *= 0.5
        total = u.sum()
        totals.append(total)
        if step % every == 0:
            print(f"step {step:3d} total {total:.6e}", total, float(total), step * 0.25)
    return totals


class Sampler:
    """An object with a method named like a draw: its own state, no NumPy generator."""

    def __init__(self):
        self.calls = 0

    def sample(self, n):
        self.calls += 1
        return np.full(n, float(self.calls))


def uses_a_sampler(u, sampler):
    """`sampler.sample(n)` on an object that is no generator: its own host call, not a draw."""
    u += sampler.sample(u.shape[0])
    return u.sum()


def random_walk(x, rng, steps):
    """A draw a trip and its history: the stream and the generator's state as NumPy's."""
    path = []
    for t in range(steps):
        x += rng.normal(0.0, 1.0, size=x.shape)
        path.append(x.copy())
    return path
