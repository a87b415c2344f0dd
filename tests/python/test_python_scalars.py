"""Python scalars in translated functions (rt/pyscalars.py, rewrite/rules/pyscalars.py): `/`,
`//`, `%`, divmod, `**`, `+ - *`, `<<`, `>>` between float()/int()/math.* values keep Python's
rules (ZeroDivisionError with Python's message, float // and % by CPython's float_divmod, signed
zeros) and refuse with NPR031, when the call runs, what a float64/int64 cannot hold (ints beyond
int64, a complex power). Differential: every operation of a grid of values (infinities, NaN,
signed zeros, int64's ends) against Python's own operator. One compile per operation: a lax loop
over all pairs that Python computes, then one call per pair that Python raises for (that pair
first, benign ones after: the first failing check is what the call raises)."""

import itertools
import math
import operator
import sys

import numpy as np
import pytest

import np2ref

FLOATS = [0.0, -0.0, 1.0, -1.0, 0.3, -0.3, 2.5, -2.5, 7.0, -7.0, 1e300, -1e300, math.inf, -math.inf,
          math.nan, 3.0, 0.1, -1e-300, 1e16, 0.5, -8.0, 400.0, 1e-10, 2.0 ** 62]
INTS = [0, 1, -1, 2, -2, 3, 7, -7, 10, 63, 64, 100, 3_000_000_000, -3_000_000_000, 2 ** 53 + 1,
        2 ** 62, 2 ** 63 - 1, -2 ** 63]


# --- one function per operand kinds: row k of x and y are the pairs of operation k ------------

def floats(x, y, out):
    for i in range(x.shape[1]):
        out[0, i] = float(x[0, i]) / float(y[0, i])
        out[1, i] = float(x[1, i]) // float(y[1, i])
        out[2, i] = float(x[2, i]) % float(y[2, i])
        out[3, i] = float(x[3, i]) ** float(y[3, i])
        q, r = divmod(float(x[4, i]), float(y[4, i]))
        out[4, i] = q
        out[5, i] = r


def ints(x, y, out, fout):
    for i in range(x.shape[1]):
        out[0, i] = int(x[0, i]) + int(y[0, i])
        out[1, i] = int(x[1, i]) - int(y[1, i])
        out[2, i] = int(x[2, i]) * int(y[2, i])
        n = int(x[3, i])
        n //= int(y[3, i])
        out[3, i] = n
        out[4, i] = int(x[4, i]) % int(y[4, i])
        out[5, i] = int(x[5, i]) ** int(y[5, i])
        out[6, i] = int(x[6, i]) << int(y[6, i])
        out[7, i] = int(x[7, i]) >> int(y[7, i])
        q, r = divmod(int(x[8, i]), int(y[8, i]))
        out[8, i] = q
        out[9, i] = r
        fout[0, i] = int(x[9, i]) / int(y[9, i])


def mixed(x, y, out):  # an int and a float: Python converts the int
    for i in range(x.shape[1]):
        out[0, i] = int(x[0, i]) // float(y[0, i])
        out[1, i] = int(x[1, i]) ** float(y[1, i])
        out[2, i] = int(x[2, i]) / float(y[2, i])


# (function, operand kinds, benign pair, operations: (Python's operator, where its results go:
# (output argument, row) each))
CASES = {
    "floats": (floats, "ff", (7.0, 3.0), [
        (operator.truediv, [(0, 0)]), (operator.floordiv, [(0, 1)]), (operator.mod, [(0, 2)]),
        (operator.pow, [(0, 3)]), (divmod, [(0, 4), (0, 5)])]),
    "ints": (ints, "ii", (7, 3), [
        (operator.add, [(0, 0)]), (operator.sub, [(0, 1)]), (operator.mul, [(0, 2)]),
        (operator.floordiv, [(0, 3)]), (operator.mod, [(0, 4)]), (operator.pow, [(0, 5)]),
        (operator.lshift, [(0, 6)]), (operator.rshift, [(0, 7)]), (divmod, [(0, 8), (0, 9)]),
        (operator.truediv, [(1, 0)])]),
    "mixed": (mixed, "if", (7, 3.0), [
        (operator.floordiv, [(0, 0)]), (operator.pow, [(0, 1)]), (operator.truediv, [(0, 2)])]),
}


def _python(op, a, b):
    """What the translation must do for `a op b`: ('value', v), ('raise', type, args) or
    ('refuse',) where Python's result does not fit a float64/int64."""
    if op is operator.truediv and type(a) is type(b) is int and b and (abs(a) > 2 ** 53 or abs(b) > 2 ** 53):
        return ("refuse",)  # Python divides the exact ints
    if op is operator.pow and type(a) is type(b) is int and b < 0:
        return ("refuse",)  # a float in Python, from an exponent known only at run time
    if op in (operator.lshift, operator.pow) and type(b) is int and b > 200 and abs(a) > (op is operator.pow):
        return ("refuse",)  # beyond int64 (without computing a huge Python int)
    try:
        r = op(a, b)
    except OverflowError as e:
        if e.args == ("complex exponentiation",):  # (-1e300) ** 2.5: a complex, had it fit
            return ("refuse",)
        return ("raise", type(e), e.args)
    except (ZeroDivisionError, ValueError) as e:
        return ("raise", type(e), e.args)
    if any(isinstance(v, complex) or isinstance(v, int) and not -2 ** 63 <= v < 2 ** 63
           for v in (r if isinstance(r, tuple) else (r,))):
        return ("refuse",)
    if any(isinstance(v, float) and 0 < abs(v) < sys.float_info.min for v in (r if isinstance(r, tuple) else (r,))):
        return ("subnormal",)  # XLA flushes subnormals to zero (docs/verification.md): not compared
    return ("value", r)


def _same(want, got):
    if isinstance(want, float):
        return math.isnan(want) and math.isnan(got) or want == got and math.copysign(1, want) == math.copysign(1, got)
    return want == got


@pytest.mark.parametrize("case", sorted(CASES))
def test_python_scalar_operators_match_python(case):
    fn, kinds, benign, ops = CASES[case]
    values = {"f": FLOATS, "i": INTS}
    pairs = list(itertools.product(values[kinds[0]], values[kinds[1]]))
    dts = [np.float64 if k == "f" else np.int64 for k in kinds]
    n_outs = 1 + any(arg == 1 for _, places in ops for arg, _ in places)
    c = np2ref.compile(fn, host_below=0)

    def run(rows):  # rows[k]: the pairs of operation k
        x = np.array([[p[0] for p in row] for row in rows], dts[0])
        y = np.array([[p[1] for p in row] for row in rows], dts[1])
        outs = [np.zeros((len(ops) + 1, len(pairs)), dt) for dt in (np.int64 if kinds == "ii" else np.float64,
                                                                     np.float64)[:n_outs]]
        c(x, y, *outs)
        return outs

    outcome = [[_python(op, *p) for p in pairs] for op, _ in ops]  # (lists: 0.0 and -0.0 are one key)
    # every pair of every operation at once, those Python raises for replaced by a benign pair
    outs = run([[p if kind[0] == "value" else benign for p, kind in zip(pairs, row)] for row in outcome])
    for (op, places), row in zip(ops, outcome):
        for k, (p, kind) in enumerate(zip(pairs, row)):
            if kind[0] != "value":
                continue
            want = kind[1] if op is divmod else (kind[1],)
            got = [outs[arg][r, k].item() for arg, r in places]
            assert all(_same(w, g) for w, g in zip(want, got)), (op.__name__, p, want, got)
    # each pair Python raises for, alone among benign ones (the same shape: no new trace)
    for j, row in enumerate(outcome):
        for p, kind in zip(pairs, row):
            if kind[0] in ("value", "subnormal"):
                continue
            rows = [[benign] * len(pairs) for _ in ops]
            rows[j][0] = p
            if kind[0] == "raise":
                with pytest.raises(kind[1]) as info:
                    run(rows)
                assert info.value.args == kind[2], (ops[j][0].__name__, p)
            else:
                with pytest.raises(np2ref.Np2RefError, match="NPR031"):
                    run(rows)


# --- where Python's rules apply, and where NumPy's stay -------------------------------------

def py_div(x):
    s = float(x[0])
    k = int(x[2])
    k *= k
    return s / float(x[1]), math.sqrt(s) ** 0.5, k


def numpy_scalars(x, y):  # NumPy scalars (and a Python float against one): NumPy's inf
    return x[0] / y[0], float(x[1]) / y[1], x // y


def while_div(x):
    s = 0.0
    i = 0
    while x[i] > 0:
        s += 1.0 / float(x[i] - 1.0)
        i += 1
    return s


def _code(compiled, name):
    """The converted function `name` (the source holds the whole module)."""
    text = compiled.source
    start = text.index(f"def {name}(")
    end = text.find("\ndef ", start + 1)
    return text[start:end if end >= 0 else None]


def _outcome(fn, *args):
    try:
        with np.errstate(all="ignore"):
            return "value", fn(*[a.copy() for a in args])
    except Exception as e:  # noqa: BLE001
        return type(e), e.args


def test_python_rules_only_between_python_scalars():
    c = np2ref.compile(py_div, host_below=0)
    assert "npr_pyop(s, '/'" in _code(c, "py_div") and "npr_pyop(k, '*', k)" in _code(c, "py_div")
    for x in ([1.0, 4.0, 3.0], [1.0, 0.0, 3.0], [1.0, -0.0, 3.0], [-4.0, 2.0, 3.0], [2.0, 1.0, 4e9]):
        x = np.array(x)
        want = _outcome(py_div, x)
        got = _outcome(c, x)
        if want[0] == "value" and x[2] > 3e9 or want[0] is TypeError:  # 4e9 ** 2, sqrt(-4.0) ** 0.5:
            # Python's int beyond int64, Python's complex (which the test's float() refuses)
            assert got[0] is np2ref.Np2RefError and "NPR031" in str(got[1]), (x, got)
        elif want[0] == "value":
            # Python's values and Python's types (a float, an int: not NumPy scalars)
            assert got[0] == "value" and all(type(w) is type(g) and _same(w, g) for w, g in zip(want[1], got[1])), (x, got)
        else:
            assert got == want, (x, got)
    # without the run-time checks (.pure, bounds='unchecked'): the float64 answer, as elsewhere
    unchecked = np2ref.compile(py_div, host_below=0, bounds="unchecked")
    assert unchecked(np.array([1.0, 0.0, 3.0]))[0] == math.inf

    n = np2ref.compile(numpy_scalars, host_below=0)
    assert "npr_pyop" not in _code(n, "numpy_scalars")
    x, y = np.array([1.0, -2.0, 1e16, -7.5]), np.array([0.0, 0.0, 3.0, 0.3])
    for w, g in zip(_outcome(numpy_scalars, x, y)[1], n(x, y)):
        assert np.array_equal(w, g, equal_nan=True) and np.array_equal(np.signbit(w), np.signbit(g))


def test_python_zero_division_in_a_while_loop():
    c = np2ref.compile(while_div, host_below=0)
    assert "npr_pyop(1.0, '/'" in _code(c, "while_div")
    for x in ([3.0, 2.0, 5.0, 0.0], [3.0, 2.0, 1.0, 0.0]):
        x = np.array(x)
        want, got = _outcome(while_div, x), _outcome(c, x)
        assert got == want if want[0] != "value" else got[0] == "value" and float(got[1]) == want[1], (x, got)


def grow(x):
    n = 1
    c = 0
    for i in range(x.shape[0]):
        n *= 3  # a Python int: 3 ** 40 is beyond int64
        c += 1  # a counter: left as it is
    return n, c


def test_python_int_grown_in_a_loop():
    c = np2ref.compile(grow, host_below=0)
    assert "npr_pyop(n, '*', 3)" in _code(c, "grow") and "c += 1" in _code(c, "grow")
    got = c(np.zeros(39))
    assert got == grow(np.zeros(39)) and [type(v) for v in got] == [int, int]  # Python ints, as NumPy's
    with pytest.raises(np2ref.Np2RefError, match="NPR031"):
        c(np.zeros(40))


def _item_scale(x):
    m = x.max().item()
    return x / m, m


def _item_reciprocal(x):
    return 1.0 / x.min().item()


def _item_ints(k, a):
    n = k.sum().item()
    return n * 3, n // 2, a.item(1) + a.item((1, 0)) + a.item(-1)


def test_item_is_a_python_scalar_of_array_data():
    x = np.array([0.5, 2.0, 1.0])
    got = np2ref.compile(_item_scale, host_below=0)(x)
    np.testing.assert_array_equal(got[0], x / 2.0)
    assert type(got[1]) is float and got[1] == 2.0
    with pytest.raises(ZeroDivisionError):  # Python's float division, as NumPy's program does
        np2ref.compile(_item_reciprocal, host_below=0)(np.array([0.0, 1.0]))
    k, a = np.array([3, 4], np.int32), np.arange(6.0).reshape(3, 2)
    got = np2ref.compile(_item_ints, host_below=0)(k, a)
    assert got == _item_ints(k, a) and [type(v) for v in got] == [int, int, float]
    with pytest.raises(IndexError):
        np2ref.compile(_item_ints, host_below=0)(k, np.arange(1.0))


def _adaptive_step(y0, t_end, dt0, tol):
    t, y, dt, nsteps = 0.0, y0, dt0, 0
    while t < t_end:
        if t + dt > t_end:
            dt = t_end - t  # rebinds dt ...
        half = y + 0.5 * dt * (-2.0 * y)
        half = half + 0.5 * dt * (-2.0 * half)
        if abs(y + dt * (-2.0 * y) - half) < tol:
            t += dt
            y = half
            nsteps += 1
            dt *= 1.5  # ... which `op=` rebinds too (a Python float), or writes in place (an array)
        else:
            dt *= 0.5
    return y, nsteps, dt


def _adaptive_for(y0, t_end, dt0, tol, maxsteps):
    t, y, dt = 0.0, y0, dt0
    for step in range(maxsteps):
        if t >= t_end:
            break
        if t + dt > t_end:
            dt = t_end - t
        half = y + 0.5 * dt * (-2.0 * y)
        if abs(half - y * np.exp(-dt)) < tol:
            t += dt
            y = half
            dt *= 1.5
        else:
            dt *= 0.5
    return y, step, dt


def test_a_step_size_rebound_and_scaled_in_place_in_a_loop():
    """`dt = dt0`, `dt = t_end - t`, `dt *= 0.5` in a `while` on data (adaptive stepping) was NPR030:
    dt might be the caller's array, which `dt *= 0.5` writes in place. With a Python float or a
    NumPy scalar it is a value the loop carries; with an array, whose rebinding the loop would
    have dropped, it is refused (NPR011) when traced."""
    c = np2ref.compile(_adaptive_step, host_below=0)
    for dt0 in (0.5, np.float64(0.5), 0.01):
        want, got = _adaptive_step(1.0, 2.0, dt0, 1e-3), c(1.0, 2.0, dt0, 1e-3)
        assert got == want and [type(v) for v in got] == [type(v) for v in want]
    for dt0 in (np.array(0.5), np.array([0.5])):
        with pytest.raises(np2ref.Np2RefError, match="NPR011"):
            c(1.0, 2.0, dt0, 1e-3)
    stepper = np2ref.compile(_adaptive_for, host_below=0)  # a `for` with a break: a lax loop too
    assert "NPR033" not in {d.code for d in np2ref.convert_source(
        open(__file__).read(), __file__, only={"_adaptive_for"}).diagnostics}
    for dt0 in (0.5, np.float64(0.01)):
        assert stepper(1.0, 2.0, dt0, 1e-2, 400) == _adaptive_for(1.0, 2.0, dt0, 1e-2, 400)
    with pytest.raises(np2ref.Np2RefError, match="NPR011"):
        stepper(1.0, 2.0, np.array([0.5]), 1e-2, 400)
