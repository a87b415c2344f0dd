"""Code from outside the project that used to stop np2ref with a raw exception (issue 16):
each case is now translated exactly (compared with NumPy) or refused with a coded diagnostic."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import load_module
from np2ref.verify.compare import first_difference

SOURCE = '''
import numpy as np


def sequences(v, n):
    t = (1, 0, 1)
    w = v.copy()
    w[0] = 5
    return ((1, 0, 1) == v, v == (1, 0, 1), w == t, v * [2.5, 1, 0], v < [[1], [2]],
            v + [x * 2 for x in range(3)], w[0:3] != [5, 0, 0], [0] * n, (1, 2) == (1, 2))


def allocate(v, xp=np, dtype=np.float64, kind="copy", fn=None):
    a = xp.zeros(3, dtype=dtype)
    a[0] = v[0]
    if fn is not None:
        a[1] = fn(v[1])
    return a


class Scale:
    """Unhashable (it defines == without a hash): keyed by identity."""

    def __init__(self, k):
        self.k = k

    def __eq__(self, other):
        return True


def scaled(v, s, rng):
    return v * s.k


def bump(d):
    d["a"] += 1.0
    return d["a"].sum()


def bump_tuple(t):
    t[0][1] = 5.0


def local_writer(a, s):
    buf = np.zeros(3)
    buf[1] = s
    return a + buf


def param_writer(a, s):
    buf = np.zeros(3)
    buf[1] = s
    a += buf


def unpack_to_local_writer(u):
    args = (u, 2.0)
    return local_writer(*args)


def mismatched(a, n, m, b):
    return a[0:n] + a[1:m], a[:n] @ b


def wrap_periodic(d, L):
    d[d>L/2] = d[d > L/2] - L
    d[(d < -L / 2)] -= -(d[d<-L/2] * 0) - L  # parentheses and spacing differ from the target's
    return d
'''


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("raw"), "np2ref_raw_errors")


@functools.cache
def _compiled(fn):
    return np2ref.compile(fn)


def _same(expected, got):
    diff = first_difference(expected, got, "result")
    assert diff is None, diff


def test_sequences_in_operators_are_arrays_against_arrays(mod):
    """`(1, 0, 1) == v`: NumPy makes the tuple an array (np.asarray's dtype, int64 here, so an
    int32 or uint8 `v` computes in int64 and float32 in float64); JAX's operators raised
    TypeError. Between Python values the operator stays Python's (`[0] * n`)."""
    c = _compiled(mod.sequences)
    assert "npr_seq_op((1, 0, 1), '==', v)" in c.source and "(1, 2) == (1, 2)" in c.source
    for v in (np.array([1, 0, 2], np.int32), np.array([1.0, 0.0, 1.0], np.float32),
              np.array([1, 0, 1], np.uint8)):
        _same(mod.sequences(v, 2), c(v, 2))


def test_arguments_that_are_not_data_are_static(mod):
    """Modules, dtypes, types, strings, callables and None are static arguments (JAX raised
    "Error interpreting argument ... as an abstract array"); one trace per value."""
    c = _compiled(mod.allocate)
    v = np.array([1.5, -2.5, 3.0])
    for kw in (dict(xp=np), dict(dtype=np.int32), dict(dtype=np.dtype("f4")), dict(dtype=float),
               dict(kind="other"), dict(fn=abs), dict(dtype=np.int32, fn=abs)):
        _same(mod.allocate(v, **kw), c(v, **kw))
        _same(mod.allocate(v, **kw), c(v, **kw))  # the fast path (a plan per signature)
    with pytest.raises(np2ref.Np2RefError, match="NPR032"):  # a NumPy function called on traced data
        c(v, fn=np.negative)
    result, finals = c.pure(v, dtype=np.int32, fn=abs)
    _same(mod.allocate(v, dtype=np.int32, fn=abs), np.asarray(result))


def test_unhashable_and_generator_arguments_are_keyed_by_identity(mod):
    """Two objects that compare equal but are different objects never share a trace: each
    call sees its own object (a Generator is such an object too)."""
    c = _compiled(mod.scaled)
    v = np.arange(3.0)
    g1, g2 = np.random.default_rng(0), np.random.default_rng(0)
    for s, rng in ((mod.Scale(2.0), g1), (mod.Scale(3.0), g2), (mod.Scale(4.0), np.random.RandomState(0)),
                   (mod.Scale(5.0), None)):
        _same(mod.scaled(v, s, rng), c(v, s, rng))
        _same(mod.scaled(v, s, rng), c(v, s, rng))


def test_a_container_argument_that_is_written_is_refused_with_npr207(mod):
    """A dict or tuple of arrays the function writes into: NPR207 at call time (it was a raw
    TypeError from npr_at, or NPR032), before anything is written."""
    d = {"a": np.ones(3)}
    with pytest.raises(np2ref.Np2RefError, match=r"NPR207 .*writes into its argument `d`, a dict") as info:
        _compiled(mod.bump)(d)
    assert info.value.diagnostics[0].code == "NPR207"
    assert np.array_equal(d["a"], np.ones(3))
    with pytest.raises(np2ref.Np2RefError, match=r"NPR207 .*`t`, a tuple"):
        _compiled(mod.bump_tuple)((np.ones(3),))
    with pytest.raises(Exception, match="NPR207"):
        _compiled(mod.bump).pure(d)


@pytest.mark.parametrize("call", ["np.where(c)", "np.nonzero(c)", "np.argwhere(c)", "np.flatnonzero(c)"])
def test_data_dependent_shapes_are_refused_alike_at_conversion(call):
    """One-argument np.where was a bare NotImplementedError at trace time; now it and the
    nonzero family are NPR004 at conversion, at the call, with the same hint."""
    result = np2ref.convert_source(f"import numpy as np\n\ndef f(c):\n    return {call}\n", "k.py")
    (d,) = [d for d in result.diagnostics if d.is_error]
    assert (d.code, d.line, d.col) == ("NPR004", 4, 12)
    assert "output shape depends on the data" in d.message and "np.where(cond, x, y)" in d.hint


LATIN1 = ('# -*- coding: latin-1 -*-\nimport numpy as np\n\n\ndef shift(u):\n'
          '    # \xe9cart \xe0 la moyenne\n    u[1:] += 1.0\n    return "\xb5m"\n').encode("latin-1")


def test_a_latin1_source_is_read_as_python_reads_it(tmp_path):
    """A PEP 263 coding line: compile, convert (the output re-imports with the same text),
    check and the readiness report read it; it was a UnicodeDecodeError / NPR001."""
    import importlib.util
    import sys

    from np2ref.cli import main
    from np2ref.report.collect import collect

    path = tmp_path / "np2ref_latin1.py"
    path.write_bytes(LATIN1)
    spec = importlib.util.spec_from_file_location("np2ref_latin1", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["np2ref_latin1"] = module
    spec.loader.exec_module(module)
    u, v = np.zeros(3), np.zeros(3)
    assert np2ref.compile(module.shift)(u) == module.shift(v) == "\xb5m" and np.array_equal(u, v)
    assert np2ref.convert_file(str(path)).ok
    assert main(["check", str(path)]) == 0
    out = tmp_path / "np2ref_latin1_ref.py"
    assert main(["convert", str(path), "-o", str(out)]) == 0
    spec = importlib.util.spec_from_file_location("np2ref_latin1_ref", out)
    converted = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(converted)
    w = np.zeros(3)
    assert converted.shift(w) == "\xb5m" and np.array_equal(w, v)
    report = collect([str(path)])
    (f,) = report.files
    assert f.source is not None and "\xe9cart" in f.source and f.complete


def test_mask_stores_match_on_the_tree_not_the_text(mod):
    """`d[d>L/2] = d[d > L/2] - L` was refused (NPR107 at trace time) while the same line
    spaced like its twin translated: masks are compared by their syntax tree."""
    c = _compiled(mod.wrap_periodic)
    assert "npr_mask_store" in c.source
    d = np.array([0.1, 0.9, 0.6, 0.2, -0.7, -0.4])
    expected = mod.wrap_periodic(d.copy(), 1.0)
    got = d.copy()
    _same(expected, c(got, 1.0))
    _same(expected, got)


LOCAL_IMPORTS = '''
import numpy


def local_imports(v):
    import numpy as np
    import math
    from numpy import sqrt
    w = v.copy()
    w[0] = np.sum(v) + math.pi
    return sqrt(w)
'''


def test_imports_inside_a_function_name_their_modules(tmp_path):
    """`import numpy as np` in a body was NPR019 ("`numpy` is not defined anywhere") and NPR004."""
    mod = load_module(LOCAL_IMPORTS, tmp_path, "np2ref_local_imports")
    c = np2ref.compile(mod.local_imports)
    assert "jnp.sum(v)" in c.source and "npr_np_sqrt(" in c.source
    v = np.arange(3.0)
    _same(mod.local_imports(v), c(v))


def test_a_name_imported_as_two_modules_is_refused():
    result = np2ref.convert_source("import numpy as np\n\ndef f(u):\n    import math as np\n"
                                   "    return u * np.pi\n", "k.py")
    assert [(d.code, d.line) for d in result.diagnostics if d.is_error] == [("NPR024", 5)]


def test_npr208_names_parameters_only(mod):
    """NPR208 listed a helper's local arrays as its "parameters", and refused `f(*args)` for a
    helper that writes only its own locals."""
    c = _compiled(mod.unpack_to_local_writer)
    u = np.ones(3)
    _same(mod.unpack_to_local_writer(u.copy()), c(u))
    source = SOURCE + "\n\ndef unpack_to_param_writer(u):\n    args = (u, 2.0)\n    param_writer(*args)\n"
    (d,) = [d for d in np2ref.convert_source(source, "k.py").diagnostics if d.is_error]
    assert d.code == "NPR208" and "parameter(s) a:" in d.message and "buf" not in d.message


GAPS = '''
import numpy as np


def sign_of(v):
    for _ in range(1):  # a return inside a loop: the `if` stays Python's
        if v > 0:
            return v * 2.0
    return -v


def signs(x):
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        out[i] = sign_of(x[i])
    return out
'''


def test_a_converted_file_raises_the_coded_gap_not_jaxs_error():
    """A gap met while tracing (a Python `if` on array data in a helper) was JAX's raw
    TracerBoolConversionError from a converted file (np2ref.compile said NPR030): now npr_jit
    raises NprTraceGap with the code, from JAX's error, and np2ref.compile is as before."""
    from np2ref.rt import NprTraceGap
    converted = {}
    exec(compile(np2ref.convert_source(GAPS, "gaps.py").code, "gaps_ref.py", "exec"), converted)
    with pytest.raises(NprTraceGap, match="NPR030") as info:
        converted["signs"](np.array([1.0, -2.0]))
    assert type(info.value.__cause__).__name__ == "TracerBoolConversionError" and info.value.code == "NPR030"


def test_operands_whose_shapes_do_not_fit_raise_numpys_value_error(mod):
    """NumPy raises ValueError for operands that do not broadcast (or a product whose inner
    lengths differ); lax raised TypeError, which `except ValueError` in the caller missed."""
    c = np2ref.compile(mod.mismatched, host_below=0)
    a = np.arange(8.0)
    for n, m, b in ((3, 5, np.ones(3)), (3, 4, np.ones(4))):
        with pytest.raises(ValueError) as numpy_error:
            mod.mismatched(a, n, m, b)
        with pytest.raises(ValueError) as ours:
            c(a, n, m, b)
        assert not isinstance(ours.value, np2ref.Np2RefError)
        assert ("broadcast" in str(numpy_error.value)) == ("broadcast" in str(ours.value))
    _same(mod.mismatched(a, 3, 4, np.ones(3)), c(a, 3, 4, np.ones(3)))
