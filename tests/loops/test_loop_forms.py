"""Loop forms (issue 18): `break`/`continue` as carried flags (frontend/jumps.py), `for x in
array`, `np.ndindex`, `zip` of ranges, negative steps, max/min on the loop index, chained
comparisons, and the unroll limit (NPR035). Differential: the NumPy original against
np2ref.compile; structural checks (a while loop in the HLO, no PythonLoopWarning) instead of
timings."""

from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref

SOURCE = '''
import numpy as np


def first_negative(a, out):
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] < 0:
            break
        s += a[i]
    out[0] = s


def skip_and_stop(a):
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] < 0: continue
        if a[i] > 5.0:
            s -= 100.0
            break
        elif a[i] == 0.0:
            continue
        s = s * 0.5 + a[i]
    else:
        s += 1000.0
    return s


def inner_break(a, out):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j] > 2.0:
                break
            out[i] += a[i, j]
        out[i] *= 2.0


def while_jumps(a):
    i = 0
    s = 0.0
    while i < a.shape[0]:
        i += 1
        if a[i - 1] > 4.5:
            break
        if a[i - 1] < 0:
            continue
        s += a[i - 1]
    else:
        s = -s
    return s


def loss(x, w):
    s = 0.0
    for i in range(x.shape[0]):
        if x[i] * w > 3.0:
            break
        s += (x[i] * w) ** 2
    return s


def forms(a, out):
    for r in a:
        out[0] += r.sum()
    for i, r in enumerate(a):
        out[1] += r[0] * i
    for i, j in zip(range(a.shape[0]), range(a.shape[0] - 1, -1, -1)):
        out[2] += a[j, 0] * (i + 1)
    for pos in np.ndindex(a.shape):
        out[3] += a[pos] * (pos[1] + 1)
    for i, j in np.ndindex(a.shape[0], 2):
        out[4] += a[i, j] * (i - j)
    for i, j in np.ndindex(*a.shape):  # a starred shape: a lax loop too, not an unrolled Python one
        out[8] += a[i, j] * (i - 2 * j)
    for i in reversed(range(1, a.shape[0])):
        out[5] = out[5] * 0.5 + a[i, 0]
    for i in range(a.shape[0] - 1, -1, -2):
        out[6] = out[6] * 0.5 + a[i, 1]
    for w in (1.0, 2.0, 5.0):
        if w > 3.0:
            break
        out[7] += w * a[0, 0]


def clamp(u, out):
    n, m = u.shape
    for i in range(n):
        for j in range(m):
            out[i, j] = u[max(i - 1, 0), j] + u[min(i + 1, n - 1), j] + u[i, max(j - 1, 0)] + u[i, min(j + 1, m - 1)]


def chained(u, out):
    nx = u.shape[0]
    for i in range(nx):
        x = i - 1
        if 0 < x + 1 < nx - 1:
            out[i] = u[x + 1] * 2.0
        if 0.0 <= u[i] < 3.0 <= nx:
            out[i] += 1.0


def history(u, n):
    hist = []
    for t in range(n):
        u *= 0.5
        hist.append(u.sum())
        hist.append(float(u[0]))  # (two types a trip: a Python loop; one is stacked, test_loop_appends.py)
    return hist


def keep_break(u):
    for i in range(u.shape[0]):
        if i == 2:
            break
        u[i] = 1.0
    return i


def converged_at(x, tol, n):
    it = -1
    for it in range(n):
        x = x * 0.5
        if np.abs(x).max() < tol:
            break
    return x, it


def first_heavy_window(x, w):
    for i in range(x.size - w):
        s = x[i:i + w].sum()
        if s > 2.0:
            break
    return i, s


def last_before_stop(x, n):
    for k in range(n):
        j = k
        if x[k] > 0.5:
            break
    return j


def history_opt_in(u, n):
    hist = []
    for t in range(n):  # np2ref: unroll
        u *= 0.5
        hist.append(u.sum())
        hist.append(float(u[0]))
    return hist


def local_alignment(a, b):
    H = np.zeros((len(a) + 1, len(b) + 1))
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            s = 2.0 if a[i - 1] == b[j - 1] else -1.0
            H[i, j] = max(0.0, H[i - 1, j - 1] + s, H[i - 1, j] - 1.0, H[i, j - 1] - 1.0)
    i, j = np.unravel_index(np.argmax(H), H.shape)  # rebinds both loop variables
    if H[i, j] > 3.0:
        j = j + 1
    return H.max(), i, j


def read_before_rebinding(a):
    t = 0.0
    for i in range(a.shape[0]):
        t += a[i]
    k = i  # the loop's last i
    i = 0
    return t, k, i
'''


@pytest.fixture(scope="module")
def ns(tmp_path_factory):
    path = tmp_path_factory.mktemp("loop_forms") / "forms.py"
    path.write_text(SOURCE)
    namespace: dict = {"__name__": "forms"}
    exec(compile(SOURCE, str(path), "exec"), namespace)
    return namespace


_COMPILED: dict = {}


def compiled(ns, name):
    if name not in _COMPILED:
        _COMPILED[name] = np2ref.compile(ns[name])
    return _COMPILED[name]


VECTORS = [np.array([1.0, 2.0, -1.0, 4.0]), np.array([1.0, 2.0, 3.0, 4.0]), np.array([-1.0, 3.0, 0.0, 2.0]),
           np.array([5.5, 1.0, 2.0, 0.5]), np.array([0.0, 6.0, -2.0, 1.0])]


def test_break_and_continue_match_python(ns):
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        for a in VECTORS:
            o1, o2 = np.zeros(1), np.zeros(1)
            ns["first_negative"](a, o1)
            compiled(ns, "first_negative")(a, o2)
            assert o1 == o2, (a, o1, o2)
            assert ns["skip_and_stop"](a) == compiled(ns, "skip_and_stop")(a), a
            assert ns["while_jumps"](a) == compiled(ns, "while_jumps")(a), a


def test_break_binds_to_the_innermost_loop(ns):
    a = np.array([[1.0, 3.0, 1.0], [0.5, 0.5, 0.5], [2.5, 1.0, 1.0]])
    o1, o2 = np.zeros(3), np.zeros(3)
    ns["inner_break"](a, o1)
    compiled(ns, "inner_break")(a, o2)
    assert (o1 == o2).all()


def test_a_for_with_break_is_a_compiled_loop(ns):
    result = np2ref.convert_source(SOURCE, "forms.py")
    assert result.ok and [d for d in result.diagnostics if d.is_error] == []
    assert "stop=0" in result.code  # npr_for stops a Python-run loop at the break
    assert "while" in compiled(ns, "first_negative").lower(VECTORS[0], np.zeros(1)).as_text()


def test_grad_and_vmap_through_a_for_with_break(ns):
    c = compiled(ns, "loss")
    with jax.enable_x64(True):
        x = jnp.array([0.5, 1.0, 2.0, 4.0])
        for w in (0.7, 1.2, 2.0):
            assert np.isclose(c.pure(x, w)[0], ns["loss"](x, w))
        g = jax.jit(jax.grad(lambda w: c.pure(x, w)[0]))(1.2)
        batched = jax.jit(jax.vmap(lambda w: c.pure(x, w)[0]))(jnp.array([0.7, 1.2, 2.0]))
    h = 1e-6
    x = np.asarray(x)
    fd = (ns["loss"](x, 1.2 + h) - ns["loss"](x, 1.2 - h)) / (2 * h)
    assert np.isclose(g, fd, rtol=1e-5)
    assert np.allclose(batched, [ns["loss"](x, w) for w in (0.7, 1.2, 2.0)])


def test_iteration_forms(ns):
    a = np.arange(12.0).reshape(4, 3) - 4.0
    o1, o2 = np.zeros(9), np.zeros(9)
    ns["forms"](a, o1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        compiled(ns, "forms")(a, o2)
    assert (o1 == o2).all(), (o1, o2)
    code = compiled(ns, "forms").source
    assert "npr_items(a)" in code and "npr_ndindex(a.shape)" in code and "npr_item(range(" in code
    assert "npr_ndindex(*a.shape)" in code


def test_clamp_and_chained_comparisons_run_traced(ns):
    u = np.random.default_rng(0).random((5, 4))
    o1, o2 = np.zeros((5, 4)), np.zeros((5, 4))
    ns["clamp"](u, o1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        compiled(ns, "clamp")(u, o2)
        v = np.array([-1.0, 0.5, 2.0, 3.5, 1.0])
        p1, p2 = np.zeros(5), np.zeros(5)
        ns["chained"](v, p1)
        compiled(ns, "chained")(v, p2)
    assert (o1 == o2).all() and (p1 == p2).all()
    assert "npr_int_max(i - 1, 0)" in compiled(ns, "clamp").source
    # lanes, not unrolled: each lane checks u[max(i - 1, 0), j] in its own record (test_lane_checks.py)
    assert "while" not in compiled(ns, "clamp").lower(u, o2).as_text() and "npr_vfor" in compiled(ns, "clamp").source


def test_int_max_keeps_pythons_meaning():
    from np2ref.rt import npr_int_max, npr_int_min
    assert npr_int_max(3, 5) == 5 and npr_int_min(2.5, 1) == 1
    out = jax.jit(jax.vmap(lambda i: (npr_int_max(i - 1, 0), npr_int_min(i + 1, 3))))(jnp.arange(5))
    assert [list(map(int, o)) for o in out] == [[0, 0, 1, 2, 3], [1, 2, 3, 3, 3]]
    # floats: npr_max, Python's max on traced values (`max(S0 * u ** j - K, 0.0)`, NaN first kept)
    for x in (1.5, -2.0, float("nan")):
        got = float(jax.jit(lambda x: npr_int_max(x, 0.0))(x))
        assert got == max(x, 0.0) or (np.isnan(got) and np.isnan(max(x, 0.0)))
        assert float(jax.jit(lambda x: npr_int_min(0.0, x))(x)) == min(0.0, x)


def test_unroll_limit_refuses_and_opt_ins(ns, monkeypatch):
    from np2ref.rt import npr_unroll_limit
    assert npr_unroll_limit() == 1000
    monkeypatch.setenv("NP2REF_UNROLL_LIMIT", "5")
    u = np.ones(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        assert np2ref.compile(ns["history"])(u.copy(), 5) == ns["history"](u.copy(), 5)
        with pytest.raises(np2ref.Np2RefError) as info:
            np2ref.compile(ns["history"])(u.copy(), 6)
        assert info.value.diagnostics[0].code == "NPR035"
        assert "hist.append()" in str(info.value) and "6 iterations" in str(info.value)
        assert np2ref.compile(ns["history_opt_in"])(u.copy(), 6) == ns["history_opt_in"](u.copy(), 6)
        monkeypatch.setenv("NP2REF_UNROLL_LIMIT", "none")
        assert np2ref.compile(ns["history"])(u.copy(), 6) == ns["history"](u.copy(), 6)


def test_diagnostics_inside_a_desugared_loop_keep_the_users_line():
    src = ("import numpy as np\n\n\ndef f(a, idx):\n    for i in range(3):\n        if a[i] < 0:\n"
           "            continue\n        np.hypot.at(a, idx, 2.0)\n")
    result = np2ref.convert_source(src, "m.py")
    assert [(d.code, d.line, d.col) for d in result.diagnostics if d.is_error] == [("NPR101", 8, 9)]


def test_a_loop_variable_read_after_a_break_is_the_break_trips(ns):
    """`for it in range(n): ... break` then `return x, it` was left a Python loop (NPR030 when
    the test reads data, as in a Jacobi solver returning its iteration count): the loop counts
    in a fresh name and binds `it` in the trips that run, so it is the break's trip, the last
    one, or (no trip) what it was before. A name bound in such a body stays an int (it was a
    float64 from the carry's placeholder)."""
    code = np2ref.convert_source(SOURCE, "forms.py").code
    keep = code[code.index("def keep_break"):code.index("def converged_at")]
    assert "            break" not in keep and "_break_" in keep
    u1, u2 = np.zeros(4), np.zeros(4)
    assert ns["keep_break"](u1) == compiled(ns, "keep_break")(u2) == 2 and (u1 == u2).all()
    x = np.array([3.0, -1.0])
    for n in (0, 3, 40):
        (want, it), (got, it2) = ns["converged_at"](x, 1e-3, n), compiled(ns, "converged_at")(x, 1e-3, n)
        assert it == it2 and (want == got).all(), (n, it, it2)
    x = np.array([0.1, 0.5, 0.9, 1.2, 0.3, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)  # the body's slices read the counter
        assert compiled(ns, "first_heavy_window")(x, 2) == ns["first_heavy_window"](x, 2)
    for v in (np.array([0.1, 0.7, 0.2]), np.array([0.1, 0.2, 0.3])):
        got = compiled(ns, "last_before_stop")(v, 3)
        assert got == ns["last_before_stop"](v, 3) and np.asarray(got).dtype.kind == "i"


def test_pure_takes_numpy_arrays_read_at_a_traced_index(ns):
    """`.pure(u, out)` with NumPy arrays: `u` (read only) indexed by the loop's traced index
    raised TracerArrayConversionError; NumPy arrays are data, as in the NumPy-facing call."""
    u = np.random.default_rng(1).random((4, 3))
    expected = np.zeros((4, 3))
    ns["clamp"](u, expected)
    with jax.enable_x64(True):
        # jitted (one compile, not one an operation), u still a NumPy array closed over
        pure = compiled(ns, "clamp").pure
        finals = jax.jit(lambda o: pure(u, o)[1])(np.zeros((4, 3)))
        batched = jax.jit(jax.vmap(lambda o: pure(u, o)[1]["out"]))(jnp.zeros((2, 4, 3)))
    assert (np.asarray(finals["out"]) == expected).all() and (np.asarray(batched) == expected).all()


def test_loop_variables_rebound_after_the_loop_leave_it_a_lax_loop(ns):
    """`for i ...: for j ...:` then `i, j = np.unravel_index(...)` (Smith-Waterman, LCS
    backtracking) ran as Python loops, one traced copy of the body per cell ("the loop variable
    is read outside the loop"): every read after the loop sees the new binding. A read before it
    still sees the loop's value."""
    a, b = np.array(list(b"GGTTGACTA")), np.array(list(b"TGTTACGG"))
    assert compiled(ns, "local_alignment")(a, b) == ns["local_alignment"](a, b)
    assert compiled(ns, "read_before_rebinding")(VECTORS[0]) == ns["read_before_rebinding"](VECTORS[0]) \
        and ns["read_before_rebinding"](VECTORS[0])[1] == 3

    def python_loops(name):
        return [d.line for d in np2ref.convert_source(SOURCE, "forms.py", only={name}).diagnostics if d.code == "NPR033"]
    assert python_loops("local_alignment") == [] and len(python_loops("read_before_rebinding")) == 1
