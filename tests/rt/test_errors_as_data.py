"""The runtime's refusals are data: NprError(code, message, hint, call), read by its fields
(np2ref.compile, python_loops.py, fuzz, verify), never by parsing its text; the text a user sees
is still "np2ref NPRxxx: message (hint: ...)"."""

import pickle

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from np2ref.fuzz.runner import _trace_gap
from np2ref.rt.core import NprError, NprIndexCarried, NprNotConcrete, NprUnsupported
from np2ref.rt.mask_checks import npr_mask_leaf
from np2ref.rt.np_counting import npr_np_bincount
from np2ref.rt.python_loops import _npr_python_loop_reason


def test_a_refusal_met_when_traced_names_its_code_and_call():
    with pytest.raises(NprUnsupported) as info:
        jax.jit(npr_np_bincount)(jnp.array([1, 2]))
    e = info.value
    assert (e.code, e.call, e.hint) == ("NPR109", "np.bincount", None)
    assert str(e) == f"np2ref NPR109: {e.message}" and e.message.startswith("np.bincount(x) of array data")


def test_a_hint_is_a_field_and_closes_the_text():
    with pytest.raises(NprUnsupported) as info:
        npr_mask_leaf(np.ones(3), np.array([True, False, True]))
    e = info.value
    assert e.code == "NPR104" and e.hint.startswith("give b the shape of the arrays")
    assert str(e) == f"np2ref NPR104: {e.message} (hint: {e.hint})" and "hint" not in e.message


@pytest.mark.parametrize("error", [NprUnsupported("NPR111", "a slice", "bound it", call="np.roll"),
                                   NprError("NPR206", "f(): `a` is not C-contiguous", tagged=False),
                                   NprIndexCarried("NPR122", "an index")],
                         ids=["unsupported", "untagged", "index-carried"])
def test_copies_keep_the_fields_and_the_text(error):
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error)
    assert (back.code, back.message, back.hint, back.call) == (error.code, error.message, error.hint, error.call)


def test_an_untagged_error_shows_its_message_alone():
    assert str(NprError("NPR206", "f(): `a` is not C-contiguous", tagged=False)) == "f(): `a` is not C-contiguous"


def test_python_loop_reasons_are_read_by_code_and_type():
    """The same words under another code, or another type, are not the reason: only the field."""
    assert _npr_python_loop_reason(NprIndexCarried("NPR122", "anything")) is not None
    assert _npr_python_loop_reason(NprUnsupported("NPR122", "a loop or `if` on array data binds an index")) is None
    assert "reverse-mode" in _npr_python_loop_reason(NprUnsupported("NPR124", "x"))
    assert _npr_python_loop_reason(NprUnsupported("NPR125", "np2ref NPR124")) is None
    assert "size or shape" in _npr_python_loop_reason(NprNotConcrete("any text"))
    assert _npr_python_loop_reason(TypeError("np2ref: this argument must be a concrete (static) value")) is None


def test_fuzz_reads_the_code_field():
    assert _trace_gap(NprUnsupported("NPR111", "x")) == "NPR111"
    assert _trace_gap(NotImplementedError("np2ref NPR111: a text alone is no refusal")) is None

