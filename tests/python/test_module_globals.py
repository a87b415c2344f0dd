"""A compiled function reads the module's current values on every call, as NumPy does: a
change the caller makes between calls (an array written in place, a name rebound, a dict item,
an attribute of an object or a class) makes np2ref trace again; unchanged values reuse the
compiled program. Through np2ref.compile and through a converted file."""

import copy
import importlib.util
import sys

import numpy as np
import pytest

import np2ref
from np2ref.pipeline import convert_source
from conftest import program

P = program("module_globals")
X = np.array([0.5, -1.0, 2.0])


def _changes(module):
    """(description, change) pairs, each applied on top of the ones before."""
    def write_w():
        module.W[0] = 5.0

    def rebind_alpha():
        module.ALPHA = 1.0

    def rebind_w():
        module.W = np.full(3, 7.0)

    def dict_item():
        module.CFG["k"] = 3.0

    def attribute():
        module.PARAMS.beta = -2.0

    def array_attribute():
        module.PARAMS.table[1] = 10.0

    def class_attribute():
        module.Grid.h = 0.5

    def signed_zero():
        module.W[1] = -0.0 if module.W[1] == 0.0 else 0.0
        module.W[2] = 0.0

    return [write_w, rebind_alpha, rebind_w, dict_item, attribute, array_attribute, class_attribute,
            signed_zero, signed_zero]


@pytest.fixture()
def fresh_globals():
    saved = {n: copy.deepcopy(getattr(P, n)) for n in ("W", "ALPHA", "CFG", "PARAMS")}
    h = P.Grid.h
    yield
    for n, v in saved.items():
        setattr(P, n, v)
    P.Grid.h = h


def _agree(fn, compiled, module, *args):
    expected = getattr(module, fn)(*copy.deepcopy(args))
    got = compiled(*copy.deepcopy(args))
    np.testing.assert_array_equal(got, expected)
    assert (np.signbit(got) == np.signbit(expected)).all()


def test_compile_sees_every_change_between_calls(fresh_globals):
    compiled = np2ref.compile(P.weighted, host_below=0)
    _agree("weighted", compiled, P, X)
    for change in _changes(P):
        change()
        _agree("weighted", compiled, P, X)


def test_a_rebinding_before_the_first_call_is_seen(fresh_globals):
    compiled = np2ref.compile(P.weighted, host_below=0)
    P.ALPHA = 4.0  # after compile, before any call: compile's namespace is a copy
    _agree("weighted", compiled, P, X)


def test_unchanged_values_keep_the_compiled_program(fresh_globals):
    compiled = np2ref.compile(P.stepped, host_below=0)
    for _ in range(3):
        _agree("stepped", compiled, P, np.arange(4.0), 3)
    assert len(compiled._entry._jitted) == 1
    P.W[0] = 2.0
    _agree("stepped", compiled, P, np.arange(4.0), 3)
    assert len(compiled._entry._jitted) == 1  # traced again, for the new value only


def test_a_converted_file_sees_changes_made_from_outside(fresh_globals, tmp_path):
    out = tmp_path / "module_globals_ref.py"
    out.write_text(convert_source(open(P.__file__).read(), P.__file__).code)
    spec = importlib.util.spec_from_file_location("module_globals_ref", out)
    converted = importlib.util.module_from_spec(spec)
    sys.modules["module_globals_ref"] = converted
    spec.loader.exec_module(converted)
    assert hasattr(converted.weighted, "pure")  # the converted, jitted function
    _agree("weighted", converted.weighted, P, X)
    for change, same_change in zip(_changes(converted), _changes(P)):
        change()
        same_change()
        _agree("weighted", converted.weighted, P, X)


def test_attributes_of_an_object_argument_are_read_on_every_call():
    """`step(params, x)` after `params.beta = ...` or `params.table[1] = ...`: NumPy reads the
    new values; the compiled program traced with the old ones must not be reused."""
    class Params:
        def __init__(self):
            self.beta, self.table = 0.5, np.arange(4.0)

    params, compiled = Params(), np2ref.compile(P.with_params, host_below=0)
    for change in (None, lambda: setattr(params, "beta", -2.0), lambda: params.table.__setitem__(1, 10.0),
                   lambda: setattr(params, "table", np.full(4, 3.0))):
        if change is not None:
            change()
        np.testing.assert_array_equal(compiled(params, X), P.with_params(params, X))
