"""Two threads calling one compiled function whose `while` on data appends to a history: each
call's chunks (rt/histories.py) are its own. On main the chunks were kept by the list's slot alone,
fixed when the program was traced, and a call took the last chunks of that slot: two calls at once
took each other's rows."""

import threading

import jax
import numpy as np

import np2ref
from np2ref.rt import histories


def shrink(x, factor, tol):
    sizes = []
    while np.abs(x).max() > tol:
        x *= factor
        sizes.append(np.abs(x).max())
    return x, sizes


def _same(got, want):
    """NumPy's rows and array bit for bit; on a TPU (a float32 pair, docs/tpu.md) to 1e-12."""
    if len(got[1]) != len(want[1]):
        return False
    if jax.default_backend() == "tpu":
        return np.allclose(got[1], want[1], rtol=1e-12, atol=0) and np.allclose(got[0], want[0], rtol=1e-12, atol=0)
    return got[1] == want[1] and got[0].tobytes() == want[0].tobytes()


def test_two_threads_keep_their_own_chunks(monkeypatch):
    monkeypatch.setattr(histories, "NPR_HISTORY_ROWS", 4)
    compiled = np2ref.compile(shrink, host_below=0, bitwise=True)
    inputs = [(np.linspace(-3.0, 5.0, 7), 0.97, 1e-6), (np.linspace(1.0, 2.0, 7), 0.95, 1e-9)]
    want = [shrink(x.copy(), f, t) for x, f, t in inputs]
    compiled(inputs[0][0].copy(), *inputs[0][1:])  # (compiled once, before the threads)
    got, wrong = {}, []
    start = threading.Barrier(2)

    def calls(j):
        x, f, t = inputs[j]
        start.wait()
        for _ in range(15):
            out = compiled(x.copy(), f, t)
            if not _same(out, want[j]):
                wrong.append((j, len(out[1]), len(want[j][1])))
        got[j] = out
    threads = [threading.Thread(target=calls, args=(j,)) for j in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not wrong, wrong[:3]
    assert set(got) == {0, 1}
