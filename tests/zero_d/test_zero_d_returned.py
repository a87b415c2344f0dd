"""What np2ref.compile returns for a 0-d result in a module that never asks a value's type or text:
NumPy's 0-d array where NumPy returns one (an array maker's, a written 0-d array, an array's
reshape or squeeze to (), a 0-d array argument's copy), NumPy's scalar where it returns one
(a reduction, an element, `a[()]`); NPR042 where a traced loop or branch leaves either.

Each case against NumPy: the returned objects' types and dtypes, and the values."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import program


def made_written(x):
    a = np.zeros(())
    a[...] = x.sum()
    return a


def made_op_assigned(x):
    a = np.zeros(())
    a += x[0]
    return a, x.sum()


def squeezed(x):
    return np.squeeze(x[0:1]), x[0:1].squeeze()


def reshaped(x):
    return x[0:1].reshape(()), np.reshape(x[1:2], ())


def zeros0(x):
    return np.zeros(()), np.ones((), dtype=np.int32), np.zeros_like(x[0]), np.copy(x[1])


def scalars(x):
    return x.sum(), x[0], np.zeros(()) + 1.0, np.zeros(())[()]


def bound_twice(x):
    a = np.empty(())
    a[()] = 2.5
    b = a
    return b


def arg_copy(z):
    return z.copy(), z.astype(np.float32), z.reshape(()), z[()]


def arg_zeros_like(z):
    return np.zeros_like(z), np.where(z > 0, z, 0.0)


def arg_reshaped(z):
    return z.reshape(()), z[()], np.squeeze(z)


# NumPy's scalars where fuzz5's first version returned 0-d arrays: `E = 0.0; E = accumulate(E, x)`,
# `t = 0.0; t += a[0]; u = t` (a row of a 2-d a: an array)
number_accumulated = program("helper_returns").total_of_literal
written_row_or_number = program("dp_finance_queues").number_then_row


# (a 0-d argument's copy, astype, zeros_like, np.where: NumPy's scalars before; compiled/zero_d_variant.py)
CASES = [(made_written, "x"), (made_op_assigned, "x"), (squeezed, "x"), (reshaped, "x"), (zeros0, "x"),
         (scalars, "x"), (bound_twice, "x"), (arg_copy, "z"), (arg_copy, "s"),
         (arg_zeros_like, "z"), (arg_zeros_like, "s"), (arg_zeros_like, "f"), (arg_zeros_like, "x"),
         (arg_reshaped, "z"), (arg_reshaped, "s"), (number_accumulated, "x"), (written_row_or_number, "x"),
         (written_row_or_number, "x2")]
ARGS = {"x": lambda: (np.arange(1.0, 4.0),), "z": lambda: (np.array(2.5),), "s": lambda: (np.float64(2.5),),
        "f": lambda: (2.5,), "x2": lambda: (np.arange(6.0).reshape(3, 2),)}


def _kinds(v):
    items = v if isinstance(v, tuple) else (v,)
    return [(type(i), getattr(i, "dtype", None)) for i in items]


@pytest.mark.parametrize("fn, args", CASES)
def test_a_0d_result_is_numpys_array_or_scalar(fn, args):
    expected = fn(*ARGS[args]())
    got = np2ref.compile(fn, host_below=0)(*ARGS[args]())
    assert _kinds(got) == _kinds(expected), (got, expected)
    for e, g in zip(expected if isinstance(expected, tuple) else (expected,), got if isinstance(got, tuple) else (got,)):
        assert np.array_equal(e, g)


def carried(x):
    a = np.zeros(())
    for i in range(x.shape[0]):
        a = a + x[i]
    return a


def branched(x):
    a = np.zeros(())
    if x.sum() > 100:
        a = a + 1
    return a


def test_a_0d_result_a_traced_branch_leaves_either_way_is_refused():
    fn = branched
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(np.arange(3.0))
    assert [d.code for d in info.value.diagnostics] == ["NPR042"]


def test_a_0d_array_and_a_scalar_argument_do_not_share_a_trace():
    compiled = np2ref.compile(arg_reshaped, host_below=0)
    for arg in (np.float64(1.5), np.array(1.5), np.float64(0.5), np.array(-1.0)):
        assert _kinds(compiled(arg)) == _kinds(arg_reshaped(arg)), arg


def masked_slice_sum_printed(a):
    s = 0
    for i in range(a.shape[-1]):
        s += a[..., i:i + 1][a[..., i:i + 1] != 0].sum()
    print(s)
    return s


def test_a_masked_reduction_of_a_read_noted_for_its_kind_compiles():
    """`x[..., i:i + 1][m].sum()` in a module that prints: the masked reduction took apart the read
    npr_scalar_of wrapped (AttributeError; the fuzzer's zero_d_arg, seed 2)."""
    a = np.array([[[4, 0], [-5, 2]], [[2, 3], [8, 4]]], dtype=np.int32)
    assert np2ref.compile(masked_slice_sum_printed, host_below=0)(a.copy()) == masked_slice_sum_printed(a.copy())


def masked_size_printed(b):
    s = 0.0
    for i in range(b.shape[-1]):
        w = b[..., i:i + 1]
        s += w[w > 0].size
    print(repr(s))
    return s


def test_a_selections_size_of_a_read_noted_for_its_kind_compiles():
    """`w[w > 0].size` in a module that prints: the selection's count took apart the noted read
    (AttributeError; the fuzzer's made_0d campaign, seed 55)."""
    b = np.array([[0.25, 2.0, -0.5, 1.5]], dtype=np.float32)
    assert np2ref.compile(masked_size_printed, host_below=0)(b.copy()) == masked_size_printed(b.copy())


def accumulated(x):
    a = np.zeros(())
    for i in range(x.shape[0]):
        a += x[i]
        print(type(a).__name__, repr(a))
    return a


def test_a_0d_array_a_loop_keeps_one_is_one_in_every_trip_and_after(capsys):
    """`a += x[i]` keeps a carried 0-d array one: asked inside the loop and returned, an array
    (refused NPR042 before: the loop's carried values had no kind)."""
    x = np.arange(1.0, 4.0)
    expected = accumulated(x)
    shown = capsys.readouterr().out
    got = np2ref.compile(accumulated, host_below=0)(x)
    assert type(got) is type(expected) and got == expected and capsys.readouterr().out == shown


def asked_then_rebound(x):
    a = np.zeros(())
    for i in range(x.shape[0]):
        print(type(a).__name__)  # ndarray on the first trip, float64 after
        a = a + x[i]
    return float(a)


@pytest.mark.parametrize("fn", [carried, asked_then_rebound])
@pytest.mark.parametrize("n", [0, 1, 3])
def test_a_0d_value_a_loop_turns_into_a_scalar_is_numpys_in_every_trip_and_after(fn, n, capsys):
    """The first trip runs on its own (its 0-d array made a scalar), the rest is a loop of
    scalars: asked inside and returned as NumPy's (refused NPR042 before); none: the array."""
    expected = fn(np.arange(float(n)))
    shown = capsys.readouterr().out
    got = np2ref.compile(fn, host_below=0)(np.arange(float(n)))
    assert _kinds(got) == _kinds(expected) and got == expected and capsys.readouterr().out == shown


def full_op_assigned(x):
    z = np.full((), 2.0)
    z += 1
    return z, z


def asarray_scaled(x):
    z = np.asarray(x.sum())
    z *= 2
    return z


@pytest.mark.parametrize("fn", [full_op_assigned, asarray_scaled])
def test_a_0d_array_op_assigned_a_number_stays_one(fn):
    """`z += 1` of np.full((), 2.0) (weakly typed: taken for a Python number, rebound) and `z *= 2`
    of np.asarray(s) (a rebinding, its kind lost): NumPy's 0-d array (the made_0d campaign)."""
    x = np.arange(1.0, 4.0)
    assert _kinds(np2ref.compile(fn, host_below=0)(x)) == _kinds(fn(x))


def full_plus(f):
    return np.full(3, 2.0) + f, np.full((), 7) + f.astype(np.int8)


def test_np_full_of_a_python_number_has_numpys_dtype_in_promotion():
    """np.full(3, 2.0) is float64 in NumPy, never weak: `+ F32` is float64 (jnp.full's weak
    float64 made it float32)."""
    f = np.ones(3, np.float32)
    assert [r.dtype for r in np2ref.compile(full_plus, host_below=0)(f)] == [r.dtype for r in full_plus(f)]
