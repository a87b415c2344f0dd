"""Every corpus/ program through np2ref.compile and through `convert`, against NumPy.

compile: the entry function on make_inputs("small"), comparing the result and the final state
of every array argument (fails closed). convert: the converted module imported as a module,
its entry called the same way. verify: `np2ref.verify` under vmap and grad on generated inputs
(jit on generated inputs comes with it where a program asks). A program marked
`# np2ref: expect-refused NPRxxx` must be refused with that code, so the gap stays visible and
counted; `# np2ref: verify vmap` (say) narrows the transforms where the others cannot apply, with
the reason beside it. Known translator bugs are strict xfails in XFAIL below: they flip to a
failure the day they are fixed.

convert runs every program (its translation, the translation of that output, the script's
`__main__` and the entry); compile, which translates the entry alone (`only=`) and costs another
compile a program, runs on COMPILE_DEFAULT (a program per kind of construct) in the default run
and on every program under `-m long` (`python -m pytest -m long tests/corpus`).
verify costs 2-30 s a program, so the default run verifies VERIFY_DEFAULT (one program per kind
of construct, kept cheap); `NP2REF_VERIFY_ALL=1 python -m pytest tests/corpus/test_corpus.py` verifies
every program (about 5 minutes on 2 cores).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import importlib.util
import io
import os
import re
import sys
import types
from pathlib import Path

import jax
import pytest

import np2ref
from np2ref.verify.harness import run as verify_run
from conftest import ROOT, assert_same_as_numpy, load_module, on_tpu

PROGRAMS = sorted((ROOT / "corpus").glob("*.py"))

# (stem, test) -> why it fails. Each is a translator bug (a wrong answer or a crash where a
# diagnostic was due); minimal reproducers are in the report that added them.
XFAIL: dict = {}

# verified in the default run: stencil + grad, masks + while, np.add.at + grad, one known gap
VERIFY_DEFAULT = {"bfs_frontier", "burgers1d", "coo_matvec", "heat3d_explicit", "implicit_diffusion_thomas",
                  "triangular_solves"}
VERIFY_ALL = os.environ.get("NP2REF_VERIFY_ALL") == "1"
# through np2ref.compile in the default run, a program per kind of construct: stencils in 1-3-D,
# masks and a while on data, np.add.at and scatters, recurrences and triangular loops, draws on
# the host, lattice rolls, setup helpers, closures, ternaries, convergence loops, pair loops,
# Monte Carlo, histograms, SciPy's banded solve, and a program that is refused (`-m long`: all)
COMPILE_DEFAULT = {"bfs_frontier", "burgers1d", "burgers_minmod_limiter", "cn_heat_banded", "coo_matvec",
                   "gray_scott_setup_helpers", "heat3d_explicit", "heat_closure_loop", "histogram_equalisation",
                   "implicit_diffusion_thomas", "ising_checkerboard_rng", "jacobi_tolerance", "lbm_d2q9",
                   "nbody_pair_loop", "pic_cic_deposit", "reactor_ternary_control", "sandpile_avalanches",
                   "slab_transport_mc", "string_damped_history", "triangular_solves"}


def _expected_refusal(text: str) -> str | None:
    m = re.search(r"#\s*np2ref:\s*expect-refused\s+(NPR\d+)", text)
    return m.group(1) if m else None


def _expected_compile_refusal(text: str) -> str | None:
    """A refusal by design, or on a TPU one the program's complex128 meets there (NPR302: XLA's
    TPU compiler aborts the process on complex128; `# np2ref: tpu-refused NPR302`)."""
    m = re.search(r"#\s*np2ref:\s*tpu-refused\s+(NPR\d+)", text)
    return _expected_refusal(text) or (m.group(1) if m and on_tpu() else None)


def _require_modules(text: str) -> None:
    """`# np2ref: requires scipy`: a program that calls a library np2ref maps (np2ref itself
    never imports it) is skipped where that library is not installed."""
    for m in re.finditer(r"#\s*np2ref:\s*requires\s+([\w.]+)", text):
        pytest.importorskip(m.group(1))
        if m.group(1) == "scipy" and jax.default_backend() != "cpu":
            pytest.skip("SciPy's LAPACK calls are translated on CPU only (NPR112 elsewhere)")


def _verify_transforms(text: str) -> tuple[str, ...]:
    m = re.search(r"#\s*np2ref:\s*verify\s+([a-z, ]+)", text)
    return tuple(t.strip() for t in m.group(1).split(",")) if m else ("vmap", "grad")


def _params(test: str):
    params = []
    for p in PROGRAMS:
        marks = [pytest.mark.xfail(reason=XFAIL[p.stem, test], strict=True)] if (p.stem, test) in XFAIL else []
        if test == "compile" and p.stem not in COMPILE_DEFAULT and not _expected_refusal(p.read_text()):
            marks.append(pytest.mark.long)
        params.append(pytest.param(p, id=p.stem, marks=marks))
    return params


def _import_path(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", _params("compile"))
def test_corpus_compile(path):
    text = path.read_text()
    _require_modules(text)
    refused = _expected_compile_refusal(text)
    if refused:
        module = _import_path(path, f"corpus_{path.stem}")
        with pytest.raises(np2ref.Np2RefError) as info:
            np2ref.compile(getattr(module, module.ENTRY))(**copy.deepcopy(module.make_inputs("small")))
        assert refused in str(info.value)
        return
    module, fn, compiled = _compiled(path)
    assert_same_as_numpy(fn, compiled, **module.make_inputs("small"))


@functools.cache
def _compiled(path: Path):
    """The program imported once, its entry and np2ref.compile of it: the compile test and
    verify share one translation (verify's transforms then trace its `.pure`)."""
    module = _import_path(path, f"corpus_{path.stem}")
    fn = getattr(module, module.ENTRY)
    return module, fn, np2ref.compile(fn)


@pytest.mark.parametrize("path", _params("convert"))
def test_corpus_convert(path, tmp_path):
    text = path.read_text()
    _require_modules(text)
    result = np2ref.convert_source(text, path.name)
    if _expected_refusal(text):
        assert not result.ok
        assert _expected_refusal(text) in {d.code for d in result.diagnostics}
        return
    assert result.ok, "\n".join(d.render(text) for d in result.diagnostics)
    again = np2ref.convert_source(result.code, path.name)  # the whole pipeline again, on its output
    assert again.ok and again.code == result.code
    out = tmp_path / f"{path.stem}_ref.py"
    out.write_text(result.code)
    original, printed = _run_script(path, f"corpus_orig_{path.stem}")
    converted, printed_converted = _run_script(out, f"corpus_conv_{path.stem}")
    _assert_same_output(printed, printed_converted)
    fn = getattr(original, original.ENTRY)
    assert_same_as_numpy(fn, getattr(converted, original.ENTRY), **original.make_inputs("small"))


def _run_script(path: Path, name: str):
    """(the module, what it printed) for the program run as a script: its `__main__` block
    runs, on make_inputs("small") instead of "large" (the same code, a fraction of the time;
    the compiled functions are then reused for the entry's comparison). Everything the driver
    calls runs: builders, the entry, printing (a converted builder once crashed only here)."""
    text = path.read_text()
    assert 'make_inputs("large")' in text, "a corpus program's __main__ block runs make_inputs(\"large\")"
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    module.__dict__["__name__"] = "__main__"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(text.replace('make_inputs("large")', 'make_inputs("small")'), str(path), "exec"),
             module.__dict__)
    module.__dict__["__name__"] = name
    return module, printed.getvalue()


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _assert_same_output(expected: str, got: str) -> None:
    """The same text, numbers equal to 1e-6 relative (1e-12 absolute: a defect that is zero in
    exact arithmetic prints as rounding noise, which differs with the order of a sum)."""
    assert expected.strip(), "the program printed nothing"
    assert _NUMBER.sub("#", got) == _NUMBER.sub("#", expected), f"printed\n{got}\nNumPy printed\n{expected}"
    for a, b in zip(_NUMBER.findall(expected), _NUMBER.findall(got)):
        assert abs(float(a) - float(b)) <= 1e-12 + 1e-6 * abs(float(a)), f"printed\n{got}\nNumPy printed\n{expected}"


@pytest.mark.parametrize("path", _params("verify"))
def test_corpus_verify(path):
    text = path.read_text()
    _require_modules(text)
    if _expected_refusal(text):
        pytest.skip("refused: nothing to verify")
    if not (VERIFY_ALL or path.stem in VERIFY_DEFAULT):
        pytest.skip("verified with NP2REF_VERIFY_ALL=1")
    module, _, compiled = _compiled(path)
    report = verify_run(compiled, (), module.make_inputs("small"),
                        transforms=_verify_transforms(text), examples=1, seed=0)
    assert report.ok, str(report)
