"""Python around NumPy code inside a compiled function, part 3 (issue 19): masked reductions
(`x[m].max()` with NumPy's empty-reduction error), math-module functions on traced floats, and
library calls with an exact JAX counterpart (a tridiagonal solve). Differential: the original
function against np2ref.compile of it."""

import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program
from np2ref.diagnostics import Np2RefError

P = program("python_surface3")


def _line(fn_name: str, text: str) -> int:
    """The line of `text` inside the program's function `fn_name`."""
    lines = open(P.__file__).read().splitlines()
    start = next(i for i, t in enumerate(lines) if t.startswith(f"def {fn_name}("))
    return next(i for i, t in enumerate(lines[start:], start) if text in t) + 1


def _refused(fn, *args):
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(fn)(*args)
    return info.value.diagnostics[0]


# ---- masked reductions ---------------------------------------------------------------------
X = np.array([0.5, -1.0, 3.0, np.nan, 2.0, -0.25])


def test_masked_max_and_min_with_nan_and_ties():
    f = np2ref.compile(P.masked_extremes)
    assert_same_as_numpy(P.masked_extremes, f, X, 0.0)  # nan not selected by x > 0: dropped
    assert_same_as_numpy(P.masked_extremes, f, np.array([1.0, 2.0, 2.0, -3.0]), 0.5)
    _, got = assert_same_as_numpy(P.masked_nan_max, np2ref.compile(P.masked_nan_max), X, 0.0)
    assert np.isnan(got[0]) and np.isnan(got[1])  # a selected nan propagates, as in NumPy


def test_masked_max_of_an_empty_selection_raises_numpys_valueerror():
    f = np2ref.compile(P.masked_extremes)
    x = np.array([-1.0, -2.0, 0.5])
    for call in (P.masked_extremes, f):
        with pytest.raises(ValueError, match="^zero-size array to reduction operation maximum which has no identity$"):
            call(x, 1.0)
    f2 = np2ref.compile(P.masked_int_extremes)
    k = np.array([1, 4, 7, 8], dtype=np.int32)
    for call in (P.masked_int_extremes, f2):  # max and min fine, then the third one is empty
        with pytest.raises(ValueError, match="^zero-size array to reduction operation maximum"):
            call(k)
    with pytest.raises(ValueError, match="^zero-size array to reduction operation minimum"):
        np2ref.compile(P.masked_min)(np.array([5.0, 6.0]), 10.0)


def test_masked_int_extremes_keep_the_dtype():
    k = np.array([1, 4, 7, 108, 9], dtype=np.int32)
    expected, got = assert_same_as_numpy(P.masked_int_extremes, np2ref.compile(P.masked_int_extremes), k)
    assert [np.asarray(v).dtype for v in got] == [np.asarray(v).dtype for v in expected]


def test_masked_any_and_all_of_empty_selections():
    f = np2ref.compile(P.masked_flags)
    for x, h in [(X, 0.0), (np.array([1.0, 2.0]), 5.0), (np.array([0.0, 2.0]), -1.0)]:
        assert_same_as_numpy(P.masked_flags, f, x, h)


def test_masked_max_inside_a_loop_checks_each_trip():
    f = np2ref.compile(P.masked_max_in_a_loop)
    assert_same_as_numpy(P.masked_max_in_a_loop, f, np.array([0.5, 4.0, 2.5]), 3)
    with pytest.raises(ValueError, match="reduction operation maximum"):
        f(np.array([0.5, 1.5, 2.5]), 4)  # x > 3 selects nothing


def test_masked_mean_of_an_empty_selection_is_nan():
    f = np2ref.compile(P.masked_mean)
    assert_same_as_numpy(P.masked_mean, f, X, 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(P.masked_mean(X, 10.0)) and np.isnan(f(X, 10.0))


def test_a_masked_read_bound_to_a_name_and_only_reduced_translates():
    """`vals = x[m]` then `vals.mean()` (npbench's azimint_naive) was refused NPR107: the name
    keeps the values of x and of the mask when it was bound, written afterwards or not."""
    f = np2ref.compile(P.masked_named, host_below=0)
    edges = np.array([-1.0, 0.0, 0.5, 2.0])
    assert_same_as_numpy(P.masked_named, f, np.array([0.25, -0.5, 1.5, 0.75, -0.25, 0.1]), edges)
    with pytest.raises(ValueError, match="zero-size array"):  # neg.min() of nothing, as NumPy
        f(np.array([0.25, 0.3, 1.5]), edges)


def test_masked_reads_kept_as_arrays_and_complex_extremes_stay_refused():
    d = _refused(P.masked_kept, X)
    assert (d.code, d.line) == ("NPR107", _line("masked_kept", "vals = x[x > 0]"))
    assert "x[m].max()" in d.hint
    with pytest.raises((Np2RefError, NotImplementedError), match="NPR107"):
        np2ref.compile(P.masked_complex_max)(np.array([1 + 2j, -1j, 3 - 1j]))


# ---- math-module functions on traced floats ------------------------------------------------
def test_math_functions_on_a_traced_float_are_python_floats():
    f = np2ref.compile(P.math_on_floats)
    for T in (0.3, 2.0, 7.5):
        expected, got = assert_same_as_numpy(P.math_on_floats, f, np.linspace(0, 1, 4), T)
        assert float(got[1]) == expected[1]  # sqrt: correctly rounded on both sides
        np.testing.assert_allclose(got[2], expected[2], rtol=1e-15)
    x32 = np.linspace(0, 1, 4, dtype=np.float32)  # a Python float is weak: float32 stays float32
    expected, got = assert_same_as_numpy(P.math_on_floats, f, x32, 2.0)
    assert got[0].dtype == expected[0].dtype == np.float32


def test_math_on_array_data_in_a_loop():
    f = np2ref.compile(P.math_in_a_loop)
    assert_same_as_numpy(P.math_in_a_loop, f, np.array([4.0, 2.0, 9.0, 0.5]), 4)
    with pytest.raises(ValueError, match="^math domain error$"):
        P.math_in_a_loop(np.array([4.0, -2.0, 9.0]), 3)
    with pytest.raises(ValueError, match="^math domain error$"):
        f(np.array([4.0, -2.0, 9.0]), 3)


@pytest.mark.parametrize("which,T,kind,message", [
    (0, 0.5, ValueError, "math domain error"), (1, 0.0, ValueError, "math domain error"),
    (1, -1.0, ValueError, "math domain error"), (2, 1000.0, OverflowError, "math range error"),
    (3, 1.5, ValueError, "math domain error")])
def test_math_raises_pythons_errors_when_the_compiled_call_runs(which, T, kind, message):
    f = np2ref.compile(P.math_errors)
    x = np.ones(2)
    for call in (P.math_errors, f):
        with pytest.raises(kind, match=f"^{message}$"):
            call(x, T, which)
    fine = {0: 5.0, 1: 3.0, 2: 700.0, 3: 0.5}[which]
    assert_same_as_numpy(P.math_errors, f, x, fine, which)


def test_the_math_table_and_the_runtime_agree():
    from np2ref.analysis.library_table import MATH_FUNCS
    from np2ref.rt.pymath import NPR_MATH_NAMES
    assert MATH_FUNCS == NPR_MATH_NAMES


# ---- library calls with an exact JAX counterpart (analysis/library_table.py) ----------------
def _library():
    pytest.importorskip("scipy")
    return program("library_calls")


def _tridiagonal(rng, n, dominant):
    a, c, d = rng.standard_normal(n - 1), rng.standard_normal(n - 1), rng.standard_normal(n)
    if dominant:
        d = d + np.sign(d) * (np.abs(np.r_[a, 0]) + np.abs(np.r_[0, c]) + 0.5)
    return a, d, c


def test_solve_banded_is_scipys_bit_for_bit_in_an_implicit_time_loop():
    L = _library()
    f = np2ref.compile(L.implicit_heat)
    expected, got = assert_same_as_numpy(L.implicit_heat, f, np.sin(np.linspace(0, 3, 9)), 0.4, 3)
    np.testing.assert_array_equal(got, expected)  # bit for bit


def test_solve_banded_gradient_matches_finite_differences():
    """jax.grad through solve_banded: the solve's own rule (dx = A^-1 (db - dA x)), alone and in
    an implicit time loop (a loop body traced for differentiation takes tridiagonal_solve, the
    same LAPACK gtsv), against central differences of the NumPy/SciPy original."""
    import jax
    L = _library()
    rng = np.random.default_rng(3)
    a, d, c = _tridiagonal(rng, 6, dominant=True)
    ab = np.vstack([np.r_[0.0, c], d, np.r_[a, 0.0]])
    b = rng.standard_normal(6)
    cases = [(L.banded_general, lambda ab_, b_: (ab_, b_), (ab, b)),
             (L.implicit_heat, lambda u_, nu_: (u_, nu_, 3), (np.sin(np.linspace(0, 3, 6)), 0.4))]
    with jax.enable_x64(True):
        for fn, args_of, point in cases:
            pure = np2ref.compile(fn).pure
            def loss(*p):
                out = pure(*args_of(*p))
                return ((out[0] if isinstance(out, tuple) else out) ** 2).sum()
            grads = jax.grad(loss, argnums=tuple(range(len(point))))(*point)
            for k, (g, x) in enumerate(zip(grads, point)):
                x = np.asarray(x, float)
                num = np.zeros_like(x)
                for idx in np.ndindex(x.shape):
                    hi, lo = [np.array(p, float) for p in point], [np.array(p, float) for p in point]
                    hi[k][idx] += 1e-6
                    lo[k][idx] -= 1e-6
                    num[idx] = (np.sum(fn(*args_of(*hi)) ** 2) - np.sum(fn(*args_of(*lo)) ** 2)) / 2e-6
                np.testing.assert_allclose(np.asarray(g), num, rtol=1e-6, atol=1e-8)


def test_solve_banded_and_dgtsv_agree_bit_for_bit_with_pivoting_and_singular_systems():
    L = _library()
    gtsv, banded = np2ref.compile(L.gtsv_step), np2ref.compile(L.banded_general)
    rng = np.random.default_rng(0)
    singular = 0
    for t in range(12):
        n = 5 + t % 3  # three shapes: three compiles
        a, d, c = _tridiagonal(rng, n, dominant=t % 2 == 0)
        if t % 4 == 3:  # integer entries: exact zero pivots, some singular systems
            a, d, c = (np.round(v) for v in (a, d, c))
        b = rng.standard_normal((n, 2)) if t % 3 else rng.standard_normal(n)
        expected = L.gtsv_step(a, d, c, b)
        got = gtsv(a, d, c, b)
        for e, g in zip(expected, got):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(e))
        singular += expected[4] > 0
        ab = np.stack([np.r_[0, c], d, np.r_[a, 0]])
        if expected[4] > 0:
            for call in (L.banded_general, banded):
                with pytest.raises(np.linalg.LinAlgError, match="^singular matrix$"):
                    call(ab, b)
        else:
            np.testing.assert_array_equal(banded(ab, b), L.banded_general(ab, b))
    assert singular  # the draws include singular systems (partial results compared too)


def test_solve_banded_keeps_scipys_errors_and_refuses_other_bands():
    L = _library()
    banded = np2ref.compile(L.banded_general)
    ab = np.stack([np.r_[0, 1.0, 1.0], [4.0, np.inf, 4.0], np.r_[1.0, 1.0, 0]])
    for call in (L.banded_general, banded):
        with pytest.raises(ValueError, match="^array must not contain infs or NaNs$"):
            call(ab, np.ones(3))
    with pytest.raises((Np2RefError, NotImplementedError), match="NPR112"):
        np2ref.compile(L.banded_wide)(np.ones((4, 3)), np.ones(3))


def test_library_calls_do_not_make_the_function_host_code():
    pytest.importorskip("scipy")
    source = open(_library().__file__).read()
    result = np2ref.convert_source(source, "library_calls.py")
    assert "npr_lib_solve_banded((1, 1), ab[...], u[...])" in result.code
    assert "npr_lib_dgtsv(dl, d, du, b)" in result.code
    assert not any(d.code in ("NPR003", "NPR021") for d in result.diagnostics)


# ---- found by the fuzzer (seed 7): a traced index into an empty axis --------------------------
@pytest.mark.parametrize("name", ["read_empty_axis", "read_written_empty_axis"])
def test_a_traced_index_into_an_empty_axis_raises_numpys_indexerror_with_its_value(name):
    fn = getattr(P, name)
    b = np.zeros((0, 6), dtype=np.float32)[..., ::2]
    for call in (fn, np2ref.compile(fn)):  # JAX refused the gather; the value was reported as 0
        with pytest.raises(IndexError, match="^index 2 is out of bounds for axis 0 with size 0$"):
            call(b.copy(), np.int64(2))


def test_copy_and_deepcopy_of_arrays_are_copies():
    """`copy.deepcopy(u)` / `copy.copy(u)` (a library call that kept the whole function NumPy
    code, NPR021): a new array, as NumPy's; in a time loop the previous step's state."""
    P = program("copies")
    u = np.sin(np.linspace(0.0, 3.0, 9))
    assert_same_as_numpy(P.leapfrog_with_deepcopy, np2ref.compile(P.leapfrog_with_deepcopy, host_below=0), u, 5)
    assert_same_as_numpy(P.copy_is_not_a_view, np2ref.compile(P.copy_is_not_a_view, host_below=0), u)
