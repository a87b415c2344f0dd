"""`math` functions in translated code (issue 37 case 5).

`math.gamma(2.5)` was read as a random draw (NPR023 "called on a module, which is not a NumPy
random generator"): `gamma` is also a Generator method. A function of the math module is pure:
on Python numbers known at trace time it runs as Python; on traced data it is npr_math where jnp
has the same function (exact: math.sqrt of a float64 is jnp.sqrt's), and the others (gamma,
lgamma, erf, factorial, ...) are refused with NPR031 naming the line, never guessed."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ProgramChecks, program, run_cli

import np2ref

CHECKS = ProgramChecks("math_calls")
X = np.array([1.75, 0.5, 2.25])


def test_math_on_constants_runs_as_python():
    CHECKS.same("constants", X)


@pytest.mark.parametrize("n", [3, 5])
def test_math_on_a_static_int_runs_as_python(n):
    CHECKS.same("static_ints", X, n)


def test_math_with_a_jnp_counterpart_on_traced_data_is_exact():
    expected, got = CHECKS.same("traced", X)  # (exp, log, cos...: XLA's and libm's last bit may differ)
    exact = [0, 8, 9]  # sqrt, floor, fabs: correctly rounded in both, bit for bit
    assert np.array_equal(expected[exact], got[exact])


@pytest.mark.parametrize("name, args", [("traced_gamma", (X,)), ("traced_lgamma", (X,)), ("traced_erf", (X,)),
                                        ("traced_factorial", (X, np.array([3, 1])))])
def test_math_without_a_jnp_counterpart_on_traced_data_is_refused_at_its_line(name, args):
    fn = getattr(program("math_calls"), name)
    with pytest.raises(np2ref.Np2RefError) as caught:
        np2ref.compile(fn, host_below=0)(*args)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "NPR031" and f"math.{name[len('traced_'):]}()" in diagnostic.message
    assert diagnostic.line == fn.__code__.co_firstlineno + 1


def test_check_reads_no_random_draw_in_math(tmp_path):
    source = "import math\n\n\ndef f(x):\n    return x * math.gamma(2.5) + math.gamma(x[0] * 0 + 3.0)\n"
    (tmp_path / "f.py").write_text(source)
    done = run_cli("convert", "f.py", "--stdout", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "npr_random" not in done.stdout and "math.gamma(2.5)" in done.stdout
