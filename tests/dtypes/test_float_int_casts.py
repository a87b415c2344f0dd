"""Float -> integer casts as NumPy does them on x86-64 (C's conversion, cvttsd2si): INT_MIN for
NaN, infinities and what is out of range, narrow targets wrapped through int32, uint32/uint64
through the signed conversion, and NumPy's RuntimeWarning 'invalid value encountered in cast'
(XLA's convert saturates: NaN -> 0, 1e20 -> INT_MAX, 300.7 -> 255 in uint8). The grid is
compared bit for bit with NumPy on this machine (its results are the oracle, nothing is
hard-coded); then the forms programs cast in, through np2ref.compile."""

import platform
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from np2ref.rt import npr_cast
from np2ref.rt.casts import _npr_x86_cast
from conftest import assert_same_as_numpy, program

pytestmark = pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                                reason="np2ref follows x86-64 NumPy; other CPUs may saturate")

P = program("casts")
SOURCES = [np.float64, np.float32, np.float16]
TARGETS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]
_EDGES = [2.0 ** 7, 2.0 ** 8, 2.0 ** 15, 2.0 ** 16, 2.0 ** 31, 2.0 ** 32, 2.0 ** 63, 2.0 ** 64]
GRID = sorted({v for e in _EDGES for v in (e, e - 1, e - 0.5, e + 1, -e, -e - 1, -e + 0.5, -e * (1 + 2 ** -52),
                                           e * (1 + 2 ** -52), e * (1 - 2 ** -53))}
              | {0.0, 0.5, 2.5, 0.99, 300.7, 3.7, 1e10, 1e20, 3e38, 65504.0, 2.0 ** 62, 2.0 ** 63 - 1024}, key=abs)
GRID = [np.nan, np.inf, -np.inf, -0.0] + [s * v for v in GRID for s in (1, -1)]


def _numpy(x, dt):
    """NumPy's cast of x and whether it warned."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = x.astype(dt)
    return r, any("invalid value encountered in cast" in str(m.message) for m in w)


def _scalar_casts(x, dt):
    """NumPy's cast of each element as a NumPy scalar."""
    with np.errstate(all="ignore"):
        return np.array([v.astype(dt) for v in x])


def _numpy_flags(x, dt):
    """Per element: whether NumPy's cast of that element alone warns."""
    return np.array([_numpy(x[i:i + 1], dt)[1] for i in range(x.size)])


@pytest.fixture(scope="module")
def cast_fn():
    with jax.enable_x64(True):
        yield jax.jit(_npr_x86_cast, static_argnums=1)


@pytest.mark.parametrize("src", SOURCES, ids=lambda t: np.dtype(t).name)
def test_grid_matches_numpy_bit_for_bit(src, cast_fn):
    with np.errstate(all="ignore"):
        x = np.array(GRID, src)
    with jax.enable_x64(True):
        for dt in TARGETS:
            dt = np.dtype(dt)
            expected, warned = _numpy(x, dt)
            if dt.kind == "b":
                got = np.asarray(npr_cast(jnp.asarray(x), dt))
                assert not warned and np.array_equal(got, expected), (src, dt)
                continue
            got, bad = map(np.asarray, cast_fn(jnp.asarray(x), dt))
            assert got.dtype == expected.dtype
            if dt == np.uint32:  # NumPy's own result depends on the neighbours there: its scalar one
                expected = _scalar_casts(x, dt)
            wrong = np.nonzero(got != expected)[0]
            assert not wrong.size, [(x[i], expected[i], got[i]) for i in wrong[:5]] + [src, dt]
            flags = _numpy_flags(x, dt)
            assert np.array_equal(bad, flags), (src, dt, x[bad != flags])
            assert warned == flags.any()


@pytest.mark.parametrize("src", SOURCES, ids=lambda t: np.dtype(t).name)
def test_scalars_and_uint32_arrays(src, cast_fn):
    """A NumPy scalar and a 0-d array cast as the grid does; NumPy's uint32 of a contiguous array
    is its scalar result wherever its SIMD loop does not depend on the neighbouring elements."""
    with np.errstate(all="ignore"):
        x = np.array(GRID, src)
    with jax.enable_x64(True):
        for dt in TARGETS[:-1]:
            got, bad = map(np.asarray, cast_fn(jnp.asarray(x), np.dtype(dt)))
            for i, v in enumerate(x):
                expected, warned = _numpy(v, dt)
                zero_d, _ = _numpy(np.array(v), dt)
                assert got[i] == expected == zero_d and bad[i] == warned, (v, dt, got[i], expected)
            alone, mixed = _scalar_casts(x, dt), _numpy(x, dt)[0]
            same = (alone == mixed) | (np.trunc(x) > -2.0 ** 31) & (np.trunc(x) < 2.0 ** 32)
            assert np.array_equal(alone[same], mixed[same])  # the range NumPy is stable in
            assert dt == np.uint32 or same.all()


def test_random_values_match_numpy(cast_fn):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(4000) * 10.0 ** rng.uniform(-1, 21, 4000)
    with jax.enable_x64(True):
        for src in SOURCES:
            with np.errstate(all="ignore"):
                xs = x.astype(src)
            for dt in TARGETS[:-1]:
                with np.errstate(all="ignore"):
                    expected = xs.astype(dt)
                got = np.asarray(cast_fn(jnp.asarray(xs), np.dtype(dt))[0])
                if dt == np.uint32:
                    keep = (np.trunc(xs) > -2.0 ** 31) & (np.trunc(xs) < 2.0 ** 32)
                    assert np.array_equal(got[~keep], _scalar_casts(xs[~keep], dt))
                    got, expected = got[keep], expected[keep]
                assert np.array_equal(got, expected), (src, dt, xs[got != expected][:3])


def test_warning_is_numpys_and_issued_when_the_compiled_call_runs():
    f = np2ref.compile(P.image_to_uint8)
    for img, warns in ((np.array([0.2, 0.5, 1.0]), False), (np.array([0.5, np.nan, 2.0]), True)):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            got = f(img.copy())
        with warnings.catch_warnings(record=True) as w0:
            warnings.simplefilter("always")
            expected = P.image_to_uint8(img.copy())
        assert np.array_equal(got, expected) and got.dtype == expected.dtype
        messages = sorted(str(m.message) for m in w if m.category is RuntimeWarning)
        assert messages == sorted(str(m.message) for m in w0 if m.category is RuntimeWarning)
        assert bool(messages) == warns


X = np.array([np.nan, 1e20, -1e20, 300.7, -2.5, -3.7, np.inf, -np.inf, 0.5, 2.0 ** 31, 255.5, -0.0])


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


@pytest.mark.parametrize("name", ["astype_forms", "image_to_uint8", "array_with_dtype", "store_into_uint8",
                                  "store_slices", "out_unsafe", "cast_sum", "scalar_types", "full_forms",
                                  "reductions_with_dtype"])
def test_forms_through_compile(name):
    fn = getattr(P, name)
    assert_same_as_numpy(fn, np2ref.compile(fn), X)
    assert_same_as_numpy(fn, np2ref.compile(fn), X.astype(np.float32)[:6])


def test_warnings_name_numpys_operation():
    """sum(dtype=) warns "in reduce", cumsum(dtype=) "in cast", out= "in multiply", as NumPy (noted in
    the call's record, issued once after the run). A cast in a lax loop's body warns not (its cost)."""
    for name in ("reductions_with_dtype", "out_unsafe", "full_forms", "scalar_types", "astype_forms"):
        fn = getattr(P, name)
        compiled = np2ref.compile(fn)
        with warnings.catch_warnings(record=True) as w0:
            warnings.simplefilter("always")
            fn(X.copy())
        with warnings.catch_warnings(record=True) as w1:
            warnings.simplefilter("always")
            compiled(X.copy())
        expected = {str(m.message) for m in w0 if m.category is RuntimeWarning}
        assert expected and expected == {str(m.message) for m in w1 if m.category is RuntimeWarning}, name


def _raised(fn, *args):
    try:
        fn(*args)
    except (ValueError, OverflowError) as e:
        return type(e), str(e)
    return None


def test_scalar_store_into_signed_integers_raises_as_numpy():
    """NumPy stores a float scalar into a signed integer array through Python's int()."""
    f = np2ref.compile(P.store_scalar_into_int8)
    x = np.array([np.nan, np.inf, 128.0, -129.0, 1e20, -2.0 ** 63, 127.9, -128.5])
    for i in range(x.size):
        expected = _raised(P.store_scalar_into_int8, x, i)
        assert _raised(f, x, i) == expected, (x[i], expected)
        if expected is None:
            assert_same_as_numpy(P.store_scalar_into_int8, f, x, i)
    a = np.zeros(3, np.int16)
    for v in (np.nan, -np.inf, 40000.0, -3.5):
        x = np.array([v])
        expected = _raised(P.fill_int16, a.copy(), x)
        assert _raised(np2ref.compile(P.fill_int16), a.copy(), x) == expected
    assert_same_as_numpy(P.fill_int16, np2ref.compile(P.fill_int16), a, x)
    f = np2ref.compile(P.store_scalar_into_int64_in_loop)  # in a lax loop: the first failure raises
    for x in (X, X[3:6], np.array([1.5, 2.0 ** 62, 1e19, np.nan]), np.array([-9.3e18, 1e300])):
        expected = _raised(P.store_scalar_into_int64_in_loop, x)
        assert _raised(f, x) == expected, (x, expected)
        if expected is None:
            assert_same_as_numpy(P.store_scalar_into_int64_in_loop, f, x)


@pytest.mark.parametrize("name", ["linspace_int", "list_with_dtype", "python_int"])
def test_forms_that_raise_in_numpy_for_some_values(name):
    """np.array([scalars], dtype=int) stores each as a[i] = v does; int(nan) raises, as Python's."""
    fn = getattr(P, name)
    compiled = np2ref.compile(fn)
    for x in (X, X[3:], X[::-1], np.array([1.5, -2.5, 7.0, 8.9])):
        expected = _raised(fn, x.copy())
        assert _raised(compiled, x.copy()) == expected, (name, x[:2], expected)
        if expected is None:
            assert_same_as_numpy(fn, compiled, x)


def test_vmap_jit_of_pure_and_grad():
    pure = np2ref.compile(P.astype_forms).pure
    xs = np.stack([X, X[::-1]])
    with jax.enable_x64(True):
        got = jax.jit(jax.vmap(pure))(jnp.asarray(xs))[0]  # (result, finals)
        jitted = jax.jit(pure)(jnp.asarray(X))[0]
    for row in range(2):
        for e, g in zip(P.astype_forms(xs[row]), got):
            assert np.array_equal(e, np.asarray(g)[row]) and e.dtype == g.dtype
    for e, g in zip(P.astype_forms(X), jitted):
        assert np.array_equal(e, np.asarray(g))
    weighted = np2ref.compile(P.weighted_by_cast).pure
    x = np.array([0.5, 2.5, -1.5, -3.7, 7.9])
    with jax.enable_x64(True):
        grad = jax.jit(jax.grad(lambda v: weighted(v)[0]))(jnp.asarray(x))
    assert np.array_equal(np.asarray(grad), x.astype(np.int64).astype(np.float64))  # the cast adds nothing
