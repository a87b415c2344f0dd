"""A written array rebound inside a lax loop (rt/rebinds.py; issue 37 case 1) and loop targets
rebound in their own body (issue 44), against NumPy: the return value and every argument after
the call. tests/programs/loop_rebinds.py holds the programs."""

from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import ProgramChecks

C = ProgramChecks("loop_rebinds")
Y, V = np.array([9.9, 1.0]), np.array([0.2, 0.2])
A2, B2 = np.array([[1.5, -1.0], [0.5, 3.0]]), np.array([[0.7, 0.2], [-0.4, 0.9]])
TRIPS = [0, 1, 2, 5]
LAX = {  # name -> arguments but the trip count: each a lax loop (no PythonLoopWarning)
    "wrap_mod": (Y, V), "wrap_expr": (Y, V), "wrap_int": (np.array([5, 1, 6], np.int32),),
    "wrap_2d": (A2, B2), "two_names": (np.array([2.5, 1.0]), np.array([1.0, -2.0]), np.array([0.71, 0.41])),
    "wrap_helper_same": (Y, V), "wrap_helper_new": (Y, V), "wrap_write_after": (Y, V),
    # rebound as an item of a call's result (Python loops on main: stable fluids' `u, v = no_slip(u_new, v_new)`)
    "wrap_pair": (Y, np.array([1.5, 7.0]), V), "wrap_tuple_new": (Y, np.array([0.7, 2.9])),
}


def same_lax(name, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        return C.same(name, *args)


@pytest.mark.parametrize("n", TRIPS)
@pytest.mark.parametrize("name", sorted(LAX))
def test_rebinding_in_a_lax_loop_is_numpys(name, n):
    same_lax(name, *LAX[name], n)


@pytest.mark.parametrize("n", [1, 2, 5])
def test_a_name_keeping_the_old_buffer_is_a_value_of_the_trip(n):
    same_lax("wrap_read_old", Y, V, n)  # z: the buffer y held, never written again


def test_the_issue_reproducer_returns_numpys_value_and_leaves_the_first_write():
    expected, got = same_lax("wrap_mod", Y, V, 1)
    assert np.allclose(got, [0.1, 1.2])
    y = Y.copy()
    C.compiled("wrap_mod")(y, V, 2)
    assert np.allclose(y, [10.1, 1.2])  # only the first iteration writes the caller's buffer


def test_a_long_loop_is_traced_once():
    y = np.linspace(0.0, 9.0, 5)
    # 0.7071: no trip lands within 1e-3 of a multiple of 10 (0.7 came within 4e-15, where a
    # TPU's float64, a float32 pair, rounds to the other side of the wrap)
    same_lax("wrap_mod", y, np.full(5, 0.7071), 1000)
    text = C.compiled("wrap_mod").lower(y, np.full(5, 0.7071), 1000).as_text()
    assert "while" in text and text.count("remainder") < 8  # the body once in the loop, once peeled


@pytest.mark.parametrize("n", [1, 2, 5])
@pytest.mark.parametrize("name, args", [
    ("wrap_view", (np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.25, 0.125]))),  # a view: the caller's
    ("wrap_alias_new", (Y, V)),  # two carried names hold the new buffer: no refill
])
def test_a_rebinding_no_refill_can_follow_runs_as_python(name, args, n):
    C.same(name, *args, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        assert "while" not in C.compiled(name).lower(*args, n).as_text()  # the Python loop it was


def refused(name, *args):
    copies = [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(np2ref.Np2RefError) as info:
        C.compiled(name)(*copies)
    for before, after in zip(args, copies):
        if isinstance(before, np.ndarray):
            assert np.array_equal(before, after)  # refused before anything is written back
    return [d.code for d in info.value.diagnostics]


def test_a_rebinding_under_an_if_on_data_is_refused():
    assert refused("wrap_in_branch", np.array([5.0, 6.0]), np.array([1.0, 0.5]), 2) == ["NPR011"]
    C.same("wrap_in_branch", np.array([5.0, 6.0]), np.array([1.0, 0.5]), 0)


@pytest.mark.parametrize("T", [0.4, 1.0, 2.4])
@pytest.mark.parametrize("name", ["wrap_while", "wrap_while_helper", "wrap_while_written"])
def test_a_while_on_data_that_rebinds_is_numpys(name, T):
    C.same(name, Y, V, T)


@pytest.mark.parametrize("name", ["wrap_pair", "wrap_tuple_new"])
def test_a_rebinding_through_a_helpers_tuple_is_traced_once(name):
    """A plain Python loop on main: one traced copy of the body per trip."""
    args = (*LAX[name], 200)
    text = C.compiled(name).lower(*args).as_text()
    assert "npr_for(npr_range(n)" in C.compiled(name).source and "while" in text


@pytest.mark.parametrize("T", [0.4, 2.4])
def test_a_while_on_data_that_rebinds_through_a_helpers_tuple_is_numpys(T):
    C.same("wrap_pair_while", Y, np.array([1.5, 7.0]), V, T)  # NPR011 on main


@pytest.mark.parametrize("k", [1, 3])
def test_a_range_read_from_data_that_rebinds_is_numpys(k):
    C.same("wrap_traced_range", Y, V, np.array([k]))


def test_a_loop_on_data_that_ran_no_iteration_refuses_at_run_time():
    # after zero trips NumPy's name is still the caller's array: no static binding says that
    assert refused("wrap_while", Y, V, 0.0) == ["NPR011"]
    assert refused("wrap_traced_range", Y, V, np.array([0])) == ["NPR011"]


@pytest.mark.parametrize("name, args", [
    ("zip_rebind", (np.array([[-3, -4, 4, 0]], dtype=np.int32),)),  # issue 44, as the fuzzer saved it
    ("zip_both_rebind", (np.array([[-3, -4, 4, 0]], np.int32), np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.int32))),
    ("rows_rebind", (np.arange(6.0).reshape(3, 2),)),
    ("rows_rebind_write", (np.arange(6.0).reshape(3, 2), np.zeros(2))),
    ("enumerate_rebind", (np.arange(6.0).reshape(3, 2),)),
    ("enumerate_rebind_write", (np.arange(6.0).reshape(3, 2), np.zeros(3))),
    ("target_rebind", (np.arange(5.0), 3)), ("target_rebind", (np.arange(5.0), 0)),
    ("target_rebind_after", (np.arange(5.0), 3)),
])
def test_a_loop_target_rebound_in_its_body_is_bound_by_each_iteration(name, args):
    C.same(name, *args)


def test_pure_under_vmap_and_grad():
    c = C.compiled("wrap_expr")
    batch = np.stack([Y, 2 * Y, -Y])
    with jax.enable_x64(True):
        # jitted: one compile each (eager, each operation compiles on its own)
        results, finals = jax.jit(jax.vmap(lambda b: c.pure(b, V, 3)))(batch)
        g = np.asarray(jax.jit(jax.grad(lambda y: c.pure(y, V, 3)[0].sum()))(jnp.asarray(Y)))
        gy = np.asarray(jax.jit(jax.grad(lambda y: c.pure(y, V, 3)[1]["y"].sum()))(jnp.asarray(Y)))
    for i, row in enumerate(batch):
        row = row.copy()
        assert np.allclose(results[i], P().wrap_expr(row, V, 3)) and np.allclose(finals["y"][i], row)
    h = 1e-6
    for grad, pick in [(g, lambda y: P().wrap_expr(y, V, 3).sum()),
                       (gy, lambda y: (P().wrap_expr(y, V, 3), y)[1].sum())]:
        fd = [(pick(Y + h * e) - pick(Y - h * e)) / (2 * h) for e in np.eye(2)]
        assert np.allclose(grad, fd, rtol=1e-6)


def test_pure_of_a_while_under_vmap():
    c = C.compiled("wrap_while")
    batch = np.stack([Y, Y + 3.0, Y * 0.5])
    with jax.enable_x64(True):
        results, finals = jax.jit(jax.vmap(lambda b: c.pure(b, V, 1.4)))(batch)
    for i, row in enumerate(batch):
        row = row.copy()
        assert np.allclose(results[i], P().wrap_while(row, V, 1.4)) and np.allclose(finals["y"][i], row)


def P():
    return C.module
