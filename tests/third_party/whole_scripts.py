"""The harness the whole-script rounds share (test_whole_scripts7/8/8b/10.py): a folder of
scripts, each run two ways against NumPy.

- convert: `np2ref convert` of the whole file, run as __main__, prints what the original prints
  (numbers to 1e-9 relative, test_whole_scripts6.same_text; a script in `float32_prints` to 1e-6);
- compile: `np2ref.compile(fn, host_below=0)` of each function the script's CHECKS names gives
  NumPy's results, final arguments, dtypes and scalar types, and prints the same.

An entry's expected outcome is "same" or the code of an honest refusal; `left` holds wrong
answers not fixed yet (strict xfails, so a fix shows). The default run keeps the entries named in
`default_convert` / `default_compile`; `-m long` runs every script both ways."""

from __future__ import annotations

import contextlib
import copy
import functools
import importlib.util
import inspect
import io
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import np2ref
from conftest import on_tpu, run_cli
from test_whole_scripts6 import NUMBER, _code, _compare, _numpy, _run, same_text


def same_float32_text(got: str, want: str) -> bool:
    """The same words and integers; numbers with a point or exponent to 1e-6 relative (float32
    arithmetic: XLA's FMA contraction and summation order, docs/semantics.md "Floating point");
    array column widths may differ."""
    if "".join(NUMBER.sub("#", got).split()) != "".join(NUMBER.sub("#", want).split()):
        return False
    pairs = zip(NUMBER.findall(got), NUMBER.findall(want))
    return all(g == w or ("." in w or "e" in w) and abs(float(g) - float(w)) <= 1e-6 * abs(float(w)) for g, w in pairs)


def same_tpu_text(got: str, want: str, rtol: float) -> bool:
    """The same words and integers; numbers with a point or exponent to `rtol` relative or
    1e-14 absolute."""
    if "".join(NUMBER.sub("#", got).split()) != "".join(NUMBER.sub("#", want).split()):
        return False
    pairs = zip(NUMBER.findall(got), NUMBER.findall(want))
    return all(g == w or ("." in w or "e" in w) and np.isclose(float(g), float(w), rtol=rtol, atol=1e-14)
               for g, w in pairs)


class ScriptSuite:
    """The scripts of tests/third_party/<folder>/ with their expected outcomes."""

    def __init__(self, folder: str, convert: dict, compile: dict, *, left=None, default_convert=(),
                 default_compile=(), float32_prints=(), tpu_refused=(), tpu_aborts=None):
        self.here = Path(__file__).resolve().parent / folder
        self.folder, self.convert, self.compile, self.left = folder, convert, compile, left or {}
        self.default_convert, self.default_compile = set(default_convert), set(default_compile)
        self.float32_prints = set(float32_prints)
        # scripts whose float64 operations a TPU cannot compute to NumPy's answer (an LU's solve, a
        # sign read: docs/tpu.md): refused NPR302 there, by name, instead of run
        self.tpu_refused = set(tpu_refused)
        # keys whose program the TPU's XLA compiler aborts on (a failed check inside XLA kills the
        # process: no error to refuse by): skipped there, each with its bisection
        self.tpu_aborts = tpu_aborts or {}
        assert self.default_convert <= set(convert) and self.default_compile <= set(compile)
        self.script = functools.cache(self._import)
        self.compiled = functools.cache(lambda stem, fn: np2ref.compile(getattr(self.script(stem), fn), host_below=0))

    def _param(self, key: str, default: bool):
        marks = [pytest.mark.xfail(reason=self.left[key], strict=True)] if key in self.left else []
        if key in self.tpu_aborts:
            marks.append(pytest.mark.skipif(on_tpu(), reason=self.tpu_aborts[key]))
        return pytest.param(key, marks=marks if default else [*marks, pytest.mark.long])

    def convert_params(self) -> list:
        return [self._param(f"convert:{s}", s in self.default_convert) for s in sorted(self.convert)]

    def compile_params(self) -> list:
        return [self._param(k, k in self.default_compile) for k in sorted(self.compile)]

    def _import(self, stem: str):
        """<folder>/<stem>.py imported once (np2ref.compile reads its source)."""
        name = f"np2ref_{self.folder}_{stem}"
        spec = importlib.util.spec_from_file_location(name, self.here / f"{stem}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
        return module

    def same(self, got: str, want: str, stem: str) -> bool:
        if same_text(got, want) or stem in self.float32_prints and same_float32_text(got, want):
            return True
        # a TPU's float64 is a float32 pair (48 bits: 1e-9 relative, 1e-14 absolute where a
        # printed residual cancels) and its float32 transcendentals are thousands of ulps from
        # NumPy's: the float32 policy's promise, 1e-4 relative (docs/tpu.md)
        return on_tpu() and same_tpu_text(got, want, 1e-4 if stem in self.float32_prints else 1e-9)

    def refused_here(self, stem: str, exc: Exception) -> bool:
        return on_tpu() and stem in self.tpu_refused and _code(exc) == "NPR302"

    def check_convert(self, key: str, tmp_path: Path):
        stem = key.split(":")[1]
        r = run_cli("convert", self.here / f"{stem}.py", "-o", tmp_path / f"{stem}_ref.py", cwd=tmp_path)
        expect = self.convert[stem]
        if r.returncode:
            assert expect in r.stdout + r.stderr and expect != "same", r.stdout + r.stderr
            return
        want = _run(self.here / f"{stem}.py")
        try:
            got = _run(tmp_path / f"{stem}_ref.py")
        except Exception as exc:  # a refusal when the converted script runs: errors are data
            if not _code(exc):
                raise
            assert _code(exc) == expect or self.refused_here(stem, exc), exc
            return
        assert expect == "same" and want and self.same(got, want, stem), (got, want)

    def check_compile(self, key: str):
        stem, check = key.split(":")
        module = self.script(stem)
        fn = getattr(module, check.split("#")[0])
        inputs = module.CHECKS[check]()
        args, kwargs = (inputs, {}) if isinstance(inputs, tuple) else ((), inputs)
        a0, k0 = copy.deepcopy((args, kwargs))
        a1, k1 = copy.deepcopy((args, kwargs))
        with contextlib.redirect_stdout(io.StringIO()) as shown:
            expected = fn(*a0, **k0)
        try:
            with contextlib.redirect_stdout(io.StringIO()) as printed, warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = self.compiled(stem, fn.__name__)(*a1, **k1)
        except Exception as exc:
            if not _code(exc):
                raise
            assert _code(exc) == self.compile[key] or self.refused_here(stem, exc), exc
            return
        assert self.compile[key] == "same", "translated where a refusal was expected"
        sig = inspect.signature(fn)
        _compare(fn, _numpy(expected), _numpy(got), sig.bind(*a0, **k0).arguments, sig.bind(*a1, **k1).arguments, key)
        assert self.same(printed.getvalue(), shown.getvalue(), stem)
