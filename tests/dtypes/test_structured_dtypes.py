"""Structured dtypes are refused where they are written (issue 37 case 4, NPR025).

`Z = np.zeros(n, [('U', float), ('V', float)]); U = Z['U']; U += 1`: `check` reported nothing,
the compiled call failed with jax.numpy's TypeError naming no line, and `convert` wrote a copy
where NumPy's field read is a view. JAX arrays have no fields: NPR025 at the dtype's line."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
from conftest import load_module, run_cli

import np2ref

SOURCE = '''
import numpy as np

DT = [('U', float), ('V', float)]


def fields(n):
    Z = np.zeros(n, [('U', float), ('V', float)])
    U = Z['U']
    U += 1
    return Z


def named(n):
    dt = [('a', np.float64), ('b', np.int64)]
    s = np.empty(n, dtype=dt)
    s['a'] = 1.5
    return s['a'] * 2


def dtype_object(n):
    Z = np.ones(n, dtype=np.dtype('f8,i8'))
    return Z['f0']


def plain(n, x):
    d = {'names': x}
    z = np.zeros(n, dtype='f8') + d['names']
    return z + np.array([1, 2], 'f8').sum() + x.astype('float32')


def module_level(n):
    Z = np.zeros(n, DT)
    return Z['U'] + 1
'''
REFUSED = {"fields": 8, "named": 16, "dtype_object": 22}


def test_check_names_each_structured_dtype_line(tmp_path):
    (tmp_path / "records.py").write_text(textwrap.dedent(SOURCE))
    done = run_cli("check", "records.py", cwd=tmp_path)
    assert done.returncode == 1
    lines = sorted(int(line.split(":")[1]) for line in done.stdout.splitlines() if " NPR025 " in line)
    assert lines == sorted(REFUSED.values()), done.stdout
    assert not (tmp_path / "records_ref.py").exists()
    converted = run_cli("convert", "records.py", "-o", "records_ref.py", cwd=tmp_path)
    assert converted.returncode == 1 and not (tmp_path / "records_ref.py").exists()


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("records"))


@pytest.mark.parametrize("name", REFUSED)
def test_compile_refuses_with_the_line(module, name):
    fn = getattr(module, name)
    fn(3)  # NumPy runs it
    with pytest.raises(np2ref.Np2RefError) as caught:
        np2ref.compile(fn)
    assert [(d.code, d.line) for d in caught.value.diagnostics] == [("NPR025", REFUSED[name])]


def test_a_module_level_structured_dtype_is_refused_when_traced(module):
    """A dtype bound at module level is not seen where it is written: the trace meets it and
    says NPR025 at the line of the call, not jax.numpy's TypeError."""
    with pytest.raises(np2ref.Np2RefError) as caught:
        np2ref.compile(module.module_level, host_below=0)(3)
    line = module.module_level.__code__.co_firstlineno + 1
    assert [(d.code, d.line) for d in caught.value.diagnostics] == [("NPR025", line)]


def test_plain_dtypes_and_string_keys_still_translate(module):
    x = np.array([0.5, 1.5, 2.5])
    expected = module.plain(3, x)
    got = np2ref.compile(module.plain, host_below=0)(3, x)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)


def test_explain_has_an_example():
    from np2ref.codes import explain

    text = explain("NPR025")
    assert "structured dtype" in text and "Z[:, 0]" in text
