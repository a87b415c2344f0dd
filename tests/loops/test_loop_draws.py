"""A loop's draws made in advance (rt/draws.py, rewrite/rules/loop_draws.py): the same values,
the same generator states afterwards, and one host call before the loop instead of one per draw
where the rewrite proves the loop's draws fixed; a host call per draw everywhere else."""

from __future__ import annotations

import copy
import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, program
from np2ref.rt import draws


def programs():
    return program("loop_draws")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(programs(), name))


def state(g):
    return g.get_state(legacy=False) if isinstance(g, np.random.RandomState) else g.bit_generator.state


def same_state(a, b) -> bool:
    """Two generator states equal, key by key, arrays by dtype and value (what comparing their
    str() checked, without printing MT19937's 624 words: that took 80% of this module's time)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b) and \
            all(same_state(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return type(a) is type(b) and a.dtype == b.dtype and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def _shared():
    g1 = np.random.default_rng(3)
    return g1, np.random.Generator(g1.bit_generator)


# name -> (arguments, in advance?)
CASES = {
    "metropolis": (lambda: (np.ones(4), 40, np.random.default_rng(5)), True),
    "ising": (lambda: (np.where(np.random.RandomState(1).rand(6, 6) < 0.5, -1.0, 1.0), 50, 0.4), True),
    "walk_made": (lambda: (np.zeros(5), 9), True),
    "legacy_gauss": (lambda: (np.zeros(3), 7, np.random.RandomState(2)), True),
    "shared_bits": (lambda: (np.zeros(2), 6, *_shared()), True),
    "small_ints": (lambda: (np.zeros(3), 9, np.random.default_rng(8), 0.5), True),
    "conditional_draw": (lambda: (np.zeros(2), 12, np.random.default_rng(9)), False),
    "early_break": (lambda: (np.zeros(1), 30, np.random.default_rng(4)), False),
    "two_in_one": (lambda: (np.zeros(1), 8, np.random.default_rng(6)), False),
    "helper_draws": (lambda: (np.zeros(2), 5, np.random.default_rng(1)), False),
    "pure_helper": (lambda: (np.zeros(3), 10, np.random.default_rng(2)), True),
}


def _run(fn, args):
    np.random.seed(11)  # ising draws from NumPy's global generator
    out = fn(*args)
    return out, np.random.get_state(legacy=False)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_values_and_generator_states_as_numpy(name):
    make, _ = CASES[name]
    fn, c = getattr(programs(), name), compiled(name)
    for _ in range(2):  # a second call draws on from where the first left the generators
        theirs, ours = make(), make()
        expected, global_theirs = _run(fn, theirs)
        got, global_ours = _run(c, ours)
        assert type(got) is type(expected) or np.asarray(got).dtype == np.asarray(expected).dtype
        assert_numpys_bits(got, expected)
        for a, b in zip(ours, theirs):
            if isinstance(b, np.ndarray):
                assert_numpys_bits(a, b)
                assert a.dtype == b.dtype
            if isinstance(b, (np.random.Generator, np.random.RandomState)):
                assert same_state(state(a), state(b))
        assert str(global_ours) == str(global_theirs)


@pytest.mark.parametrize("name", sorted(CASES))
def test_draws_made_in_advance_only_where_proved(name):
    assert ("npr_draws(" in compiled(name).source.split(f"def {name}(")[1].split("\ndef ")[0]) == CASES[name][1]


class CountingGenerator(np.random.Generator):
    """A Generator that counts the host calls made to its uniform()."""
    calls = 0

    def uniform(self, *a, **k):
        CountingGenerator.calls += 1
        return super().uniform(*a, **k)


def test_one_site_draws_in_one_numpy_call():
    """The 30 steps' uniform draws: one NumPy call of size (30, 4) (one host call per draw before)."""
    fn, c = getattr(programs(), "pure_helper"), compiled("pure_helper")
    x0, x1 = np.zeros(4), np.zeros(4)
    theirs, ours = CountingGenerator(np.random.PCG64(5)), CountingGenerator(np.random.PCG64(5))
    expected = fn(x0, 30, theirs)
    CountingGenerator.calls = 0
    got = c(x1, 30, ours)
    assert CountingGenerator.calls == 1
    assert_numpys_bits(x1, x0)
    assert type(got) is type(expected)
    np.testing.assert_allclose(got, expected, rtol=1e-14)  # (a sum of sums: XLA's FMA, docs/semantics.md)
    assert same_state(state(ours), state(theirs))


BIT_GENERATORS = {"Generator": (np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64),
                  "RandomState": (np.random.MT19937,)}


@pytest.mark.parametrize("kind, method", sorted(draws.VECTORISED))
def test_vectorised_pairs_draw_the_same_stream_at_once(kind, method):
    """Each (kind, method) npr_draws draws in one call: the same values and state as one by one,
    over seeds, trip counts and draw shapes (the proof the allow-list stands on)."""
    params = {"normal": (0.5, 2.0), "uniform": (-1.0, 3.0), "exponential": (2.0,), "integers": (0, 10),
              "randint": (0, 2 ** 40), "poisson": (30.0,), "binomial": (100, 0.4), "gamma": (0.5,),
              "standard_gamma": (2.0,), "beta": (0.5, 0.5), "geometric": (0.3,)}.get(method, ())
    for seed, bits in [(seed, bits) for seed in range(6) for bits in BIT_GENERATORS[kind]]:
        for trips in (1, 2, 5, 33):
            for shape in ((), (3,), (2, 3)):
                make = (lambda: np.random.Generator(bits(seed))) if kind == "Generator" else \
                    (lambda: np.random.RandomState(seed))
                one, batch = make(), make()
                if method in ("rand", "randn"):
                    singles = [getattr(one, method)(*shape) for _ in range(trips)]
                else:
                    singles = [getattr(one, method)(*params, size=shape or None) for _ in range(trips)]
                plan = type("Plan", (), {"method": method, "sample": np.asarray(singles[0])})()
                call = (getattr(batch, method), params, {})
                assert draws._npr_vectorised(plan, call)
                at_once = draws._npr_in_one_call(plan, call, trips)
                np.testing.assert_array_equal(at_once, np.stack([np.asarray(s) for s in singles]))
                assert same_state(state(one), state(batch))


@pytest.mark.parametrize("method, kw", [("integers", {"dtype": np.int8}), ("integers", {"dtype": bool}),
                                        ("random", {"dtype": np.float32}), ("standard_normal", {"dtype": np.float32})])
def test_a_dtype_keyword_keeps_draws_one_by_one(method, kw):
    """8-bit and bool integers take their bits through a buffer local to one call (float32 values
    through the bit generator's 32-bit half-word): a call of the total size can be another
    stream, so a dtype= keeps the draws one call each (their order still NumPy's)."""
    args = (0, 2) if method == "integers" else ()
    plan = type("Plan", (), {"method": method, "sample": np.zeros(3)})()
    assert not draws._npr_vectorised(plan, (getattr(np.random.default_rng(0), method), args, dict(kw, size=3)))
    if method != "integers":
        return
    differs = False
    for seed in range(4):
        one, batch = np.random.default_rng(seed), np.random.default_rng(seed)
        singles = np.stack([getattr(one, method)(*args, size=3, **kw) for _ in range(5)])
        differs |= not np.array_equal(singles, getattr(batch, method)(*args, size=(5, 3), **kw))
    assert differs


def test_a_draw_whose_size_follows_the_loop_is_refused_not_misshapen():
    """`rng.random(m)` with m from the loop variable: the size is traced. It was drawn with the
    shape of a stand-in value and crashed in the callback (or NumPy's reshape); now NPR023."""
    with pytest.raises(np2ref.Np2RefError) as info:
        compiled("varying_size")(np.zeros(3), 8, np.random.default_rng(6))
    assert info.value.diagnostics[0].code == "NPR023"


@functools.cache
def _converted():
    source = open(programs().__file__).read()
    return source, np2ref.convert_source(source, "loop_draws.py").diagnostics


def _notes(name):
    source, diagnostics = _converted()
    return [d for d in diagnostics if d.code == "NPR039" and source.splitlines()[d.line - 1].strip().startswith("for ")
            and _function_at(source, d.line) == name]


def _function_at(source, line):
    names = [(i + 1, ln.split("(")[0][4:]) for i, ln in enumerate(source.splitlines()) if ln.startswith("def ")]
    return [n for start, n in names if start <= line][-1]


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_loop_left_with_host_draws_gets_a_speed_note(name):
    """NPR039 on each loop that keeps host calls in every iteration (issue 41 item 5), with the
    lines of the draws; none where the draws are made in advance."""
    notes = _notes(name)
    assert bool(notes) == (not CASES[name][1])
    if notes:
        assert "host call" in notes[0].message and "per iteration" in notes[0].message
        assert "line" in notes[0].message and notes[0].severity != "error"


def test_explain_says_where_host_calls_dominate():
    assert "NPR039" in compiled("two_in_one").explain()
    assert "per iteration" in compiled("conditional_draw").explain()
    assert "NPR039" not in compiled("metropolis").explain()
