"""The differential check of a whole script through `np2ref convert`: the original module and its
conversion, each imported from a real file, called on copies of the same arguments. Results and
every argument agree (verify/compare.py: integers exactly, floats to their dtype's tolerance: a
converted loop is not compiled bitwise), the printed text is the same, and an exception is the
same type and message, with the arguments as NumPy left them."""

from __future__ import annotations

import contextlib
import copy
import io
import textwrap

import np2ref
from conftest import load_module
from np2ref.verify.compare import first_difference


def convert_both(source: str, tmp_path, tag: str):
    """(the conversion, the original module, the converted module)."""
    source = textwrap.dedent(source)
    converted = np2ref.convert_source(source, f"{tag}.py")
    assert converted.ok, [d.short() for d in converted.diagnostics]
    return converted, load_module(source, tmp_path, f"cv_{tag}"), load_module(converted.code, tmp_path, f"cv_{tag}_ref")


def _call(fn, args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            return fn(*args), None, out.getvalue()
        except Exception as exc:  # noqa: BLE001 (compared with NumPy's)
            return None, exc, out.getvalue()


def agree(original, converted, name: str, *args) -> str:
    """Call `name` of both modules on copies of `args`; NumPy's printed text."""
    a0, a1 = copy.deepcopy(args), copy.deepcopy(args)
    want, want_exc, want_out = _call(getattr(original, name), a0)
    got, got_exc, got_out = _call(getattr(converted, name), a1)
    assert type(want_exc) is type(got_exc), (want_exc, got_exc)
    if want_exc is not None:
        assert str(want_exc) == str(got_exc)
    assert want_out == got_out, (want_out, got_out)
    diff = first_difference(want, got) or first_difference(list(a0), list(a1), "arguments")
    assert diff is None, diff
    return want_out
