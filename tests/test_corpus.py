"""Every corpus/ program through np2ref.compile and through `convert`, against NumPy.

compile: the entry function on make_inputs("small"), comparing the result and the final state
of every array argument (fails closed). convert: the converted module imported as a module,
its entry called the same way. A program marked `# np2ref: expect-refused NPRxxx` must be
refused with that code, so the gap stays visible and counted.
"""

from __future__ import annotations

import copy
import importlib.util
import re
import sys
from pathlib import Path

import pytest

import np2ref
from conftest import ROOT, assert_same_as_numpy, load_module

PROGRAMS = sorted((ROOT / "corpus").glob("*.py"))


def _expected_refusal(text: str) -> str | None:
    m = re.search(r"#\s*np2ref:\s*expect-refused\s+(NPR\d+)", text)
    return m.group(1) if m else None


def _import_path(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_corpus_compile(path):
    text = path.read_text()
    refused = _expected_refusal(text)
    module = _import_path(path, f"corpus_{path.stem}")
    fn = getattr(module, module.ENTRY)
    if refused:
        with pytest.raises(np2ref.Np2RefError) as info:
            np2ref.compile(fn)(**copy.deepcopy(module.make_inputs("small")))
        assert refused in str(info.value)
        return
    compiled = np2ref.compile(fn)
    assert_same_as_numpy(fn, compiled, **module.make_inputs("small"))


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_corpus_convert(path, tmp_path):
    text = path.read_text()
    result = np2ref.convert_source(text, path.name)
    if _expected_refusal(text):
        assert not result.ok
        assert _expected_refusal(text) in {d.code for d in result.diagnostics}
        return
    assert result.ok, "\n".join(d.render(text) for d in result.diagnostics)
    out = tmp_path / f"{path.stem}_ref.py"
    out.write_text(result.code)
    original = _import_path(path, f"corpus_orig_{path.stem}")
    converted = _import_path(out, f"corpus_conv_{path.stem}")
    fn = getattr(original, original.ENTRY)
    assert_same_as_numpy(fn, getattr(converted, original.ENTRY), **original.make_inputs("small"))
