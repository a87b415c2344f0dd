"""A loop's draws made in advance (rt/draws.py npr_draws) when a run-time check fails inside it:
NumPy's loop stopped at the failing statement, having made the draws of the trips before it and
those of the failing trip before the check; the host call had made every trip's. After the loop
the generators are put back and the draws NumPy made are made again (draws._NprReplay), so the
caller's generators end where NumPy's run leaves them. Differential: the exception, and each
generator's next draws after it (NumPy's global state included), for every draw kind the advance
supports (one site of a bit generator drawn in one call, VECTORISED, and site by site), a check
before or after the draw in the trip, an index check, an assert and a `raise`, in the first,
a middle and the last trip, after the loop, and none."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import load_module

# name -> (the draw, the generator argument's kind: "Generator", "RandomState" or None for NumPy's global state)
KINDS = {
    "random": ("rng.random()", "Generator"), "standard_normal": ("rng.standard_normal(size=2)", "Generator"),
    "standard_exponential": ("rng.standard_exponential()", "Generator"),
    "normal": ("rng.normal(0.5, 2.0, size=2)", "Generator"), "uniform": ("rng.uniform(-1.0, 3.0)", "Generator"),
    "exponential": ("rng.exponential(2.0)", "Generator"), "integers": ("rng.integers(0, 10, size=3)", "Generator"),
    "poisson": ("rng.poisson(30.0)", "Generator"), "binomial": ("rng.binomial(100, 0.4)", "Generator"),
    "gamma": ("rng.gamma(0.5)", "Generator"), "standard_gamma": ("rng.standard_gamma(2.0)", "Generator"),
    "beta": ("rng.beta(0.5, 0.5)", "Generator"), "geometric": ("rng.geometric(0.3)", "Generator"),
    "random_f32": ("rng.random(dtype=np.float32)", "Generator"),  # (one by one: dtype=)
    "integers_i8": ("rng.integers(0, 2, size=3, dtype=np.int8)", "Generator"),
    "rs_rand": ("rng.rand(2)", "RandomState"), "rs_randn": ("rng.randn()", "RandomState"),
    "rs_random_sample": ("rng.random_sample()", "RandomState"), "rs_randint": ("rng.randint(0, 2 ** 40)", "RandomState"),
    "rs_normal": ("rng.normal(0.5, 2.0, size=3)", "RandomState"),  # (an odd count: the cached Box-Muller normal)
    "rs_poisson": ("rng.poisson(3.0)", "RandomState"),
    "np_rand": ("np.random.rand()", None), "np_normal": ("np.random.normal(size=3)", None),
    "np_randint": ("np.random.randint(0, 5)", None),
}

AFTER = ("normal", "random_f32", "rs_normal", "np_normal")  # also drawn after the check (no draw in its trip)

# where the draw sits in the trip: before the failing statement (NumPy made it) or after it
TEMPLATE = '''
def {name}_{where}(x, n, rng, k):
    for i in range(n):
        {before}
        x[0] += x[k + i]
        {after}
        x[1] += np.sum(d)
'''

OTHERS = '''
def two_generators(x, n, rng, rs, k):  # sites of two bit generators around the check, and the global state
    for i in range(n):
        a = rng.normal(0.0, 0.1, size=x.shape)
        b = np.random.rand()
        x[0] += x[k + i]
        c = rs.randn(3)
        e = rng.integers(0, 4)
        x[...] = x + a * b + c[0] + e


def asserted(x, n, rng, k):
    for i in range(n):
        u = rng.random()
        assert x[i] < k, "too big"
        v = rng.standard_normal(2)
        x[i] += u + v[0]


def raised(x, n, rng, k):
    for i in range(n):
        u = rng.exponential(1.0)
        if x[i] >= k:
            raise ValueError("too big")
        v = rng.integers(0, 5)
        x[i] += u + v


def nested(x, n, rng, k):  # the loop of draws inside an outer loop: the outer trip's draws are put back
    for t in range(3):
        for i in range(n):
            u = rng.random()
            x[0] += x[k + i + t]
            x[1] += u


def seeded_before(x, n, k):  # NumPy's global state seeded before the loop
    np.random.seed(5)
    for i in range(n):
        u = np.random.normal()
        x[0] += x[k + i]
        x[1] += u


def in_a_branch(x, n, rng, k):  # the loop in a branch on data (a lax.cond)
    if x[1] < 100.0:
        for i in range(n):
            u = rng.random()
            x[0] += x[k + i]
            x[1] += u


def in_a_while(x, n, rng, k):  # the loop in a `while` on data, which stops at the failed check
    t = 0
    while x[1] < 3.0:
        for i in range(n):
            u = rng.random()
            x[0] += x[k + i + t]
            x[1] += u
        t += 1


def _looped(x, n, rng, k):
    for i in range(n):
        u = rng.standard_normal()
        x[0] += x[k + i]
        x[1] += u


def through_a_helper(x, n, rng, k):  # the loop in a helper the function calls twice
    _looped(x, n, rng, 0)
    _looped(x, n, rng, k)


def stepped(x, n, rng, k):  # a range with a start and a step
    for i in range(1, n, 2):
        u = rng.random(size=2)
        x[0] += x[k + i]
        x[1] += u[1]
'''


def _source():
    parts = ["import numpy as np\n"]
    for name, (draw, _) in KINDS.items():
        parts.append(TEMPLATE.format(name=name, where="before", before=f"d = {draw}", after="pass"))
        if name in AFTER:
            parts.append(TEMPLATE.format(name=name, where="after", before="pass", after=f"d = {draw}"))
    return "\n".join(parts) + OTHERS


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(_source(), tmp_path_factory.mktemp("advance"), "np2ref_advance_draws_errors")


@functools.cache
def _compiled(fn):
    compiled = np2ref.compile(fn, host_below=0)
    name = "_looped" if fn.__name__ == "through_a_helper" else fn.__name__
    assert "npr_draws(" in compiled.source.split(f"def {name}(")[1].split("\ndef ")[0]  # drawn in advance
    return compiled


def _generator(kind, seed):
    return np.random.default_rng(seed) if kind == "Generator" else np.random.RandomState(seed)


def _after(fn, args):
    """(the exception's type and text, or None; each generator argument's next draws and NumPy's
    global state's, after the call)."""
    np.random.seed(11)
    try:
        fn(*args)
        error = None
    except Exception as exc:  # noqa: BLE001 (compared with NumPy's)
        error = (type(exc), str(exc))
    nexts = [g.random(3).tolist() if isinstance(g, np.random.Generator) else g.random_sample(3).tolist()
             for g in args if isinstance(g, (np.random.Generator, np.random.RandomState))]
    return error, nexts, np.random.random(3).tolist()


def _same_after(fn, args):
    want = _after(fn, args())
    got = _after(_compiled(fn), args())
    assert got == want


# k: the check `x[k + i]` into 8 elements fails in trip 8 - k (trips 0 .. 5), or never (k = 2)
@pytest.mark.parametrize("k", [8, 5, 3, 2])
@pytest.mark.parametrize("name, where", [(name, "before") for name in sorted(KINDS)] + [
    (name, "after") for name in AFTER])
def test_generators_end_where_numpys_loop_left_them(programs, name, where, k):
    kind = KINDS[name][1]
    fn = getattr(programs, f"{name}_{where}")
    _same_after(fn, lambda: (np.arange(8.0), 6, _generator(kind, 4), np.int64(k)))


@pytest.mark.parametrize("k", [8, 6, 3, 2])
def test_two_generators_and_the_global_state(programs, k):
    _same_after(programs.two_generators,
                lambda: (np.arange(8.0), 6, np.random.default_rng(2), np.random.RandomState(3), np.int64(k)))


@pytest.mark.parametrize("name", ["asserted", "raised"])
@pytest.mark.parametrize("k", [0.0, 2.0, 5.0, 9.0])  # x[i] = i: fails in trip k (none for 9)
def test_an_assert_or_a_raise_in_the_loop(programs, name, k):
    _same_after(getattr(programs, name), lambda: (np.arange(6.0), 6, np.random.default_rng(7), np.float64(k)))


@pytest.mark.parametrize("k", [8, 6, 4, 3, 0])  # x[k + i + t] fails in outer trip 8 - k - 5 .. (k = 0: none)
def test_the_loop_in_an_outer_loop(programs, k):
    _same_after(programs.nested, lambda: (np.arange(8.0), 6, np.random.default_rng(5), np.int64(k)))


@pytest.mark.parametrize("k", [8, 5, 2])
def test_the_global_state_seeded_before_the_loop(programs, k):
    _same_after(programs.seeded_before, lambda: (np.arange(8.0), 6, np.int64(k)))


@pytest.mark.parametrize("k", [7, 4, 2, 1])  # i = 1, 3, 5: fails in the trip where k + i reaches 8
def test_a_range_with_a_start_and_a_step(programs, k):
    _same_after(programs.stepped, lambda: (np.arange(8.0), 7, np.random.default_rng(9), np.int64(k)))


@pytest.mark.parametrize("name", ["in_a_branch", "in_a_while", "through_a_helper"])
@pytest.mark.parametrize("k", [8, 5, 0])
def test_the_loop_in_a_branch_a_while_or_a_helper(programs, name, k):
    _same_after(getattr(programs, name), lambda: (np.arange(8.0), 4 if name == "in_a_while" else 6,
                                                  np.random.default_rng(12), np.int64(k)))
