"""The differential check of tests/script_breaks/: the original on NumPy against np2ref.compile(fn,
bitwise=True), bit for bit: every result and every argument (dtype, shape and bytes; a
Generator's state), the types of the results' scalars and the printed text."""

from __future__ import annotations

import contextlib
import copy
import inspect
import io
import warnings

import numpy as np

import np2ref
from conftest import assert_numpys_bits, on_tpu


def same_bits(a, b, where="result") -> None:
    if isinstance(a, np.random.Generator):
        assert isinstance(b, np.random.Generator), where
        assert a.bit_generator.state == b.bit_generator.state, f"{where}: the generator's state"
    elif isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b), f"{where}: {type(a)} {type(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same_bits(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), where
        for k in a:
            same_bits(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), f"{where}: {type(b)}"
        assert (a.dtype, a.shape) == (b.dtype, b.shape), f"{where}: {a.dtype}{a.shape} {b.dtype}{b.shape}"
        if on_tpu() and a.dtype.kind in "fc":  # (a TPU's float64 is a float32 pair: conftest's tolerance)
            assert_numpys_bits(b, a)
        else:
            assert a.tobytes() == b.tobytes(), f"{where}: {a!r} != {b!r}"
    elif on_tpu() and isinstance(a, (float, np.floating)):  # (the pair's float64, as above)
        assert type(a) is type(b), f"{where}: {type(a)} {type(b)}"
        assert_numpys_bits(np.asarray(b), np.asarray(a))
    else:
        assert type(a) is type(b) and repr(a) == repr(b), f"{where}: {a!r} != {b!r}"


def run_both(fn, *args, compiled=None, **kwargs):
    """(NumPy's printed text, the translation's): both runs agree bit for bit, results and args."""
    compiled = compiled or np2ref.compile(fn, host_below=0, bitwise=True)
    a0, k0 = copy.deepcopy((args, kwargs))
    a1, k1 = copy.deepcopy((args, kwargs))
    with contextlib.redirect_stdout(io.StringIO()) as want_out:
        want = fn(*a0, **k0)
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()) as got_out:
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        got = compiled(*a1, **k1)
    same_bits(want, got)
    before = inspect.signature(fn).bind(*a0, **k0).arguments
    after = inspect.signature(fn).bind(*a1, **k1).arguments
    for name, value in before.items():
        same_bits(value, after[name], f"argument `{name}`")
    assert want_out.getvalue() == got_out.getvalue()
    return want_out.getvalue()


def loop_notes(source: str, code: str = "NPR033") -> list[int]:
    """The lines of `source` whose loops `convert` notes with `code` (a Python loop: NPR033)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = np2ref.convert_source(source, "script.py")
    return sorted(d.line for d in result.diagnostics if d.code == code)
