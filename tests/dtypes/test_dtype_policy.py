"""One dtype policy (np2ref/policy.py): checked when it is made, carried to the emitter, which
writes it into each `@npr_jit(...)` of a converted file (no text patched after emitting)."""

import ast

import pytest

from conftest import run_cli
from np2ref import config
from np2ref.emit.module import RUNTIME_MODULE
from np2ref.emit.standalone import STANDALONE_MODULE
from np2ref.pipeline import convert_source
from np2ref.policy import DtypePolicy

SOURCE = '''import numpy as np


def scale(u, a):
    u *= a


def total(x):
    return np.sum(x * 2.0)
'''


def _decorators(code):
    return [ast.unparse(d) for f in ast.parse(code).body if isinstance(f, ast.FunctionDef) for d in f.decorator_list]


@pytest.mark.parametrize("runtime", [RUNTIME_MODULE, STANDALONE_MODULE])
def test_the_emitter_writes_the_policy_into_each_entry(runtime):
    result = convert_source(SOURCE, "m.py")
    assert _decorators(result.code_for(runtime)) == ["npr_jit(mutated=('u',), rebound=('u',))", "npr_jit"]
    assert _decorators(result.code_for(runtime, DtypePolicy("float32"))) == [
        "npr_jit(mutated=('u',), rebound=('u',), dtype_policy='float32')", "npr_jit(dtype_policy='float32')"]


def test_a_converted_file_converted_again_keeps_one_policy_keyword(tmp_path):
    """The policy replaces the keyword a converted file's decorator has: the text patch added a
    second `dtype_policy=`, a SyntaxError."""
    (tmp_path / "pyproject.toml").write_text('[tool.np2ref]\ndtype_policy = "float32"\n')
    (tmp_path / "m.py").write_text(SOURCE)
    assert run_cli("convert", "m.py", "-o", "m_out.py", cwd=tmp_path).returncode == 0
    again = run_cli("convert", "m_out.py", "--stdout", cwd=tmp_path)
    assert _decorators(again.stdout) == ["npr_jit(mutated=('u',), rebound=('u',), dtype_policy='float32')",
                                         "npr_jit(dtype_policy='float32')"]


def test_partial_output_gets_the_policy(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.np2ref]\ndtype_policy = "float32"\n')
    (tmp_path / "m.py").write_text(SOURCE + "\n\ndef refused(u):\n    for i in range(3):\n        del u\n")
    r = run_cli("convert", "m.py", "--partial", "--stdout", cwd=tmp_path)
    assert "--partial m.py: 2 function(s) converted" in r.stderr
    assert _decorators(r.stdout) == ["npr_jit(mutated=('u',), rebound=('u',), dtype_policy='float32')",
                                     "npr_jit(dtype_policy='float32')"], r.stdout


def test_a_policy_is_checked_where_it_is_made():
    assert DtypePolicy.of(DtypePolicy("float32")) == DtypePolicy("float32")
    with pytest.raises(ValueError, match=r"dtype_policy must be 'preserve' or 'float32', not 'float64'"):
        DtypePolicy.of("float64")
    assert (DtypePolicy().rtol, DtypePolicy("float32").rtol) == (None, 1e-4)


def test_the_config_holds_a_policy(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.np2ref]\ndtype_policy = "float32"\n')
    assert config.find(tmp_path).dtype_policy == DtypePolicy("float32")
    (tmp_path / "pyproject.toml").write_text('[tool.np2ref]\ndtype_policy = 32\n')
    with pytest.raises(config.ConfigError, match="dtype_policy must be one of preserve, float32, not 32"):
        config.find(tmp_path)
