"""Masks in the shapes of third-party physics and ML code (Lennard-Jones cutoffs, masked stores,
sliding windows, histogram2d, positional outs) that np2ref refused or diagnosed poorly: shapes of third-party physics
and ML code that np2ref refused or diagnosed poorly. Differential: the original against
np2ref.compile of it (results and mutated arguments)."""

import functools
import warnings

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("masked_physics")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(P, name))


def _separations(n=9, seed=0):
    d = np.random.default_rng(seed).normal(size=(n, 3))
    d[0] = 0.0  # r2 == 0: NumPy divides by zero there (inf, nan) when the mask selects it
    return d


@pytest.mark.parametrize("rc2", [1.5, 1e-9, 50.0], ids=["some", "none", "all"])
@pytest.mark.parametrize("name", ["lj_forces", "lj_kept_root", "lj_kept_chain", "lj_shifted_energy",
                                  "lj_force_vectors"])
def test_lennard_jones_cutoffs_through_a_mask_match_numpy(name, rc2):
    """`inv[mask] = 1.0 / r2[mask]`, a name bound to an expression of masked reads (`r =
    np.sqrt(r2[mask])`, `inv2 = 1.0 / r2[mask]`) then stored under the same mask or reduced,
    `r2[mask][:, None]` beside `d[mask]`: computed on whole arrays under the mask (NPR107 before)."""
    fn = getattr(P, name)
    args = (_separations(), rc2) + ((1.0,) if name in ("lj_forces", "lj_shifted_energy") else ())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own, from 1 / 0 where selected
        assert_same_as_numpy(fn, compiled(name), *args)


def test_pair_loop_with_a_cutoff_matches_numpy():
    x = np.random.default_rng(3).random((7, 3)) * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_same_as_numpy(P.lj_pair_loop, compiled("lj_pair_loop"), x, 0.8)


def test_masked_stores_into_an_argument_match_numpy():
    r2 = np.random.default_rng(5).random(12) * 2
    assert_same_as_numpy(P.lj_into_argument, compiled("lj_into_argument"), np.full(12, -1.0), r2, 1.0)


def test_a_mask_known_when_traced_takes_the_same_route():
    assert_same_as_numpy(P.masked_known_when_traced, compiled("masked_known_when_traced"), np.arange(6.0), 6)


def test_where_with_a_division_in_the_untaken_branch_does_not_warn():
    d = _separations()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = P.where_division(d, 1.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = compiled("where_division")(d, 1.5)
    np.testing.assert_array_equal(got, expected)


def test_a_selection_stored_under_another_mask_stays_refused():
    x, y = np.linspace(0, 1, 6), np.linspace(1, 0, 6)
    P.selection_under_another_mask(x, y)  # NumPy pairs the selections by position
    with pytest.raises(np2ref.Np2RefError, match="NPR107"):
        compiled("selection_under_another_mask")(x, y)


@pytest.mark.parametrize("name", ["rows_times_values", "rows_times_values_summed"])
def test_masked_reads_with_different_numbers_of_axes_are_refused(name):
    """d[m] * r2[m] with a 2-d d and a 1-d r2: NumPy pairs r2's selection with d's columns (it
    works only for 1 or 3 selected rows); the whole arrays would pair r2 with d's columns for
    every row. It used to compute that, silently (3x3 d)."""
    d, r2 = np.arange(9.0).reshape(3, 3), np.array([1.0, 2.0, 3.0])
    m = np.array([False, True, False])
    getattr(P, name)(d, r2, m)  # NumPy: d[1] * r2[1]
    with pytest.raises(np2ref.Np2RefError, match="NPR104.*different numbers of axes"):
        compiled(name)(d, r2, m)


def test_sliding_window_views_are_read_as_numpy():
    """np.lib.stride_tricks.sliding_window_view (NPR004 before): the windows gathered, shapes static."""
    assert_same_as_numpy(P.moving_average, compiled("moving_average"), np.arange(10.0) ** 2,
                         np.arange(30).reshape(5, 6) % 7)


def test_a_write_through_a_sliding_window_view_is_refused():
    with pytest.raises(ValueError, match="read-only"):
        P.written_window(np.arange(5.0))
    with pytest.raises(np2ref.Np2RefError, match="NPR205 .* read-only view"):
        compiled("written_window")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_histogram2d_matches_numpy_on_its_bin_edges(dtype):
    """np.histogram2d (NPR004 before): values exactly on the edges, the last edge (closed on the
    right), outside the range and NaN (dropped), the edges from the data without range=."""
    e = np.linspace(0, 1, 5)
    x = np.concatenate([e, [0.3, 1.0, 1.0000001, -0.1, 0.75, 0.5]]).astype(dtype)
    y = np.concatenate([e[::-1], [0.2, 0.0, 0.5, 1.0, 0.4, 0.25]]).astype(dtype)
    assert_same_as_numpy(P.occupancy, compiled("occupancy"), x, y)
    x[3] = np.nan  # NumPy: outside every bin; with the data's range: its ValueError
    with pytest.raises(ValueError, match="autodetected range"):
        compiled("occupancy")(x, y)


def test_reductions_of_a_prefix_bound_to_a_name_stay_a_lax_loop():
    """`seg = x[:i]` then `np.max(seg)` in a loop over i ran as a Python loop (NPR033): np.max of
    the name now takes the run-time length into account (npr_slice_max) as `np.max(x[:i])` did."""
    x = np.random.default_rng(2).normal(size=11)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no PythonLoopWarning
        assert_same_as_numpy(P.prefix_stats, compiled("prefix_stats"), x)
    assert "npr_slice_max(seg)" in compiled("prefix_stats").source


def test_max_of_an_empty_prefix_raises_numpys_value_error():
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        P.prefix_max_from_zero(np.arange(4.0))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        compiled("prefix_max_from_zero")(np.arange(4.0))


def test_repr_of_array_data_is_refused_as_str_is():
    """repr(x) was NPR003 ('a call np2ref cannot see into', hint: define it in the module)."""
    with pytest.raises(np2ref.Np2RefError, match="NPR031 repr.. of a value that depends on array data"):
        compiled("repr_of_data")(np.arange(3.0))


def test_repr_of_static_values_and_printed_f_strings_match_numpy(capsys):
    expected = P.repr_of_static(np.arange(3.0), 4)
    printed = capsys.readouterr().out
    got = compiled("repr_of_static")(np.arange(3.0), 4)
    assert capsys.readouterr().out == printed
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[1:] == expected[1:]


@pytest.mark.parametrize("x", [np.linspace(-1, 1, 7), np.arange(-3, 4), np.linspace(-1, 1, 7).astype(np.float32)],
                         ids=["float64", "int64", "float32"])
@pytest.mark.parametrize("name", ["rebound_then_masked", "rebound_keeps_caller", "clipped_in_place"])
def test_a_parameter_rebound_then_masked_matches_numpy(name, x):
    """`x = np.asarray(x, dtype=float)` then `x[x < 0] = 0` raised a TypeError when traced
    (npr_asarray took no dtype): NumPy's same buffer for a float64 x, a copy otherwise."""
    assert_same_as_numpy(getattr(P, name), compiled(name), x, 0.3)


def test_a_view_that_reinterprets_memory_is_refused():
    with pytest.raises(np2ref.Np2RefError, match=r"NPR205 `.view\(int64\)` of a float64 array reinterprets"):
        compiled("reinterpreted")(np.zeros(3))


def test_a_bincount_refused_when_traced_points_at_the_call():
    """NPR109 pointed at the start of the statement (a line before the call here)."""
    with pytest.raises(np2ref.Np2RefError, match="NPR109") as err:
        compiled("counted_total")(np.array([1, 2]), np.ones(2))
    d = err.value.diagnostics[0]
    lines, start = __import__("inspect").getsourcelines(P.counted_total)
    assert lines[d.line - start].strip().startswith("np.bincount(k)")
    assert lines[d.line - start][d.col - 1:].startswith("np.bincount(k)")


def test_ufunc_outputs_given_by_position_match_numpy():
    """np.add(a, b, d), np.greater(a, b, c, where=m): a TypeError when traced before (the out
    went to the shim as an input, and the write to the caller's `a` was not seen)."""
    a, b = np.linspace(-1, 1, 6), np.array([0, 0.5, 0, 1, 0, -1.0])
    assert_same_as_numpy(P.positional_outs, compiled("positional_outs"), a, b, a > -0.5)
    assert compiled("positional_outs").mutated == ("a",)
    assert_same_as_numpy(P.keyword_out_where, compiled("keyword_out_where"), a, b, a > -0.5, np.ones(6, bool))


def test_where_without_out_and_unmodelled_positional_outs_are_refused_on_the_users_column():
    with pytest.raises(np2ref.Np2RefError, match="NPR106 `greater.*where=m.` without out=: NumPy leaves"):
        compiled("where_without_out")
    with pytest.raises(np2ref.Np2RefError, match="NPR205") as err:
        compiled("positional_out_flipped")
    d = err.value.diagnostics[0]
    lines, start = __import__("inspect").getsourcelines(P.positional_out_flipped)
    assert lines[d.line - start][d.col - 1:].startswith("np.add(a, b, np.flip(c))")


def test_a_host_function_with_a_positional_out_is_kept_as_written():
    source = "import numpy as np\n\n\ndef main(u):\n    np.random.seed(0)\n    np.add(u, 1.0, u)\n    return u\n"
    result = np2ref.convert_source(source)
    assert "main" in result.host and "np.add(u, 1.0, u)" in result.code


def test_a_positional_out_in_a_loop_with_break_and_continue():
    assert_same_as_numpy(P.positional_out_in_a_loop_with_jumps, compiled("positional_out_in_a_loop_with_jumps"),
                         np.arange(3.0), np.ones(3), 4)


def test_a_parameter_rebound_in_a_branch_on_data_then_written_says_why():
    """NumPy writes the caller's x when t <= 0 only: refused, now with the reason (it said 'a
    branch depends on array data, which is not translated yet')."""
    with pytest.raises(np2ref.Np2RefError, match="NPR030 an `if` on array data rebinds `x`, an array written") as err:
        compiled("rebound_in_a_branch_then_masked")(np.linspace(-1, 1, 5), 0.3)
    assert "x.copy()" in err.value.diagnostics[0].hint


def test_a_list_of_arrays_of_different_shapes_is_taken_item_by_item():
    """NumPy makes no array of [ones(2), arange(3)] (a ValueError in NumPy 2): the function
    computes with the list, and so does the call (it raised that ValueError while taking its
    arguments), in .pure under the caller's jit too."""
    x, parts = np.arange(3.0), [np.ones(2), np.arange(3.0)]
    assert_same_as_numpy(P.sum_of_parts, compiled("sum_of_parts"), x, parts)
    assert_same_as_numpy(P.sum_of_parts, compiled("sum_of_parts"), x, [np.ones(4), np.arange(3.0) * 2])
    with jax.enable_x64(True):
        result, _ = jax.jit(compiled("sum_of_parts").pure)(x, parts)
    assert np.array_equal(np.asarray(result), P.sum_of_parts(x, parts))


def test_gradients_through_masked_reads_that_would_meet_a_pole_are_numpys():
    """`inv[m] = 1.0 / r2[m]` and `(1.0 / r2[m]) ** 3` are computed on whole arrays: the
    excluded self-pair's 1 / 0 gave jax.grad 0 * inf = NaN where NumPy's central differences
    give 0. npr_mask_guard replaces the elements the mask leaves out by a selected one."""
    d = _separations(7, seed=4)
    pure = compiled("lj_energy").pure
    with jax.enable_x64(True):
        grad = np.asarray(jax.jit(jax.grad(lambda a: pure(a, 2.5)[0]))(d))  # one compile
    eps, fd = 1e-6, np.zeros_like(d)
    for k in np.ndindex(d.shape):
        e = np.zeros_like(d)
        e[k] = eps
        fd[k] = (P.lj_energy(d + e, 2.5) - P.lj_energy(d - e, 2.5)) / (2 * eps)
    assert np.all(np.isfinite(grad)) and np.allclose(grad, fd, rtol=1e-5, atol=1e-5)
    assert "npr_mask_guard(r2, inside)" in compiled("lj_energy").source
    assert_same_as_numpy(P.lj_energy, compiled("lj_energy"), d, 2.5)
