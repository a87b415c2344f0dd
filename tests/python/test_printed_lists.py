"""`print(x.tolist())` (and `repr(x.tolist())`, an f-string of it) in a compiled function: the
host calls `.tolist()` on the NumPy value it is sent when the program runs, so the text is
NumPy's; before, `.tolist()` ran on the traced array while tracing (NPR031, "a Python value
depends on array data") and the function was refused."""

import contextlib
import copy
import functools
import io

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program


@functools.cache
def compiled(name, stem="printed_lists"):
    return np2ref.compile(getattr(program(stem), name), host_below=0)


def _printed(fn, args):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        fn(*copy.deepcopy(args))
        jax.effects_barrier()
    return out.getvalue()


@pytest.mark.parametrize("name, args", [
    ("cycle", (np.array([[0, 3, 1], [2, 2, 0]]), 3)),
    ("history", (np.array([0.0, 1.0, 0.5, 2.0, 0.0, -1.0]), 3)),
])
def test_printed_lists_are_numpys_text(name, args):
    original = getattr(program("printed_lists"), name)
    text = _printed(original, args)
    assert "[" in text and _printed(compiled(name), args) == text
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_as_numpy(original, compiled(name), *args)


@pytest.mark.parametrize("name, args", [
    ("residuals", (np.sin(np.linspace(0.0, 3.0, 9)), 3)),
    ("two_percents", (np.array([0.5, -1.25, 2.0, 0.0]),)),
])
def test_percent_formatted_print_arguments_are_numpys_text(name, args):
    """`print("residual", "%.5e" % new, "factor", ratio)`: a `%` of text is formatted on the host.
    The rewrite bound the `%` argument's parameters to a local named like its own helper `held`,
    so an argument after it that is no literal called a CST node: np2ref.compile crashed with
    "TypeError: 'Name' object is not callable" (rewrite/rules/introspection.emit_print)."""
    original = getattr(program("printed_percent"), name)
    text = _printed(original, args)
    assert "e+00" in text or "at 1" in text
    assert _printed(compiled(name, "printed_percent"), args) == text
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_as_numpy(original, compiled(name, "printed_percent"), *args)
