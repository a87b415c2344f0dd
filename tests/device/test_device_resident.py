"""Keeping data on the device (issue 38, item 4): the guide's examples run and compute NumPy's
loop; a call whose arrays are jax.Arrays never takes the host route, whatever the backend; NumPy
arrays on an accelerator pay their transfers in the route's estimate (both ways for a written
one); benchmarks/device_kernels.py runs at a tiny size. The accelerator is faked (the backend
the route decision asks for answered "tpu": CI has none), and the decision is made on the host."""

from __future__ import annotations

import re

import jax
import numpy as np
import pytest

import np2ref
from conftest import ROOT, load_module, numpys_values, on_tpu
from np2ref.runtime import routes

GUIDE = ROOT / "docs" / "guide.md"


def _section_blocks(title):
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"### {title}\n")
    end = text.index("\n## ", start)
    return re.findall(r"```python\n(.*?)```", text[start:end], re.S)


@pytest.fixture(scope="module")
def guide_examples(tmp_path_factory):
    blocks = _section_blocks("Keeping data on the device")
    assert len(blocks) == 3, "the section's three examples: .device, jax.jit(.pure) with donation, fori_loop"
    return load_module("\n".join(blocks), tmp_path_factory.mktemp("guide"), "guide_device_examples")


def test_the_guides_device_loops_compute_numpys_loop(guide_examples):
    m = guide_examples
    u = m.u0.copy()
    for _ in range(100):
        m.jacobi_step(u, 0.001)
    for name in ("u_host", "u_pure", "u_loop"):
        got = getattr(m, name)
        assert isinstance(got, np.ndarray) and got.dtype == np.float64, name
        rtol = 1e-12 if on_tpu() else 1e-13  # (a TPU's float64: 48 bits)
        np.testing.assert_allclose(got, u, rtol=rtol, atol=0, err_msg=name)
    assert m.step.mutated == ("u",)


def chain(x):
    return np.sqrt(np.abs((1.0 / (x + 2.0) + 1.0) * 2.0 - x)) + np.sin(x) * np.cos(x)


def axpy_(y, a, x):
    y += a * x


def test_jax_arrays_on_an_accelerator_never_take_the_host_route():
    compiled = np2ref.compile(chain, host_below=10 ** 9)  # every NumPy call a "small program": NumPy's
    x = np.linspace(0.1, 2.0, 300)
    calls = []
    original = compiled.original
    compiled.original = lambda *a: calls.append(1) or original(*a)
    compiled._device_kind = "tpu"  # the backend np2ref's route decision asks for (Compiled._platform)
    assert numpys_values(compiled(x), chain(x))  # a TPU's float64 is a float32 pair: 1e-13 there
    if on_tpu():  # the chip's float64 sin, cos, sqrt and division are programs of their own: past
        # HOST_EQUATIONS, so not "small"; the cost model then times both routes (a TPU, 2026-12-06)
        assert compiled.route(x) in ("host", "measuring")
        calls[:] = [1]  # (the measured first call may have been the jitted one)
    else:
        assert compiled.route(x) == "host" and calls == [1]
    with jax.enable_x64(True):
        on_device = jax.numpy.asarray(x)
    for call, kind in ((lambda: compiled(on_device), np.ndarray), (lambda: compiled.device(on_device)[0], jax.Array)):
        out = call()  # (the plain call: NumPy's result, as the NumPy program returns it)
        assert isinstance(out, kind) and out.dtype == np.float64
        np.testing.assert_allclose(np.asarray(out), chain(x), rtol=1e-12 if on_tpu() else 1e-14)
    assert calls == [1] and compiled.route(on_device) == "jit"
    assert "estimated (tpu)" in compiled.explain()


def test_a_written_numpy_array_pays_its_transfer_both_ways_on_an_accelerator():
    compiled = np2ref.compile(axpy_, host_below=0)
    y, x = np.ones(100_000), np.ones(100_000)
    jaxpr = compiled._entry.trace_numpy(y, 0.5, x).jaxpr
    numpy_cpu, jit_cpu = routes.estimate(jaxpr, [y, 0.5, x], [0])
    numpy_tpu, jit_tpu = routes.estimate(jaxpr, [y, 0.5, x], [0], platform="tpu")
    assert numpy_tpu == numpy_cpu
    moved = 3 * y.nbytes  # y and x in, y's final value out
    assert jit_tpu >= routes.ACCEL_CALL + moved / routes.LINK_BYTES_PER_US > jit_cpu


def test_device_kernels_benchmark_runs_at_a_tiny_size(capsys):
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import device_kernels

    assert device_kernels.main(["--only", "gemm", "--size", "S", "--calls", "1"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| gemm |")]
    assert len(rows) == 1 and rows[0].rstrip().endswith("| ok |"), out
    assert "device-resident np2ref / hand" in out
