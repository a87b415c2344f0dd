"""Sequential element loops (issues 38 and 39): the Pallas kernel of `loops="pallas"`
(rewrite/pallas_loops.py, rt/pallas.py; interpret mode on this CPU) against NumPy, results and
every mutated argument bit for bit (bitwise=True: XLA rounds as NumPy does); the nests it refuses,
with the reason in explain(); and the XLA loop of Cholesky without a copy of A per step."""

import re
import sys
from pathlib import Path

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, on_tpu

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import seq_kernels as K  # noqa: E402


def _run_both(fn, args, **options):
    """(NumPy's arguments after fn, np2ref's, the Compiled) on copies of args."""
    comp = np2ref.compile(fn, loops="pallas", host_below=0, bitwise=True, **options)
    ref = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    out_ref, out_got = fn(*ref), comp(*got)
    assert (out_ref is None) == (out_got is None)
    return ref, got, comp


@pytest.mark.parametrize("name", K.SCALAR)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kernel_equals_numpy_bit_for_bit(name, dtype):
    args = K.inputs(name, 7, dtype)
    ref, got, comp = _run_both(getattr(K, name), args)
    compared = 0
    for a, b in zip(ref, got):
        if isinstance(a, np.ndarray):
            assert_numpys_bits(b, a)
            compared += 1
    assert compared
    if on_tpu() and dtype == np.float64:  # Mosaic has no float64: the lax loop, and explain() says why
        assert "the lax loop: `" in comp.explain() and "not float32" in comp.explain()
    else:
        assert "one Pallas kernel" in comp.explain()
    assert "npr_pallas(" in comp.source


def _wrap_read(x, y):
    n = x.shape[0]
    for i in range(n):
        x[i] = x[i - 1] * 0.5 + y[i]  # x[-1] at i = 0: NumPy's last element


def _out_of_range(x):
    n = x.shape[0]
    for i in range(n):
        x[i + 1] = x[i] * 0.5  # IndexError at the last i


def _python_start(x, out):
    n = x.shape[0]
    for i in range(n):
        s = 0.0  # a Python float until it meets x: NumPy changes its type in the first trip
        for j in range(i + 1):
            s += x[j]
        x[i] = s * 0.5 + out[i]


def test_negative_index_counts_from_the_end():
    x, y = np.arange(1.0, 6.0, dtype=np.float32), np.ones(5, np.float32)  # Mosaic's dtype: a kernel on a TPU too
    ref, got, comp = _run_both(_wrap_read, (x, y))
    np.testing.assert_array_equal(got[0], ref[0])
    assert "one Pallas kernel" in comp.explain()


def test_index_out_of_range_raises_numpys_error():
    with pytest.raises(IndexError):
        _out_of_range(np.ones(4))
    comp = np2ref.compile(_out_of_range, loops="pallas", host_below=0)
    x = np.ones(4)
    with pytest.raises(IndexError):
        comp(x)


def test_python_number_carried_runs_the_lax_loop():
    x, out = np.arange(1.0, 6.0, dtype=np.float32), np.zeros(5, np.float32)
    ref, got, comp = _run_both(_python_start, (x, out))
    np.testing.assert_array_equal(got[0], ref[0])
    assert "the lax loop: a scalar carried through a loop starts as a Python number" in comp.explain()


def test_row_forms_are_refused_with_a_reason():
    ref, got, comp = _run_both(K.cholesky, K.inputs("cholesky", 6))
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-12)
    assert re.search(r"not a Pallas kernel: an expression the kernel does not hold: `A\[i, :j\] @ A\[j, :j\]`",
                     comp.explain())
    assert "npr_pallas(" not in comp.source


def test_default_is_unchanged():
    comp = np2ref.compile(K.cholesky_scalar)
    assert "npr_pallas" not in comp.source and "Pallas" not in comp.explain()
    with pytest.raises(ValueError):
        np2ref.compile(K.cholesky_scalar, loops="mosaic")


def test_cholesky_step_copies_no_array():
    """`A[i, j] -= ...; A[i, j] /= A[j, j]`: A[j, j] is read from before the first store (or is
    its value where i == j), and `A[i, i] = np.sqrt(A[i, i])` reads the value the store before
    put (a read into a store of the same array, marked by the translator: rewrite/rules/store_reads.py), so XLA
    updates A in place: no f64[n, n] copy in a loop body (main at e4ac5b4 made four per step,
    225fcb7 two, reading A[i, i] back from the array)."""
    comp = np2ref.compile(K.cholesky, host_below=0)
    (A,) = K.inputs("cholesky", 8)
    with jax.enable_x64(True):
        text = jax.jit(comp.pure).lower(A).compile().as_text()
    bodies = set(re.findall(r"body=%?([\w.\-]+)", text))
    current, copies = None, 0
    for line in text.splitlines():
        head = re.match(r"^%?([\w.\-]+) .*\{$", line)
        if head:
            current = head.group(1)
        elif current in bodies and re.search(r"= f64\[8,8\]\{[\d,]*\} copy\(", line):
            copies += 1
    assert bodies and copies == 0
    ref, got = A.copy(), A.copy()
    K.cholesky(ref)
    comp(got)
    np.testing.assert_allclose(got, ref, rtol=1e-13)


@pytest.mark.parametrize("name", K.SCALAR)
def test_lax_loop_equals_numpy_bit_for_bit(name):
    """The lax loop itself (no copy of A per step since issue 39's sequential round, so XLA
    fuses the element arithmetic): NumPy's bits where XLA is told to round as NumPy does."""
    args = K.inputs(name, 7, np.float64)
    comp = np2ref.compile(getattr(K, name), host_below=0, bitwise=True)
    ref = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    getattr(K, name)(*ref)
    comp(*got)
    for a, b in zip(ref, got):
        if isinstance(a, np.ndarray):
            assert_numpys_bits(b, a)


def test_kernel_lowers_for_a_tpu(monkeypatch):
    """The kernel as Mosaic would get it (float32, SMEM, scalar loads and stores): lowered for
    the TPU by jax.export on this CPU (no chip needed for the lowering itself)."""
    import np2ref.rt.pallas as P
    monkeypatch.setattr(P, "_npr_interpret", lambda: False)
    monkeypatch.setattr(P, "_npr_smem_bytes", lambda: 1 << 20)
    (A,) = K.inputs("cholesky_scalar", 8, np.float32)
    comp = np2ref.compile(K.cholesky_scalar, host_below=0, loops="pallas")
    with jax.enable_x64(True):
        exported = jax.export.export(jax.jit(comp.pure), platforms=["tpu"])(jax.numpy.asarray(A))
    assert "tpu_custom_call" in exported.mlir_module()


def test_grad_and_vmap_run_the_lax_loop():
    """Differentiated or batched, the nest runs as the lax loop (the kernel has no rule for
    either): the same values as the loop, and explain() says why."""
    x = np.arange(1.0, 6.0)
    y = np.linspace(0.5, 1.5, 5)
    comp = np2ref.compile(_wrap_read, loops="pallas", host_below=0)
    plain = np2ref.compile(_wrap_read, host_below=0)
    with jax.enable_x64(True):
        # jitted: run eagerly, each operation is compiled on its own (docs/ci.md)
        g = jax.jit(jax.grad(lambda v: comp.pure(v, y)[1]["x"].sum()))(x)
        g0 = jax.jit(jax.grad(lambda v: plain.pure(v, y)[1]["x"].sum()))(x)
        b = jax.jit(jax.vmap(lambda v: comp.pure(v, y)[1]["x"]))(np.stack([x, 2 * x]))
    np.testing.assert_array_equal(g, g0)
    ref = x.copy(), 2 * x
    for row, start in zip(b, ref):
        want = np.array(start, dtype=float)
        _wrap_read(want, y.copy())
        np.testing.assert_array_equal(row, want)
    assert "differentiated or batched" in comp.explain()
