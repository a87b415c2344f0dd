"""Loops of host functions: `convert` lifts the top-level loops of a `main()` that stays NumPy
host code (it seeds, prints, reads files) into compiled module functions (frontend/host_loops.py),
so a script's time loop is compiled; loops whose lift would not be exact stay NumPy code.

Each program runs as written and as converted (the converted `main()` calls the compiled loop);
their printed output and returned values must agree: integers bit for bit, floats printed to
10 decimals or compared with the dtype's tolerance (verify/compare.py), as XLA rounds them."""

from __future__ import annotations

import contextlib
import io
import textwrap

import libcst as cst
import numpy as np
import pytest

import np2ref
from conftest import ROOT, load_module
from np2ref.frontend import host_loops
from np2ref.verify.compare import first_difference


def _run(source: str, tmp_path, name: str):
    module = load_module(source, tmp_path, name)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = module.main()
    return out.getvalue(), result


def _both(source: str, tmp_path, tag: str):
    """The conversion, and (stdout, result) of the original and of the converted program."""
    source = textwrap.dedent(source)
    converted = np2ref.convert_source(source, f"{tag}.py")
    assert converted.ok, [d.short() for d in converted.diagnostics]
    original = _run(source, tmp_path, f"hl_{tag}")
    lifted = _run(converted.code, tmp_path, f"hl_{tag}_ref")
    assert original[0] == lifted[0] and original[0]
    diff = first_difference(original[1], lifted[1])
    assert diff is None, diff
    return converted.code


STENCIL = """
import numpy as np


def main():
    np.random.seed(42)
    n = 64
    nt = 300
    alpha = 0.1
    u = np.random.rand(n)
    energy = 0.0
    for t in range(nt):
        u[1:-1] += alpha * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        energy += float((u ** 2).sum())
    print(f"{u.sum():.10f} {energy:.10f}")
"""


def test_a_seeded_main_has_its_stencil_loop_compiled(tmp_path):
    code = _both(STENCIL, tmp_path, "stencil")
    # the def is hoisted before main(), the call stands where the loop stood
    assert "@npr_jit(mutated=('energy', 'u'), rebound=('energy',))\ndef _main_loop_12(alpha, energy, nt, u):" in code
    assert code.index("def _main_loop_12") < code.index("def main():")
    assert "    energy = _main_loop_12(alpha, energy, nt, u)\n    print(" in code
    assert "npr_for(npr_range(nt), _loop_t, energy)" in code  # the time loop is a lax loop


def test_a_lattice_boltzmann_main_has_its_time_loop_compiled(tmp_path):
    code = _both((ROOT / "tests" / "programs" / "host_main_lbm.py").read_text(), tmp_path, "lbm")
    # vorticity is first bound in the loop: range(Nt) with Nt = 12 runs, and binds it on every pass
    assert "    F, vorticity = _main_loop_30(F, Nt, cxs, cylinder, cys, idxs, tau, weights)\n" in code
    assert "    _main_loop_25(F, idxs, rho, rho0)\n" in code


def test_names_the_loop_binds_and_the_function_reads_after_are_returned(tmp_path):
    code = _both("""
        import numpy as np


        def main():
            np.random.seed(3)
            counts = np.random.randint(0, 9, size=12)
            k = 0
            total = 0
            while k < 20:
                counts[1:] += counts[:-1] % 7
                counts[0] -= 3
                total = total + int(counts.max())
                k += 1
            print(k, total, counts.tolist())
            return counts
    """, tmp_path, "returns")
    assert "k, total = _main_loop_10(counts, k, total)" in code
    assert "npr_while(_test_1, _body_1, total, k)" in code  # the while loop is a lax loop


def test_a_main_returning_the_array_its_loop_computes(tmp_path):
    code = _both("""
        import numpy as np


        def main(steps=25):
            rng_seed = 7
            np.random.seed(rng_seed)
            x = np.random.standard_normal((6, 5))
            y = np.zeros_like(x)
            for s in range(steps):
                y = 0.5 * y + np.roll(x, s % 3, axis=1)
                x[::2] *= 0.9
            print(x.shape, y.dtype)
            return y, x
    """, tmp_path, "returned")
    assert "y = _main_loop_10(steps, x, y)" in code


HOST_IN_LOOP = """
import sys
import numpy as np
G = np.zeros(3)


def kernel(u):
    u[1:] += u[:-1]


def main():
    np.random.seed(5)
    u = np.ones(8)
    for t in range(4):
        kernel(u)
        print(t, u.sum(), file=sys.stderr)
    for t in range(3):
        G[t] += u[t]
    for t in range(5):
        u[2:] -= 0.25 * u[:-2]
    print(u.tolist(), G.tolist())
"""


def test_loops_np2ref_refuses_or_finds_host_work_stay_numpy_and_the_rest_converts(tmp_path):
    code = _both(HOST_IN_LOOP, tmp_path, "refused")
    lifted = host_loops.find_host_lifts(cst.parse_module(HOST_IN_LOOP), {"main"})
    assert [lift.name for lift in lifted] == ["_main_loop_14", "_main_loop_17", "_main_loop_19"]
    # print to a file is host work; the store into the module-level G is refused (NPR202)
    assert "    for t in range(4):\n        kernel(u)\n        print(t, u.sum(), file=sys.stderr)" in code
    assert "    for t in range(3):\n        G[t] += u[t]\n" in code
    assert "_main_loop_14" not in code and "_main_loop_17" not in code
    assert "_main_loop_19(u)" in code and "@npr_jit(mutated=('u',))\ndef kernel(u):" in code


def test_a_loop_the_lifted_function_would_run_as_a_python_loop_stays_numpy(tmp_path):
    # a loop over an array (not a range) stays Python: jit would trace it one pass at a time.
    # (Over range(300), `u` rebound and written is a lax loop since rt/rebinds.py, and is lifted:
    # tests/host/test_driver.py::test_a_rebound_written_array_is_lifted_as_a_lax_loop.)
    text = textwrap.dedent("""
        import numpy as np


        def main():
            np.random.seed(0)
            u = np.random.rand(16)
            for t in np.arange(300):
                u = np.where(u > 0.5, u * 0.99, u + 0.001)
                u[0] = 0.0
            print(f"{u.sum():.10f}")
    """)
    assert [lift.name for lift in host_loops.find_host_lifts(cst.parse_module(text), {"main"})] == ["_main_loop_8"]
    result = np2ref.convert_source(text, "s.py")
    assert result.ok and "_main_loop_8" not in result.code and "NPR033" not in str(result.diagnostics)


@pytest.mark.parametrize("body, why", [
    ("    for t in range(3):\n        if t > 5:\n            u += late\n        u[0] += 1\n    late = 2.0\n",
     "reads `late`, assigned only after the loop (here it would read the module-level `late`)"),
    ("    if u[0] > 0:\n        scale = 2.0\n    for t in range(3):\n        if t > 5:\n            u *= scale\n"
     "        u[0] += 1\n",
     "`scale` is bound in one branch only: passing it would raise where the loop never reads it"),
    ("    for t in range(3):\n        u[0] += 1\n        f = lambda: u[0]\n",
     "a lambda in the loop closes over the host function's locals"),
    ("    total = 0.0\n    def peek():\n        return total\n    for t in range(3):\n        u[0] += 1\n"
     "        total = total + u[0]\n    print(peek())\n",
     "`total` is seen by the nested peek(): rebinding it in a lifted function would hide it"),
    ("    global late\n    for t in range(3):\n        u[0] += 1\n        late = u[0]\n",
     "`late` is declared global: bound in the lifted function it would be a local"),
    ("    for t in range(3):\n        u[0] += 1\n        if u[0] > 2:\n            return u\n",
     "a return in the loop returns from the host function"),
    ("    for t in range(3):\n        u[0] += 1\n        if u[0] > 2:\n            continue\n        w = u * 2\n"
     "    print(w)\n", "a `continue` may skip the binding on every pass"),
    ("    for t in range(3):\n        u[0] += 1\n        if u[0] > 2:\n            w = u * 2\n    print(w)\n",
     "w is bound in one branch only"),
    ("    v = u[1:]\n    for t in range(3):\n        u[0] += 1\n        v[1] += u[0]\n",
     "u and v share memory"),
    ("    k = 1.0\n    g = (k * x for x in range(3))\n    for t in range(3):\n        u[0] += 1\n        k = u[0]\n"
     "    print(sum(g))\n", "the generator expression reads `k` when consumed, after the loop rebinds it"),
    ("    for t in range(3):\n        u[0] += len(locals())\n", "locals() would see the lifted function's frame"),
    ("    late: float\n    for t in range(3):\n        u[0] += 1\n        if t > 5:\n            u[1] += late\n",
     "`late` is a local of main() (annotated, never bound): the lifted function would read the global"),
    ("    import numpy\n    for t in range(3):\n        u[0] += numpy.sum(u)\n",
     "a module imported in the host function would be passed to the compiled call"),
])
def test_loops_of_host_functions_that_stay_numpy(body, why):
    text = f"import numpy as np\nlate = 1.0\n\n\ndef main(u):\n    np.random.seed(0)\n{body}"
    assert host_loops.find_host_lifts(cst.parse_module(text), {"main"}) == [], why


@pytest.mark.parametrize("body, guard", [
    ("    for t in range(len(u)):\n        u[0] += 1\n        w = u * 2\n    print(w)\n", "range(len(u))"),
    ("    n = 0\n    for t in range(n):\n        u[0] += 1\n        w = u * 2\n    print(w)\n", "range(n)"),
    ("    n = 3\n    n = 4\n    for t in range(n):\n        u[0] += 1\n        w = u * 2\n    print(w)\n", "range(n)"),
])
def test_a_loop_that_may_make_no_trip_is_called_where_it_makes_one(body, guard):
    """w first bound in the loop and read after it, which may make no trip (before session 14 the
    loop stayed NumPy): the call is made only where the range is not empty (frontend/lift_guard.py;
    tests/script_breaks/test_body_names_after.py runs such loops against NumPy)."""
    text = f"import numpy as np\nlate = 1.0\n\n\ndef main(u):\n    np.random.seed(0)\n{body}"
    assert [(lift.guard, lift.returns) for lift in host_loops.find_host_lifts(cst.parse_module(text), {"main"})] == [
        (guard, ("w",))]


def test_a_loop_that_certainly_runs_returns_what_it_binds_on_every_pass():
    text = ("import numpy as np\n\n\ndef main(u):\n    np.random.seed(0)\n    NT = 4\n\n"
            "    for t in range(1, NT, 2):\n        u[0] += 1\n        w = u * 2\n    print(w, t)\n")
    lifts = host_loops.find_host_lifts(cst.parse_module(text), {"main"})
    assert [(lift.name, lift.params, lift.returns) for lift in lifts] == [("_main_loop_8", ("NT", "u"), ("t", "w"))]


def test_an_inner_loop_target_is_no_parameter_and_an_earlier_loop_binds_nothing_for_sure():
    text = ("import numpy as np\n\n\ndef main():\n    np.random.seed(0)\n    u = np.ones((3, 4))\n"
            "    for i in range(3):\n        u[i] *= 2\n    for t in range(5):\n        for i in range(3):\n"
            "            u[i] += t\n    print(u)\n")
    lifts = host_loops.find_host_lifts(cst.parse_module(text), {"main"})
    assert [(lift.name, lift.params, lift.returns) for lift in lifts] == [
        ("_main_loop_7", ("u",), ()), ("_main_loop_9", ("u",), ())]


def test_not_a_host_function_nothing_is_lifted():
    assert host_loops.find_host_lifts(cst.parse_module(STENCIL), set()) == []
    result = np2ref.convert_source(STENCIL.replace("np.random.seed(42)", "pass").replace(
        "u = np.random.rand(n)", "u = np.linspace(0, 1, n)").replace("print(", "return ("), "s.py")
    assert result.ok and "_main_loop_" not in result.code and "def main():" in result.code


def test_diagnostics_of_a_lifted_loop_keep_the_users_lines():
    text = textwrap.dedent(STENCIL) + "\n\ndef noisy(x):\n    x[0] = 1.0\n    print(x, file=sys.stderr)\n"
    result = np2ref.convert_source(text, "s.py")
    assert "_main_loop_12" in result.code and result.source == text
    note = [d for d in result.diagnostics if d.code == "NPR021" and d.message.startswith("noisy()")]
    assert [(d.line, d.col) for d in note] == [(len(text.splitlines()), 5)]
    main = [d for d in result.diagnostics if d.code == "NPR021" and d.message.startswith("main()")]
    assert [(d.line, d.col) for d in main] == [(6, 5)]  # np.random.seed(42), on the user's line
