"""Ranges, lists, tuples, nested lists and Python scalars where NumPy takes an array (issue 37 case 3).

`X, Y = np.meshgrid(range(4), range(3))` raised jax.numpy's TypeError: NumPy converts any
sequence given for an array argument (np.asarray), jax.numpy's functions refuse one. Two levels:
every entry of the NumPy table, its array arguments given as sequences and converted where the
translator converts them (numpy_table.ARRAY_ARGUMENTS, as rules/sequence_args.py emits it),
against NumPy on the same sequences; and whole translated functions by family
(tests/programs/sequence_args.py) through np2ref.compile."""

from __future__ import annotations

import warnings

import jax
import numpy as np
import pytest
import test_numpy_table as TT
from conftest import ProgramChecks

from np2ref.analysis import numpy_table as T
from np2ref.rt import npr_np_array

CHECKS = ProgramChecks("sequence_args")
X = np.array([1.5, 2.5, 3.5, 4.5])


@pytest.mark.parametrize("name, args", [("grids", (X, 3)), ("creation", (X, 3)), ("joining", (X,)),
                                        ("reductions", (X,)), ("shaping", (X,)), ("ufuncs", (X,))])
def test_family_takes_sequences_as_numpy_does(name, args):
    CHECKS.same(name, *args)


def _sequences(args):
    """(label, args) with one array argument given as a Python sequence (or a scalar for 0-d),
    and with each array of a list argument given as a list."""
    for i, a in enumerate(args):
        swap = (lambda v, i=i: (*args[:i], v, *args[i + 1:]))
        if isinstance(a, np.ndarray):
            if a.ndim == 0:
                yield f"scalar@{i}", swap(a.item())
                continue
            # (a tuple is converted as a list is, by NumPy and by npr_np_array: one of the two, by turns)
            yield (f"list@{i}", swap(a.tolist())) if i % 2 == 0 else (f"tuple@{i}", swap(tuple(a.tolist())))
            if a.ndim == 1 and a.dtype.kind in "iu":
                yield f"range@{i}", swap(range(len(a)))
        elif isinstance(a, (list, tuple)) and a and all(isinstance(e, np.ndarray) for e in a):
            yield f"lists@{i}", swap(type(a)(e.tolist() for e in a))


def _translated(qname, args):
    """The arguments as translated code passes them: a sequence in an array argument through
    npr_np_array (rules/sequence_args.py)."""
    positions = T.array_arguments(qname)
    if positions is False:
        return args
    return tuple(npr_np_array(a) if (positions is None or i in positions) and isinstance(a, (list, tuple, range))
                 else a for i, a in enumerate(args))


def _first_case(qname):
    """The entry's first sample NumPy accepts that has an array argument, or None."""
    for args, kwargs in TT.samples_for(qname):
        if any(isinstance(a, (np.ndarray, list, tuple)) for a in args):
            try:
                TT._np_call(TT._resolve_numpy(qname), args, kwargs)
            except Exception:  # noqa: BLE001 - not a NumPy call: nothing to match
                continue
            return args, kwargs
    return None


# NumPy's own reading of a sequence there is not np.asarray's: left to jax.numpy's TypeError
NOT_CONVERTED = {"numpy.array_split": "np.array_split(list, n, axis=1) splits len(list) along axis 1"}
ENTRIES = [q for q in TT.ENTRIES if q[6:] not in TT.CONSTANTS and q[6:] not in TT.GRIDS and q[6:] not in TT.EAGER]


@pytest.mark.parametrize("qname", ENTRIES)
def test_table_entry_takes_sequences_as_numpy_does(qname):
    case = _first_case(qname)
    if case is None:
        pytest.skip("no sample with an array argument")
    args, kwargs = case
    fn_np, fn_j = TT._resolve_numpy(qname), eval(T.FUNCTIONS[qname], dict(TT.NS))
    compared = 0
    with jax.enable_x64(True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for label, given in _sequences(args):
            try:
                expected = TT._np_call(fn_np, given, kwargs)
            except Exception:  # noqa: BLE001 - NumPy refuses this sequence too
                continue
            if qname in NOT_CONVERTED and not isinstance(given[0], np.ndarray):
                with pytest.raises(TypeError):  # an error, never another answer
                    fn_j(*_translated(qname, given), **kwargs)
                continue
            got = fn_j(*_translated(qname, given), **kwargs)
            expected, got = TT._normalize(qname[6:], expected, got)
            TT.assert_same(expected, got, f"{qname} {label}")
            compared += 1
    if not compared:
        pytest.skip("NumPy takes no sequence in this sample")
