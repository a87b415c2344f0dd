"""Graph breaks (frontend/host_steps.py): a loop of a host function that holds a host call
(plotting, a method of a module-level object) stays a host loop whose array work between those
calls `convert` compiles as steps; the host calls run at their place, on the NumPy program's own
arrays. Each program runs as written and as converted: printed text identical, returned arrays
and every array an opaque object saw compared exactly (verify/compare.py's dtype tolerance)."""

from __future__ import annotations

import contextlib
import io
import textwrap

import numpy as np

import np2ref
from conftest import ROOT, load_module
from np2ref.verify.compare import first_difference


def _run(source: str, tmp_path, name: str, *args):
    module = load_module(source, tmp_path, name)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = module.main(*args)
    return out.getvalue(), result, module


def _both(source: str, tmp_path, tag: str, *args):
    """The conversion, and (stdout, result, module) of the original and of the converted program."""
    source = textwrap.dedent(source)
    converted = np2ref.convert_source(source, f"{tag}.py")
    assert converted.ok, [d.short() for d in converted.diagnostics]
    original = _run(source, tmp_path, f"hs_{tag}", *args)
    lifted = _run(converted.code, tmp_path, f"hs_{tag}_ref", *args)
    assert original[0] and _same_text(original[0], lifted[0])
    diff = first_difference(original[1], lifted[1])
    assert diff is None, diff
    return converted, original, lifted


def _same_text(a: str, b: str) -> bool:
    """The same printed text, but a float may differ in its last digits (XLA's rounding, as
    README's "Exact for floats" says): each token equal, or both floats within 1e-12."""
    def same(x, y):
        try:
            return x == y or np.isclose(float(x), float(y), rtol=1e-12, atol=0)
        except ValueError:
            return False
    ta, tb = (t.replace(",", " ").replace("[", " [ ").replace("]", " ] ").split() for t in (a, b))
    return len(ta) == len(tb) and a.count("\n") == b.count("\n") and all(map(same, ta, tb))


def _notes(converted) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in converted.diagnostics if d.code == "NPR036"]


def test_a_lattice_boltzmann_main_that_plots_has_its_time_step_compiled(tmp_path):
    source = (ROOT / "tests" / "programs" / "host_steps_lbm.py").read_text()
    converted, original, _ = _both(source, tmp_path, "lbm")
    code = converted.code
    assert "    for it in range(Nt):\n        print(it)\n        F, ux, uy = _main_step_34(F, NL, cxs, cylinder, cys, tau, weights)\n" in code
    assert "                plt.imshow(vorticity, cmap='bwr')\n" in code  # the plotting stays host code
    notes = _notes(converted)
    assert notes[0] == (32, "the loop of main() stays a host loop with compiled steps (lines 34-47 as _main_step_34()): "
                        "6 host round trips per pass, which dominate a loop of small array work")
    assert [line for line, _ in notes] == [32, 32, 33, 48, 55, 56]
    assert notes[4][1].startswith("line 55 stays host code between compiled steps: it reads module-level `plt`")
    assert notes[2][1] == ("line 33 stays host code between compiled steps: it reads `it`, a Python int that changes "
                           "on each pass (compiled, once per value)")
    assert original[0].count("\n") == 30 + 3 + 1  # each step, 3 energies, the total


OBSERVED = """
import numpy as np


class Recorder:
    '''An opaque object holding the program's arrays: np2ref cannot see into its methods.'''
    def __init__(self):
        self.held, self.seen = None, []

    def watch(self, a):
        self.held = a

    def flush(self):
        self.seen.append(float(self.held.sum()))

    def noise(self, n):
        return np.linspace(0.0, 1.0, n) ** 2


bench = Recorder()


def main():
    np.random.seed(1)
    u = np.random.rand(32)
    alias = u
    bench.watch(u)
    k = 0
    for t in range(40):
        u[1:-1] += 0.1 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        v = u * 2.0
        bench.flush()
        extra = bench.noise(32)
        u += 0.01 * extra
        u[0] = v[1] + k
        k += 1
    print(bench.seen[-1], len(bench.seen), alias is u)
    return u, np.array(bench.seen)
"""


def test_an_opaque_object_that_holds_the_array_sees_each_step(tmp_path):
    converted, original, lifted = _both(OBSERVED, tmp_path, "observed")
    code = converted.code
    # the object reads the very array the steps write back into; its result flows into the next step
    assert "        v = _main_step_30(u)\n        bench.flush()\n        extra = bench.noise(32)\n" in code
    assert "        u = _main_step_34(extra, u)\n        u[0] = v[1] + k\n        k += 1\n" in code
    seen, got = np.array(original[2].bench.seen), np.array(lifted[2].bench.seen)
    assert len(seen) == 40 and np.allclose(seen, got, rtol=1e-12, atol=0)  # a stale copy would drift
    notes = _notes(converted)
    assert (35, "line 35 stays host code between compiled steps: it reads `k`, a Python int that changes on each "
            "pass (compiled, once per value)") in notes


def test_a_module_level_gray_scott_loop_with_a_history_list_and_plots(tmp_path):
    source = (ROOT / "tests" / "programs" / "host_steps_gray_scott.py").read_text()
    converted = np2ref.convert_source(source, "gs.py")
    assert converted.ok
    code = converted.code
    assert "for it in range(120):\n    U, V = _module_step_24(Du, Dv, F, U, V, k)\n    if it % 40 == 0:\n" in code
    assert code.index("def _module_step_24") < code.index("for it in range(120):")
    outputs = []
    for name, text in (("hs_gs", source), ("hs_gs_ref", code)):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            module = load_module(text, tmp_path, name)
        outputs.append((out.getvalue(), module))
    (printed, original), (printed_ref, lifted) = outputs
    assert printed.count("\n") == 4 and _same_text(printed, printed_ref)
    for name in ("U", "V", "history"):
        assert np.allclose(getattr(original, name), getattr(lifted, name), rtol=1e-12, atol=0), name
    assert type(lifted.U) is np.ndarray and lifted.U.dtype == np.float64
    assert [line for line, _ in _notes(converted)] == [23, 23, 30, 31, 32]


def test_the_report_counts_a_host_main_with_compiled_steps_half_ready():
    from np2ref.report import collect, terminal
    text = (ROOT / "tests" / "programs" / "host_steps_lbm.py").read_text()
    report = collect.Report([collect.collect_source(text, "lbm.py")])
    main = report.files[0].functions[0]
    assert (main.name, main.status, main.compiled) == ("main", collect.HOST, ("_main_step_34",))
    assert report.ready == 50.0
    assert "  lbm.py: main() compiles _main_step_34" in terminal.render(report)


KERNEL = """
import numpy as np
from hs_helpers import flush


def kernel(A, B, n):
    for t in range(n):
        A[1:-1] = 0.33 * (B[:-2] + B[1:-1] + B[2:])
        flush(A)
        B[1:-1] = 0.33 * (A[:-2] + A[1:-1] + A[2:])
    return A


def main():
    A = np.linspace(0.0, 1.0, 50) ** 2
    B = A.copy()
    kernel(A, B, 30)
    print(A.sum(), B.sum())
    return A, B
"""


def test_a_kernel_whose_one_problem_is_a_helper_of_another_module(tmp_path, monkeypatch):
    # the helper reads the array each step wrote back: it sees what NumPy's loop gives it
    (tmp_path / "hs_helpers.py").write_text("seen = []\n\n\ndef flush(a):\n    seen.append(float(a[25]))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import hs_helpers
    converted, _, _ = _both(KERNEL, tmp_path, "kernel")
    assert "    for t in range(n):\n        _kernel_step_8(A, B)\n        flush(A)\n        _kernel_step_10(A, B)\n" \
        in converted.code
    assert len(hs_helpers.seen) == 60 and np.allclose(hs_helpers.seen[:30], hs_helpers.seen[30:], rtol=1e-12, atol=0)
    assert (9, "line 9 stays host code between compiled steps: it calls flush() from hs_helpers") in _notes(converted)


BREAKS = """
import numpy as np


class Shower:
    def show(self, a):
        print(round(float(a[3]), 9))


obj = Shower()


def main():
    u = np.linspace(0.0, 1.0, 8)
    for t in range(100):
        u[1:] += 0.1 * u[:-1]
        if u.max() > 5.0:
            break
        obj.show(u)
        u *= 0.99
    print(u.sum())
    return u
"""


def test_a_break_of_the_host_loop_stays_in_the_host_loop(tmp_path):
    converted, original, _ = _both(BREAKS, tmp_path, "breaks")
    assert "        _main_step_16(u)\n        if u.max() > 5.0:\n            break\n        obj.show(u)\n" in converted.code
    assert 5 < original[0].count("\n") < 100  # it broke out early
