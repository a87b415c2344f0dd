"""Independent loop iterations as one vmap (rewrite/lanes.py, rt/vectorise.py; issue 39): which
loops become npr_vfor, and differential runs against NumPy (results, every mutated argument,
dtypes) and against the loop itself (bit for bit)."""

import inspect

import numpy as np
import pytest

import np2ref
import np2ref.rt.vectorise as V
from conftest import assert_numpys_bits, on_tpu


def grid(g, nx, ny):
    for x in range(nx):
        for y in range(ny):
            if x == 0 or y == 0 or x == nx - 1 or y == ny - 1:
                g[x, y] = 1.0
            else:
                g[x, y] = 0.5 * x + 0.25 * y + g[x, y]


def stencil(A, B, steps):
    n = A.shape[0]
    for t in range(steps):
        for i in range(1, n - 1):
            B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1])
        for i in range(1, n - 1):
            A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1])


def rows(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        e = np.exp(x[i] - x[i].max())
        out[i] = e / e.sum()
    return out


def triangle(C, A):
    n = C.shape[0]
    for i in range(n):
        for j in range(i + 1):
            C[i, j] = C[i, j] * 0.5 + A[i, 0] * A[j, 1]


def backwards(x, out):
    for i in range(x.shape[0] - 1, 0, -2):
        out[i] = x[i] * 2.0 - x[i - 1]


def int_element(a, v):
    for j in range(a.shape[0]):
        a[j] += v[j] * 0.5  # an element's `+=`: NumPy casts back unsafely, unlike a[:] += ...


def past_end(a, n):
    for j in range(n):
        a[j] = j * 1.5


def wraps(a, n):
    for j in range(-n, 2):  # negative indices wrap: the loop runs (npr_vfor's fallback)
        a[j] = a[j] + j


def below_rows(B, k):
    for j in range(B.shape[1]):
        B[k, j] += B[k + 1:, j].sum()  # rows below k: no iteration writes them while k >= 0


def trmm(alpha, A, B):
    m, n = B.shape
    for i in range(m):
        for j in range(n):
            B[i, j] += A[i + 1:, i] @ B[i + 1:, j]


def later_ascending(a):
    for i in range(a.shape[0]):
        a[i] = a[i] * 0.5 + a[i + 1:].sum()  # positions only later iterations write


def earlier_descending(a):
    for i in range(a.shape[0] - 1, -1, -1):
        a[i] = a[i] * 0.5 + a[:i].sum()  # the same, counting down


def prefix_ascending(a):
    for i in range(a.shape[0]):
        a[i] = a[i] * 0.5 + a[:i].sum()  # positions earlier iterations wrote: a recurrence


def later_descending(a):
    for i in range(a.shape[0] - 1, -1, -1):
        a[i] = a[i] * 0.5 + a[i + 1:].sum()


def later_by_step(a, s):
    for i in range(0, a.shape[0], s):  # the step's sign unknown on the source
        a[i] = a[i] * 0.5 + a[i + 1:].sum()


def above_wraps(B, k):
    for j in range(B.shape[1]):
        B[k, j] = 1.0
        B[k, j] += B[:k - 1, j].sum()  # at k = 0, `:-1` wraps round onto row k itself


def columns(data, out):
    for j in range(data.shape[1]):
        out[:, j] = data[:, j] * j - data[0, j]  # a column each: the lanes along axis 1


def plane_columns(data, out, k):
    for j in range(1, data.shape[2]):
        out[k, :, j] = (data[k, :, j] - data[k, :, j].mean()) / 2.0


def column_and_next(out):
    for j in range(out.shape[1] - 1):
        out[:, j] = out[:, j + 1] * 2.0  # the next column: another iteration's slot


def row_sums(x, out):
    for i in range(x.shape[0]):
        s = 0.0
        for k in range(x.shape[1]):
            s += x[i, k] * x[i, k]  # a sum carried by the inner loop, in each lane
        out[i] = s


def in_place_name(a, b):
    for i in range(a.shape[0]):
        c = b
        c += 1.0  # writes b in place (an array): not a lane's own value
        a[i] = c[i]


def inner_var_rebound(g, idx):
    for j in range(g.shape[0]):
        for k in range(2):
            k = idx[j]  # no longer the inner loop's Python int: not a lane's index
            g[j, k] += 1.0


def inner_var_shifted(g):
    for j in range(g.shape[0]):
        for k in range(2):
            k += 1
            g[j, k] += 1.0


def recurrence(y, x):
    for i in range(1, x.shape[0]):
        y[i] = y[i - 1] + x[i]


def random_body(a):
    for i in range(a.shape[0]):
        a[i] = np.random.random()


def alias_read(a):
    b = a[::-1]
    for i in range(a.shape[0]):
        a[i] = b[i] + 1.0


def two_places(a):
    for i in range(a.shape[0] - 1):
        a[i] = 1.0
        a[i + 1] = 2.0


def reads_other_element(a):
    for i in range(1, a.shape[0]):
        a[i] = a[i - 1] * 2.0


RNG = np.random.default_rng(7)
CASES = [
    (grid, lambda: (RNG.standard_normal((7, 6)), 7, 6)),
    (grid, lambda: (RNG.standard_normal((7, 6)), 5, 4)),
    (stencil, lambda: (RNG.standard_normal(12), RNG.standard_normal(12), 3)),
    (rows, lambda: (RNG.standard_normal((5, 4)).astype(np.float32),)),
    (triangle, lambda: (RNG.standard_normal((6, 6)), RNG.standard_normal((6, 2)))),
    (backwards, lambda: (RNG.standard_normal(9), np.zeros(9))),
    (int_element, lambda: (np.arange(6, dtype=np.int32), RNG.standard_normal(6))),
    (wraps, lambda: (RNG.standard_normal(5), 3)),
    (below_rows, lambda: (RNG.standard_normal((4, 3)), 1)),
    (below_rows, lambda: (RNG.standard_normal((4, 3)), -1)),  # k + 1 = 0: row -1 is read (the loop runs)
    (row_sums, lambda: (RNG.standard_normal((4, 5)), np.zeros(4))),
    (trmm, lambda: (1.5, RNG.standard_normal((5, 5)), RNG.standard_normal((5, 3)))),
    (later_ascending, lambda: (RNG.standard_normal(7),)),
    (earlier_descending, lambda: (RNG.standard_normal(7),)),
    (columns, lambda: (RNG.standard_normal((5, 4)), np.zeros((5, 4)))),
    (columns, lambda: (RNG.standard_normal((5, 4)).astype(np.float32), np.zeros((5, 4), np.int16))),
    (plane_columns, lambda: (RNG.standard_normal((3, 5, 4)), np.zeros((3, 5, 4)), 1)),
    (plane_columns, lambda: (RNG.standard_normal((3, 5, 4)), np.zeros((3, 5, 4)), -3)),
]


def _converted(fn) -> str:
    """The converted text of fn alone."""
    text = np2ref.convert_source("import numpy as np\n\n" + inspect.getsource(fn)).code
    start = text.index(f"def {fn.__name__}(")
    end = text.find("\ndef ", start + 1)
    return text[start:end if end > 0 else None]


def _run(fn, args, vectorise):
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    if vectorise is None:
        out = fn(*copies)
    else:
        V.NPR_VECTORISE = vectorise
        try:
            out = np2ref.compile(fn)(*copies)
        finally:
            V.NPR_VECTORISE = True
    return [np.asarray(out)] * (out is not None) + [a for a in copies if isinstance(a, np.ndarray)]


@pytest.mark.parametrize("fn, make", CASES, ids=[f"{c[0].__name__}{k}" for k, c in enumerate(CASES)])
def test_against_numpy_and_the_loop(fn, make):
    args = make()
    want, lanes, loop = _run(fn, args, None), _run(fn, args, True), _run(fn, args, False)
    assert "npr_vfor" in _converted(fn)
    for w, got, looped in zip(want, lanes, loop):
        assert got.dtype == w.dtype
        # float32: NumPy's exp and XLA's differ by ulps (on a TPU by more: 1.8e-6 measured there)
        np.testing.assert_allclose(got, w, rtol=(1e-5 if on_tpu() else 1e-6) if w.dtype == np.float32 else 1e-13,
                                   atol=1e-12)
        if fn is row_sums and not on_tpu():  # the inner loop an ordered fold in the lanes: NumPy's bits,
            assert np.array_equal(got, w)  # where the loop may contract `s + x * x` into an FMA
        elif fn in (grid, stencil, backwards, int_element, wraps, columns):  # the same elementwise operations:
            assert np.array_equal(got, looped)  # the loop's bits, and NumPy's where the loop had them
            assert np.array_equal(got, w) or not np.array_equal(looped, w)  # (XLA may fuse s + x * y)
        else:  # a reduction in the body: XLA's order (batched), NumPy's within an ulp or two
            np.testing.assert_allclose(got, looped, rtol=1e-13, atol=1e-12)


LOOP_FREE = {grid: (7, 6), rows: (5, 4), triangle: (6, 6), trmm: (5, 5), later_ascending: (7,),
             earlier_descending: (7,), columns: (5, 4), plane_columns: (3, 5, 4)}


@pytest.mark.parametrize("fn", list(LOOP_FREE), ids=[f.__name__ for f in LOOP_FREE])
def test_the_lanes_run_where_the_loop_was(fn):
    """No loop left in the program (a lanes trace that fails runs the loop instead: exact, slow)."""
    jax = pytest.importorskip("jax")
    args = next(make() for f, make in CASES if f is fn)
    pure = np2ref.compile(fn).pure
    with jax.enable_x64(True):
        text = str(jax.make_jaxpr(pure, static_argnums=[k for k, a in enumerate(args) if isinstance(a, int)])(*args))
    assert "while[" not in text and "scan[" not in text


def test_a_range_past_the_axis_raises_numpys_index_error():
    a = np.zeros(4)
    with pytest.raises(IndexError):
        past_end(a.copy(), 5)
    with pytest.raises(IndexError):
        np2ref.compile(past_end)(a.copy(), 5)
    got = a.copy()
    np2ref.compile(past_end)(got, 3)
    assert np.array_equal(got, [0.0, 1.5, 3.0, 0.0])


@pytest.mark.parametrize("fn", [recurrence, random_body, alias_read, two_places, reads_other_element,
                                in_place_name, inner_var_rebound, inner_var_shifted, prefix_ascending,
                                later_descending, later_by_step, above_wraps, column_and_next])
def test_dependent_or_impure_loops_stay_loops(fn):
    source = _converted(fn)
    assert "npr_vfor" not in source and "npr_for" in source


def test_trmm_rows_below_are_read_as_before_the_loop():
    assert "npr_vfor(npr_range(m), _loop_i, _lanes_i, (B, (npr_lane,)))" in _converted(trmm)


def test_recurrences_over_the_loop_axis_match_numpy():
    x = RNG.standard_normal(6)
    for fn, args in ((prefix_ascending, (x,)), (later_descending, (x,)), (later_by_step, (x, 2)),
                     (above_wraps, (RNG.standard_normal((4, 3)), 0))):
        want, got = _run(fn, args, None), _run(fn, args, True)
        for w, g in zip(want, got):
            np.testing.assert_allclose(g, w, rtol=1e-13)


def test_rebound_inner_loop_variables_match_numpy():
    for fn, make in ((inner_var_rebound, lambda: (np.zeros((3, 4)), np.array([3, 0, 2]))),
                     (inner_var_shifted, lambda: (np.zeros((3, 4)),))):
        theirs, ours = make(), make()
        fn(*theirs)
        np2ref.compile(fn)(*ours)
        np.testing.assert_array_equal(ours[0], theirs[0])


def test_alias_and_recurrence_still_match_numpy():
    x = RNG.standard_normal(6)
    for fn in (alias_read, reads_other_element):
        assert_numpys_bits(_run(fn, (x,), True)[0], _run(fn, (x,), None)[0])
    y = np.zeros(6)
    assert_numpys_bits(_run(recurrence, (y, x), True)[0], _run(recurrence, (y, x), None)[0])


def tri_sum(C, A):
    n = C.shape[0]
    for i in range(n):
        for j in range(i + 1):  # bounds traced in the lax loop over i: npr_vfor's lax.cond
            C[i, j] = C[i, j] * 0.5 + A[i, 0] * A[j, 1]
    return C.sum()


def test_grad_and_vmap_of_the_lanes_equal_the_loops():
    jax = pytest.importorskip("jax")
    C, A = RNG.standard_normal((4, 4)), RNG.standard_normal((5, 2))
    outs = []
    for on in (True, False):
        V.NPR_VECTORISE = on
        try:
            pure = np2ref.compile(tri_sum).pure
            with jax.enable_x64(True):
                # jitted: one compile each (eager, each operation compiles on its own)
                grad = jax.jit(jax.grad(lambda a: pure(C, a)[0]))(A)
                batch = jax.jit(jax.vmap(lambda c: pure(c, A)[0]))(np.stack([C, 2 * C]))
                outs.append((np.asarray(grad), np.asarray(batch)))
        finally:
            V.NPR_VECTORISE = True
    assert "npr_vfor" in _converted(tri_sum)
    (grad, batch), (loop_grad, loop_batch) = outs
    assert np.array_equal(batch, loop_batch)
    # contributions summed in another order (a TPU's float64 pair: 1e-13 measured there)
    np.testing.assert_allclose(grad, loop_grad, rtol=1e-12 if on_tpu() else 1e-14)
    assert np.allclose(outs[0][1][0], tri_sum(C.copy(), A))


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_SPECIAL = st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 2.5])  # (no overflow: a sum's order would show)
_VALUES = st.one_of(st.floats(-1e3, 1e3).filter(lambda v: v == 0 or abs(v) > 1e-100), _SPECIAL)
_COMPILED = {}


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(n=st.integers(1, 5), m=st.integers(1, 3), data=st.data())
def test_new_lane_forms_with_signed_zeros_infs_and_nans(n, m, data):
    """Columns: NumPy's bits; reads of later positions: NumPy's sums (XLA's order), NaNs where NumPy's."""
    draw = lambda size: np.array(data.draw(st.lists(_VALUES, min_size=size, max_size=size)))  # noqa: E731
    for fn, args, exact in ((columns, (draw(n * m).reshape(n, m), np.zeros((n, m))), True),
                            (later_ascending, (draw(n),), False), (earlier_descending, (draw(n),), False)):
        if fn not in _COMPILED:
            _COMPILED[fn] = np2ref.compile(fn)
        theirs, ours = [a.copy() for a in args], [a.copy() for a in args]
        with np.errstate(all="ignore"):
            fn(*theirs)
        _COMPILED[fn](*ours)
        if exact:
            assert _same_bits(theirs[-1], ours[-1])
        else:
            np.testing.assert_allclose(ours[-1], theirs[-1], rtol=1e-13, atol=1e-12, equal_nan=True)


def _same_bits(want, got):
    """Bit for bit (signed zeros too), NaN where NumPy has NaN (its sign and payload unspecified)."""
    nan = np.isnan(want)
    return np.array_equal(nan, np.isnan(got)) and want[~nan].tobytes() == got[~nan].tobytes()
