"""A script's time loop that appends to history lists (frontend/lift_appends.py): lifted whole,
each list made anew in the lifted function and the script's list extended after the call; the
converted script prints what NumPy's prints and ends with lists equal in value and type. A loop
that reads its list (`energy[-1]` in a print) keeps its steps (NPR036), as before."""

from __future__ import annotations

import contextlib
import io

import numpy as np

import np2ref

SCRIPT = '''
import numpy as np

u = np.zeros(32)
u[16] = 1.0
history = []
energy = []
for step in range(60):
    u[1:-1] += 0.25 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    history.append(u.copy())
    energy.append(float(np.sum(u)))
    if step % 20 == 0:
        print(f"step {step:3d} total {u.sum():.6f}")
'''

READS_ITS_LIST = SCRIPT.replace('print(f"step {step:3d} total {u.sum():.6f}")',
                                'print(f"step {step:3d} total {energy[-1]:.6f}")')


def _run(text: str) -> tuple[dict, str]:
    ns: dict = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(text, "script.py", "exec"), ns)
    return ns, out.getvalue()


def _same(text: str) -> str:
    result = np2ref.convert_source(text, "script.py")
    assert result.ok, [d.code for d in result.diagnostics]
    expected, printed = _run(text)
    got, printed_converted = _run(result.code)
    assert printed_converted == printed and printed.count("step") == 3
    assert len(got["history"]) == len(expected["history"]) == 60
    assert all(type(a) is np.ndarray and np.allclose(a, b) for a, b in zip(got["history"], expected["history"]))
    assert [type(e) for e in got["energy"]] == [float] * 60
    assert np.allclose(got["energy"], expected["energy"]) and np.allclose(got["u"], expected["u"])
    return result.code


def test_a_history_loop_is_lifted_whole():
    code = _same(SCRIPT)
    assert "history.extend(_npr_new_history)" in code and "appends=(history,energy,)" in code.replace(" ", "")
    assert "for step in range(60)" not in code  # no host loop left


def test_a_loop_that_reads_its_list_keeps_its_steps():
    code = _same(READS_ITS_LIST)
    assert "for step in range(60)" in code and "_npr_new_history" not in code
    result = np2ref.convert_source(READS_ITS_LIST, "script.py")
    assert "NPR036" in {d.code for d in result.diagnostics}
