"""An object passed in, after a call np2ref refuses while tracing (fuzz_e6cb79cd3a): the trace
calls the object's methods as it meets them (`obj.count()`, its state watched between calls),
so a refusal met later in the same trace (a helper's `o.level()`, NPR021) left the caller's
object with calls NumPy's program never made. The trace now keeps a deep copy of each plain
object passed in and, on a refusal (or a first call handed to the original: NprFirstCall), puts
its state back in place (rt/module_globals.py _npr_objects_kept): the same attribute objects, a
generator's state, an array's elements, a list's items."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref


class Probe:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.seen = []
        self.acc = np.zeros(2)

    def count(self):  # (a list method's name: the trace calls it as it meets it)
        self.calls += 1
        self.seen.append(self.calls)
        self.acc += self.rng.random(2)
        return self.calls

    def level(self):
        self.calls += 1
        return float(self.rng.integers(0, 8)) / 4.0


class Sampler:
    """An object whose method is an ordered host call (rt/opaque.py), its first result unseen."""

    def __init__(self):
        self.n = 0

    def next_batch(self, k):
        self.n += 1
        return np.full(k, 0.25 * self.n)


def leveled(o, x):
    x[...] += o.level()


def counted_then_refused(a, obj):  # fuzz_e6cb79cd3a
    a[...] = np.abs(a) - 1
    y = obj.count()
    a[...] += y
    leveled(obj, a)
    return a.sum()


def counted_then_sampled(obj, sampler, k):
    y = obj.count()
    return sampler.next_batch(k) * y


def _state(obj):
    return obj.calls, list(obj.seen), obj.acc.tolist(), obj.rng.bit_generator.state["state"]


def test_a_refusal_leaves_the_object_as_it_was():
    obj, fresh = Probe(7), Probe(7)
    a = np.array([0.0, 1.5, -0.5, 1.25])
    compiled = np2ref.compile(counted_then_refused, host_below=0)
    held = obj.rng, obj.seen, obj.acc
    for _ in range(2):  # (the second call traces again: the same refusal, the same state)
        with pytest.raises(np2ref.Np2RefError) as info:
            compiled(a.copy(), obj)
        assert info.value.diagnostics[0].code == "NPR021"
        assert _state(obj) == _state(fresh)
        assert all(x is y for x, y in zip((obj.rng, obj.seen, obj.acc), held))  # the caller's own objects
    assert obj.rng.random() == fresh.rng.random()


def test_a_first_call_handed_to_the_original_makes_numpys_calls():
    """The trace's `obj.count()`, then `sampler.next_batch` unseen: the original runs
    (npr_first_call), which makes NumPy's one call of count, not a second after the trace's."""
    compiled = np2ref.compile(counted_then_sampled, host_below=0)
    for _ in range(2):
        theirs, ours = (Probe(3), Sampler()), (Probe(3), Sampler())
        want, got = counted_then_sampled(*theirs, 3), compiled(*ours, 3)
        assert np.array_equal(got, want) and got.dtype == want.dtype
        assert (ours[0].calls, ours[1].n) == (theirs[0].calls, theirs[1].n) == (1, 1)
