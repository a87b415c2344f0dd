"""np2ref.compile: NumPy semantics at the call, write-back, .pure under jit/vmap/grad, errors."""

from __future__ import annotations

import functools
import inspect

import jax
import numpy as np
import pytest

import np2ref
from conftest import program as load_program, ROOT, assert_same_as_numpy, result_types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from np2ref.verify.compare import first_difference


def api():
    return load_program("api")


@functools.cache
def compiled(name, **kw):
    return np2ref.compile(getattr(api(), name), **kw)


def test_write_back_and_result():
    u = np.linspace(0.0, 1.0, 6) ** 2
    expected, _ = assert_same_as_numpy(api().step, compiled("step"), u, 0.1)
    c = compiled("step")
    assert c.mutated == ("u",)
    assert "npr_at(u)[1:-1] +=" in c.source
    v = u.copy()
    c(v, 0.1)
    assert not np.array_equal(v, u)  # the caller's array changed in place


def test_only_mutated_arguments_are_written():
    a, b = np.zeros(3), np.full(3, 4.0)
    compiled("reader_and_writer")(a, b)
    assert np.array_equal(a, np.full(3, 8.0)) and np.array_equal(b, np.full(3, 4.0))


def test_same_array_twice_shares_one_ref():
    a = np.zeros(2)
    compiled("two_writers")(a, a)
    ref = np.zeros(2)
    api().two_writers(ref, ref)
    assert np.array_equal(a, ref)


def test_overlapping_reader_is_refused():
    a = np.arange(4.0)
    with pytest.raises(np2ref.Np2RefError) as info:
        compiled("reader_and_writer")(a[1:], a[:-1])
    assert "NPR206" in str(info.value)
    assert np.array_equal(a, np.arange(4.0))


def test_returned_argument_is_the_callers_array():
    u = np.ones(3)
    out = compiled("returns_arg")(u)
    assert out is u and np.array_equal(u, np.full(3, 2.0))


def test_failed_call_changes_nothing():
    u = np.zeros(3)
    with pytest.raises(ValueError, match="must not be positive"):
        compiled("raises_midway")(u, 1)
    assert np.array_equal(u, np.zeros(3))
    assert compiled("raises_midway")(u, 0) is u and u[0] == 99.0


def test_static_ints_and_one_compile_per_signature():
    c = compiled("sized")
    a = c(5, 1.5)
    assert a.shape == (5,) and a.dtype == np.float64 and a[2] == 1.5
    assert c(5, 2.5)[0] == 2.5  # a new float value: traced, no new compile
    assert len(c._entry._jitted) == 1
    c(7, 1.0)
    assert len(c._entry._jitted) == 2


def test_pure_under_jit_vmap_grad():
    c = compiled("step")
    u = np.linspace(0.0, 1.0, 6) ** 2
    with jax.enable_x64(True):
        result, finals = jax.jit(c.pure)(u, 0.1)
        expected_u = u.copy()
        expected = api().step(expected_u, 0.1)
        assert np.allclose(result, expected) and np.allclose(finals["u"], expected_u)
        batch = np.stack([u, 2 * u, 3 * u])
        results, finals = jax.vmap(c.pure, in_axes=(0, None))(batch, 0.1)
        for i in range(3):
            row = batch[i].copy()
            assert np.allclose(results[i], api().step(row, 0.1)) and np.allclose(finals["u"][i], row)
        g = jax.grad(lambda a: c.pure(u, a)[0])(0.1)
    h = 1e-6
    fd = (api().step(u.copy(), 0.1 + h) - api().step(u.copy(), 0.1 - h)) / (2 * h)
    assert np.isclose(g, fd, rtol=1e-6)


def test_grad_through_a_local_ref():
    c = compiled("loss_like")
    x = np.array([1.0, -2.0, 0.5])
    with jax.enable_x64(True):
        g = np.asarray(jax.grad(lambda w: c.pure(x, w)[0])(0.3))
    h = 1e-6
    fd = (api().loss_like(x, 0.3 + h) - api().loss_like(x, 0.3 - h)) / (2 * h)
    assert np.isclose(g, fd, rtol=1e-6)


def test_float32_policy():
    c = np2ref.compile(api().step, dtype_policy="float32")
    u = np.linspace(0.0, 1.0, 6) ** 2
    v = u.copy()
    r = c(v, 0.1)
    expected = api().step(u, 0.1)
    assert v.dtype == np.float64 and np.allclose(v, u, rtol=1e-5)
    assert np.isclose(r, expected, rtol=1e-5)


def test_verify_true_checks_first_call():
    c = np2ref.compile(api().step, verify=True)
    u = np.linspace(0.0, 1.0, 6) ** 2
    c(u, 0.1)
    assert c._verified


@pytest.mark.parametrize("fn,code", [
    (lambda u: u, "NPR020"),
    (np.sum, "NPR020"),
    (len, "NPR020"),
])
def test_refuses_what_has_no_source(fn, code):
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn)
    assert code in str(info.value)


def test_refuses_generators_globals_and_closures():
    with pytest.raises(np2ref.Np2RefError, match="NPR013"):
        np2ref.compile(api().gen)
    with pytest.raises(np2ref.Np2RefError, match="NPR010"):
        np2ref.compile(api().uses_global)
    n = 0

    def counting(u):
        nonlocal n
        n += 1
        u *= n

    def helper(u):
        return u * 2

    def calls_helper(u):
        return helper(u) + 1

    for fn, why in ((counting, "nonlocal"), (calls_helper, r"helper \(a function\)")):
        with pytest.raises(np2ref.Np2RefError, match=f"NPR022.*{why}"):
            np2ref.compile(fn)


def test_a_closure_reads_the_enclosing_functions_variables_at_each_call():
    """A nested function compiled where it is defined (a kernel inside main()): its cells are
    read as module-level values are, again at every call, so a rebinding of the enclosing
    variable or a write into an array it holds reaches the program."""
    k, w, rows = 2.0, np.array([1.0, -1.0, 0.5]), 3

    def closure(u):
        u *= k  # (no nonlocal: the word in a comment does not refuse it; the bytecode tells)
        u[:rows] += w
        return u.sum() * len(w)

    c = np2ref.compile(closure, host_below=0)
    assert_same_as_numpy(closure, c, np.arange(4.0))
    k = 3.0  # noqa: F841 (read through the cell)
    assert_same_as_numpy(closure, c, np.arange(4.0))
    w[0] = 10.0
    assert_same_as_numpy(closure, c, np.arange(4.0))
    w = np.ones(3)  # noqa: F841
    assert_same_as_numpy(closure, c, np.arange(4.0))

    @np2ref.compile
    def later(u):  # decorated above the assignment of `dt`: read at the first call
        return u * dt

    with pytest.raises(NameError):
        later(np.ones(2))
    dt = 0.5
    np.testing.assert_array_equal(later(np.ones(2)), np.full(2, 0.5))


def test_method_is_refused():
    class A:
        def f(self, u):
            u[0] = 1

    with pytest.raises(np2ref.Np2RefError, match="NPR020"):
        np2ref.compile(A().f)


def test_wrong_shape_raises_like_numpy():
    with pytest.raises(ValueError):
        compiled("reader_and_writer")(np.zeros(3), np.zeros(4))


def test_vmap_and_grad_through_data_dependent_if_and_while():
    # refs reach lax.cond / lax.while_loop as operands (JAX 0.10 cannot batch ref effects there)
    c = compiled("damp_until_small")
    batch = np.array([[4.0, 2.0, 1.0], [-3.0, 0.5, 0.25], [0.1, 0.0, 0.0]])
    with jax.enable_x64(True):
        steps, finals = jax.jit(jax.vmap(lambda b: c.pure(b, 0.3)))(batch)  # one compile
        for i, row in enumerate(batch):
            expected_u = row.copy()
            assert int(steps[i]) == api().damp_until_small(expected_u, 0.3)
            assert np.array_equal(finals["u"][i], expected_u)
    u = np.array([4.0, 2.0, 1.0])
    # eager: the while's condition is concrete here; under jit its reverse derivative is NPR124
    with jax.enable_x64(True):  # the branch taken is piecewise constant: d(sum u_final)/du = 0.5**k
        g = jax.grad(lambda v: c.pure(v, 0.3)[1]["u"].sum())(u)
    k = api().damp_until_small(u.copy(), 0.3)
    assert np.allclose(g, 0.5 ** k)


def test_grad_through_loops_that_make_scratch_arrays():
    c = compiled("relax_with_scratch")
    p0, b0 = np.zeros(7), np.random.default_rng(1).random(7)
    d = np.random.default_rng(0).standard_normal(7)
    loss = lambda b: c.pure(p0, b, 2, 3)[0].sum()  # noqa: E731
    with jax.enable_x64(True):
        g = np.asarray(jax.jit(jax.grad(loss))(b0))  # jitted: one compile each
        jv = float(jax.jit(lambda b, t: jax.jvp(loss, (b,), (t,))[1])(b0, d))
    h = 1e-6
    fd = (api().relax_with_scratch(p0.copy(), b0 + h * d, 2, 3).sum()
          - api().relax_with_scratch(p0.copy(), b0 - h * d, 2, 3).sum()) / (2 * h)
    assert np.isclose(g @ d, jv, rtol=1e-12) and np.isclose(jv, fd, rtol=1e-6)


def test_int_of_array_data_indexes_a_table():
    x, table = np.array([0.5, 3.9, -2.5, 7.0]), np.array([1.0, 10.0, 100.0, 1000.0])
    assert compiled("table_lookup")(x, table) == api().table_lookup(x, table)


@pytest.mark.parametrize("j", [0, 2, 3])
def test_self_copy_follows_numpy_copy_order(j):
    a = np.arange(16.0).reshape(4, 4)
    expected, got = a.copy(), a.copy()
    api().row_into_column(expected, j)
    compiled("row_into_column")(got, j)
    assert np.array_equal(got, expected)
    u = np.arange(25.0).reshape(5, 5)
    expected, got = u.copy(), u.copy()
    api().shifted_copy(expected)
    compiled("shifted_copy")(got)
    assert np.array_equal(got, expected)


def test_self_copy_at_traced_index_is_refused_when_order_shows():
    c = compiled("row_into_column")
    with jax.enable_x64(True), pytest.raises(NotImplementedError, match="NPR125"):
        jax.jit(c.pure)(np.arange(16.0).reshape(4, 4), 2)


def test_augmented_assignment_on_a_new_array_keeps_its_dtype():
    a = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(2, 3)
    got, expected = compiled("scaled_copy")(a.copy()), api().scaled_copy(a.copy())
    assert got.dtype == expected.dtype == np.float32 and np.array_equal(got, expected)


def test_grad_of_multiply_at_with_duplicate_indices():
    # JAX differentiates scatter_mul only with unique indices; np2ref applies one factor at a time
    c = compiled("multiply_at")
    a, b, idx = np.array([1.5, 2.0, 3.0]), np.array([2.0, 3.0, 4.0]), np.array([0, 0, 1])
    with jax.enable_x64(True):
        ga, gb = jax.jit(jax.grad(lambda a, b: c.pure(a, idx, b)[1]["a"].sum(), argnums=(0, 1)))(a, b)
    assert np.allclose(ga, [2.0 * 3.0, 4.0, 1.0]) and np.allclose(gb, [1.5 * 3.0, 1.5 * 2.0, 2.0])


def test_reverse_mode_through_a_data_dependent_while_is_refused_forward_mode_works():
    c = compiled("damp_until_small")
    u, du = np.array([4.0, 2.0, 1.0]), np.array([1.0, -1.0, 0.5])
    loss = lambda v: c.pure(v, 0.3)[1]["u"].sum()  # noqa: E731
    with jax.enable_x64(True):
        with pytest.raises(NotImplementedError, match="NPR124"):
            jax.jit(jax.grad(loss))(u)
        _, tangent = jax.jit(lambda v, d: jax.jvp(loss, (v,), (d,)))(u, du)
    k = api().damp_until_small(u.copy(), 0.3)
    assert np.isclose(tangent, 0.5 ** k * du.sum())


@pytest.mark.parametrize("name, args", [
    ("sweep_rows", (2,)), ("sweep_rows_and_base", ()), ("sweep_overlapping_views", ()),
])
def test_loops_over_row_views_of_one_buffer(name, args):
    # disjoint row views get their own refs for the loop; shared or overlapping ones do not
    work = np.random.default_rng(3).random((4, 7)) + 1.0
    expected_work, got_work = work.copy(), work.copy()
    expected = getattr(api(), name)(expected_work, *args)
    got = compiled(name)(got_work, *args)
    # (XLA may contract `d[i] -= m * d[i - 1]` into a fused multiply-add: last-bit differences)
    assert np.allclose(got_work, expected_work, rtol=1e-13, atol=0)
    assert expected is None or np.allclose(got, expected, rtol=1e-13, atol=0)
    with jax.enable_x64(True):  # and batched: each instance its own buffer
        batch = np.stack([work, work[::-1].copy()])
        _, finals = jax.vmap(lambda w: compiled(name).pure(w, *args))(batch)
    for i in range(2):
        one = batch[i].copy()
        getattr(api(), name)(one, *args)
        assert np.allclose(finals["work"][i], one, rtol=1e-14)


def test_grad_through_row_views_of_one_buffer():
    c = compiled("sweep_rows")
    w0, dw = np.random.default_rng(4).random((4, 6)) + 1.0, np.random.default_rng(5).standard_normal((4, 6))
    loss = lambda w: c.pure(w, 2)[0]  # noqa: E731
    with jax.enable_x64(True):
        g = np.asarray(jax.jit(jax.grad(loss))(w0))
        _, jv = jax.jit(lambda w, d: jax.jvp(loss, (w,), (d,)))(w0, dw)
    h = 1e-6
    fd = (api().sweep_rows(w0 + h * dw, 2) - api().sweep_rows(w0 - h * dw, 2)) / (2 * h)
    assert np.isclose(np.sum(g * dw), jv, rtol=1e-10) and np.isclose(jv, fd, rtol=1e-6)


def test_each_signature_returns_its_own_result_shape():
    # the result's structure is taken from the executable that ran: a retrace for new shapes
    # must not hand an earlier signature the later one's tree
    c = np2ref.compile(api().shape_dependent_result)
    for n in (5, 2, 5, 2):
        a = np.zeros(n)
        out = c(a)
        expected = api().shape_dependent_result(np.zeros(n))
        if n > 3:
            assert isinstance(out, tuple) and out[0] is a and out[1] == expected[1] == n
            assert type(out[1]) is int
        else:
            assert out is a
        assert np.array_equal(a, np.ones(n))


def test_repeated_calls_check_aliasing_every_time():
    # a first positional call leaves a plan for calls like it; the plan still refuses
    # overlapping buffers, still shares one ref for one array passed twice, and a refused call
    # still writes nothing
    writers = np2ref.compile(api().two_writers)
    reader = np2ref.compile(api().reader_and_writer)
    for _ in range(2):
        a, b = np.zeros(2), np.zeros(2)
        writers(a, b)
        assert np.array_equal(a, [1.0, 0.0]) and np.array_equal(b, [2.0, 0.0])
        reader(np.zeros(3), np.ones(3))
    a, ref = np.zeros(2), np.zeros(2)
    writers(a, a)
    api().two_writers(ref, ref)
    assert np.array_equal(a, ref)
    a = np.arange(4.0)
    for _ in range(2):
        with pytest.raises(np2ref.Np2RefError) as info:
            reader(a[1:], a[:-1])
        assert "NPR206" in str(info.value)
        assert np.array_equal(a, np.arange(4.0))
    x, ref = np.arange(6.0), np.arange(6.0)
    reader(x[::2], x[1::2])  # interleaved views share bounds but no element: allowed
    api().reader_and_writer(ref[::2], ref[1::2])
    assert np.array_equal(x, ref) and not np.array_equal(x, np.arange(6.0))


def test_reshape_views_need_c_contiguous_written_arrays_on_every_call():
    c = np2ref.compile(api().flat_first)
    for _ in range(2):
        u = np.zeros((2, 3))
        c(u)
        assert u[0, 0] == 7.0
    t = np.zeros((3, 2)).T
    with pytest.raises(np2ref.Np2RefError, match="not C-contiguous"):
        c(t)
    assert not t.any()


def test_writing_into_a_helpers_none_raises_typeerror_like_numpy():
    with pytest.raises(TypeError, match="'NoneType' object does not support item assignment"):
        api().writes_into_none(np.zeros(3))
    u = np.zeros(3)
    with pytest.raises(TypeError, match="'NoneType' object does not support item assignment"):
        compiled("writes_into_none")(u)
    assert not u.any()  # a failed call writes nothing back


def _call_args(name, n, how):
    """(the buffer every array argument is a view of, the arguments) for one call; `how` sets
    whether two array arguments share that buffer: apart, the same array, overlapping views,
    or interleaved views that share no element."""
    base = np.arange(2.0 * n + 2) * 0.5 + 1.0
    if name == "sized":
        return base, (n, 1.5)
    if name == "shape_dependent_result":
        return base, (base[:n],)
    return base, {"apart": (base[:n], np.full(n, -2.0)), "same": (base, base),
                  "overlap": (base[1:n + 1], base[:n]), "interleaved": (base[0:2 * n:2], base[1:2 * n:2]),
                  }[how]


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.sampled_from(["shape_dependent_result", "reader_and_writer", "two_writers", "sized"]),
                          st.sampled_from([2, 5]), st.sampled_from(["apart", "same", "overlap", "interleaved"]),
                          st.integers(0, 2)),
                min_size=3, max_size=8))
def test_call_sequences_agree_with_numpy(calls):
    """Any sequence of calls, with new shapes, static values and aliasing between calls, and
    the last `by_name` arguments passed by keyword, agrees with NumPy call by call (result,
    identity of returned arguments, every write), or is refused with NPR206 and writes nothing
    when an argument it writes shares memory."""
    for name, n, how, by_name in calls:
        fn, c = getattr(api(), name), compiled(name)
        base_np, args_np = _call_args(name, n, how)
        base, args = _call_args(name, n, how)
        params = list(inspect.signature(fn).parameters)[:len(args)]
        cut = len(args) - min(by_name, len(args))
        keywords = dict(zip(params[cut:], args[cut:]))
        call = lambda: c(*args[:cut], **keywords)  # noqa: E731
        arrays = [a for a in args if isinstance(a, np.ndarray)]
        shared = len(arrays) == 2 and np.shares_memory(*arrays)
        if shared and not (arrays[0] is arrays[1] and name == "two_writers"):
            with pytest.raises(np2ref.Np2RefError, match="NPR206"):
                call()
            assert np.array_equal(base, _call_args(name, n, how)[0]), "a refused call wrote"
            continue
        expected, got = fn(*args_np), call()
        assert first_difference(expected, got) is None, (name, n, how, first_difference(expected, got))
        assert np.array_equal(base_np, base), (name, n, how)
        flat_expected = expected if isinstance(expected, tuple) else (expected,)
        flat_got = got if isinstance(got, tuple) else (got,)
        assert [any(x is a for a in args_np) for x in flat_expected] == \
            [any(x is a for a in args) for x in flat_got], (name, n, how)


def test_calls_bind_like_python():
    """Defaults, keywords and the errors Python's binding gives, through the per-call plan."""
    c = compiled("returns_arg")
    u = np.ones(3)
    assert c(u=u) is u and c(u) is u and np.array_equal(u, np.full(3, 4.0))
    for bad in (lambda: c(u, u=u), lambda: c(u, v=u), lambda: c(), lambda: c(u, u)):
        with pytest.raises(TypeError):
            bad()
    assert np.array_equal(u, np.full(3, 4.0))
    s = compiled("sized")
    assert np.array_equal(s(fill=2.0, n=3), api().sized(3, 2.0)) and np.array_equal(s(3, fill=1.0), [1.0, 0.0, 1.0])


def test_defaults_and_keywords_agree_with_numpy():
    c = compiled("scale_by")
    for args, kwargs in [((), {}), ((), {"times": 2}), ((3.0,), {}), ((), {"s": 0.5, "times": 3}),
                         ((0.5,), {"times": 2}), ((), {})]:
        assert_same_as_numpy(api().scale_by, c, np.arange(4.0), *args, **kwargs)
    assert len(c._entry._plans) == 3  # times=1, 2, 3: one plan per static value, keyword or not


@pytest.mark.parametrize("flag", [False, True])
def test_read_only_arrays_raise_only_when_written(flag):
    """A parameter the function may write, passed read-only: NumPy raises only if the write
    happens; np2ref then raises the same ValueError and writes nothing back at all."""
    def args():
        u = np.arange(3.0)
        u.flags.writeable = False
        return u, np.ones(2), flag
    c = compiled("maybe_reset")
    for _ in range(2):  # the general path, then the per-signature plan
        if flag:
            with pytest.raises(ValueError, match="read-only"):
                api().maybe_reset(*args())
            u, w, _ = args()
            with pytest.raises(ValueError, match="read-only"):
                c(u, w, flag)
            assert np.array_equal(w, np.ones(2)) and np.array_equal(u, np.arange(3.0))
        else:
            u, w, _ = args()
            expected_w = np.ones(2)
            assert c(u, w, flag) == api().maybe_reset(args()[0], expected_w, flag) == 3.0
            assert np.array_equal(w, expected_w) and not u.flags.writeable


THREADED = '''
import numpy as np


def shift_add(a, s):
    a[1:] += s * a[:-1]


def simulate(u, s, steps):
    for k in range(steps):
        shift_add(u, s)
        u[0] = u[-1] * 0.5
    return u.sum()
'''


def test_threads_trace_and_call_at_once(tmp_path):
    """A converted module's functions called from several threads, each call a new shape (so
    each traces) while others run: the runtime's trace-time state is per thread. With one
    state for all, a host call made while another thread traced ran the ref program on NumPy
    arrays (TypeError from npr_at)."""
    from concurrent.futures import ThreadPoolExecutor
    path = tmp_path / "threaded_ref.py"
    path.write_text(np2ref.convert_source(THREADED, "threaded.py").code)
    converted, original = {}, {}
    exec(compile(path.read_text(), str(path), "exec"), converted)
    exec(THREADED, original)

    def job(k):
        u = np.linspace(0.0, 1.0, 6 + k)
        v = u.copy()
        return converted["simulate"](u, 0.1, 3), original["simulate"](v, 0.1, 3), u, v

    with ThreadPoolExecutor(4) as pool:
        for got, expected, u, v in pool.map(job, range(12)):
            assert first_difference(expected, got) is None and np.allclose(u, v, rtol=1e-12, atol=0)


@pytest.mark.parametrize("dtype", [">f8", ">f4", "<f4"])
def test_arrays_in_either_byte_order(dtype):
    """Big-endian data (as read from FITS or other binary files): computed in native order,
    written back into the caller's array in its own byte order, on the first call and after."""
    c = compiled("step")
    for _ in range(2):
        u = (np.arange(6) ** 2).astype(dtype)
        expected_u = u.copy()
        expected = api().step(expected_u, 1)
        got = c(u, 1)
        assert u.dtype == np.dtype(dtype) and np.array_equal(u, expected_u) and got == expected


def test_object_arrays_get_a_type_error_naming_the_argument():
    u = np.array([1.0, 2.0, 3.0], dtype=object)
    with pytest.raises(TypeError, match=r"step\(\): argument `u` has dtype object"):
        compiled("step")(u, 0.1)
    assert list(u) == [1.0, 2.0, 3.0]


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_array_subclasses_that_change_operators_are_refused(tmp_path):
    """np.matrix's `*` is a matrix product and masked arrays skip masked elements: computing
    on their raw data would give other answers than NumPy, so the call names them instead.
    np.memmap is plain storage: computed and written back like an ndarray."""
    m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    masked = np.ma.masked_array([1.0, 100.0, 3.0, 4.0], mask=[False, True, False, False])
    for value, kind in ((m, "numpy.matrix"), (masked, "MaskedArray")):
        with pytest.raises(TypeError, match=rf"argument `u` is a .*{kind}.*np.asarray\(u\)"):
            compiled("step")(value, 0.1)
    mm = np.memmap(tmp_path / "u.dat", dtype=np.float64, mode="w+", shape=(6,))
    mm[:] = np.arange(6.0) ** 2
    expected_u = np.array(mm)
    expected = api().step(expected_u, 0.1)
    assert compiled("step")(mm, 0.1) == expected and np.array_equal(mm, expected_u)


def test_a_list_for_a_written_parameter_is_refused_a_read_one_is_an_array():
    with pytest.raises(TypeError, match=r"argument `a` is a list, which the function writes"):
        compiled("reader_and_writer")([0.0, 0.0], np.ones(2))
    a = np.zeros(2)
    compiled("reader_and_writer")(a, [1.0, 2.0])
    assert np.array_equal(a, [api().SCALE, 2 * api().SCALE])


def test_returned_views_of_a_written_argument_are_views_of_the_callers_array():
    """Each result NumPy gives as a view of the argument is a view of the caller's array (a
    write through it shows in the argument, and the other way round); a copy stays a copy,
    and a view at an index known only at run time (`u[k]`, k traced) comes back as a copy."""
    c = np2ref.compile(api().views_of_written, static_argnames=())
    for _ in range(2):  # the general path, then the per-signature plan
        u, expected_u = np.arange(12.0).reshape(3, 4), np.arange(12.0).reshape(3, 4)
        got = c(u, 2)
        expected = api().views_of_written(expected_u, 2)
        assert first_difference(expected, got) is None and np.array_equal(u, expected_u)
        assert [np.shares_memory(r, expected_u) for r in expected] == [True] * 5 + [False]
        assert [np.shares_memory(r, u) for r in got] == [True] * 4 + [False, False]
        got[0][0, 0] = -1.0
        assert u[1, 0] == -1.0 and got[1][0, 1] == -1.0 and got[2][0] == -1.0


def test_fixed_results_equal_but_not_identical_stay_apart():
    """Python values fixed at trace time are told apart by identity of the executable that
    made them: True == 1 must not hand one function's result to another, nor 0 to False."""
    assert compiled("gives_true")(np.ones(2))[1] is True
    out = compiled("gives_one")(np.ones(2))[1]
    assert out == 1 and type(out) is int
    c = np2ref.compile(api().same_twice)
    for s in (0, False, 1, True):  # static: Python values fixed at trace time
        got = c(np.zeros(3), s)
        assert got[4] is s or (type(got[4]) is type(s) and got[4] == s)


def test_one_object_returned_twice_is_one_object_and_results_are_writable():
    a, s = np.zeros(4), 2.5
    got = compiled("same_twice")(a, s)
    expected = api().same_twice(np.zeros(4), s)
    assert first_difference(expected, got) is None
    assert got[0] is got[1] and np.shares_memory(got[0], a)
    assert got[4] == s and got[5] == s
    assert expected[2] is expected[3] and got[2] is got[3]  # `c, c`: one object, as in NumPy
    got[2][0] = -1.0  # NumPy's results are writable arrays (JAX's CPU buffers are read-only)
    assert got[3][0] == -1.0


def test_arrays_inside_containers_are_checked_for_overlap():
    a = np.zeros(3)
    with pytest.raises(np2ref.Np2RefError, match=r"`a` and `t\[0\]` share memory"):
        compiled("reads_a_tuple")(a, (a,))
    assert not a.any()
    b = np.zeros(3)
    assert compiled("reads_a_tuple")(b, (np.ones(2),)) == 2.0 and np.array_equal(b, np.ones(3))


def test_an_array_default_is_one_array_that_calls_write_into():
    """Defaults stay NumPy, evaluated once at definition: a written default accumulates over
    calls as in NumPy (and keeps its dtype)."""
    c = np2ref.compile(api().accumulate_into_default)
    assert "acc=np.zeros(3)" in c.source
    got = [c(np.ones(3)) for _ in range(3)]
    assert got[0] is got[2] and got[0].dtype == np.float64 and np.array_equal(got[0], np.full(3, 3.0))


@pytest.mark.skipif(np.dtype(np.longdouble).itemsize <= 8, reason="long double is float64 here")
def test_long_double_arrays_get_a_type_error_naming_the_argument():
    with pytest.raises(TypeError, match=rf"argument `u` has dtype {np.dtype(np.longdouble)}"):
        compiled("step")(np.zeros(4, np.longdouble), 0.1)


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
def test_ufunc_at_that_casts_after_each_element_agrees_with_numpy(dtype):
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 5, 40)
    w = rng.random(40) * (3.0 if dtype == np.int32 else 1e-7)
    c = compiled("weighted_counts")
    for _ in range(2):
        assert_same_as_numpy(api().weighted_counts, c, np.arange(5, dtype=dtype), idx, w)
    with jax.enable_x64(True):  # under vmap too: a batch of two weight vectors
        batch = np.stack([w, w[::-1]])
        _, finals = jax.vmap(c.pure, in_axes=(None, None, 0))(np.arange(5, dtype=dtype), idx, batch)
    for k in range(2):
        expected = np.arange(5, dtype=dtype)
        api().weighted_counts(expected, idx, batch[k])
        assert np.array_equal(finals["counts"][k], expected)


def _redefined(x):
    return x * 2


_FIRST_REDEFINED = _redefined


def _redefined(x):  # noqa: F811  (a script that defines a name twice)
    return x * 3


def _scaled(x):
    return x * 5


class _Stepper:
    def _scaled(self, x):
        return x * 7


def test_the_function_compiled_is_the_one_passed_not_another_def_of_its_name():
    """compile(first_f) of a name the module defines twice compiled the second `def`, and
    compile(C.step) the module-level `step`: a silent wrong answer. The function's own source is
    translated then; a refusal inside it names its line in the file."""
    x = np.ones(2)
    np.testing.assert_array_equal(np2ref.compile(_FIRST_REDEFINED, host_below=0)(x), x * 2)
    np.testing.assert_array_equal(np2ref.compile(_redefined, host_below=0)(x), x * 3)
    np.testing.assert_array_equal(np2ref.compile(_Stepper._scaled, host_below=0)(_Stepper(), x), x * 7)
    np.testing.assert_array_equal(np2ref.compile(_scaled, host_below=0)(x), x * 5)


def _new_arrays_of_an_argument(a):
    return +a, np.positive(a), np.conj(a), a.flatten(), a.astype(a.dtype)


def test_operations_numpy_answers_with_a_new_array_do_not_return_the_argument():
    """`+a`, np.positive(a), np.conj of a real `a`, `a.flatten()` of a 1-D `a`: jax.numpy hands
    back `a` itself, which the call took for the argument returned (the caller's own array: a
    write into the result changed the argument). NumPy returns new arrays."""
    a = np.arange(4.0)
    results = np2ref.compile(_new_arrays_of_an_argument, host_below=0)(a)
    for r in results:
        assert r is not a and not np.shares_memory(r, a)
        np.testing.assert_array_equal(r, a)


def _all_close_flag(a, b):
    if np.allclose(a, b):
        return 1
    return 0


def test_python_ints_chosen_by_a_branch_on_data_come_back_as_python_ints():
    """`if np.allclose(a, b): return 1` / `return 0`: the branch is a lax.cond, and its value was
    returned as np.int64 (the function had no float()/int() call or loop, so its Python scalars
    were not looked for); NumPy's function returns a Python int."""
    f = np2ref.compile(_all_close_flag, host_below=0)
    for b in (np.ones(2), np.zeros(2)):
        got = f(np.ones(2), b)
        assert type(got) is int and got == _all_close_flag(np.ones(2), b)


def test_a_module_is_analysed_once_for_all_its_compiled_functions():
    """np2ref.compile converts the function's whole module (module-level names, callees): the
    stages before diagnosis run once per module text (pipeline._front), and a conversion from
    that cache is the conversion from scratch."""
    from np2ref import pipeline

    text = "import numpy as np\n\n" + "".join(
        f"def f{k}(x, y):\n    x[1:] += y[:-1] * {k}\n    return x\n\n\n" for k in range(6))
    pipeline._front.cache_clear()
    cold = {}
    for k in range(6):
        cold[k] = pipeline.convert_source(text, "m.py", only={f"f{k}"})
        pipeline._front.cache_clear()
    warm = {k: pipeline.convert_source(text, "m.py", only={f"f{k}"}) for k in range(6)}
    info = pipeline._front.cache_info()
    assert (info.misses, info.hits) == (1, 5)
    for k in range(6):
        assert warm[k].code == cold[k].code and warm[k].diagnostics == cold[k].diagnostics
        assert set(warm[k].functions) == {f"f{k}"} and warm[k].exec_source == cold[k].exec_source
    assert pipeline.convert_source(text + "def g(:\n", "m.py").code is None  # a syntax error still reported


def grows_a_list(u, w, n):
    for t in range(n):
        u[0] += len(w + [t])  # Python joins the lists: 3 each trip
    return u


def joins_and_sums(u, w):
    u[0] = len(w + [1.0])
    u[1] = sum(w)
    return u


def adds_a_list(u, w):
    u[:] = u + w  # NumPy makes the list an array
    return u


def repeats_a_list(u, w, n):
    v = w * 2  # Python repeats the list: 4 values
    for k in range(n):
        u[k] = len(n * w) + len(v) + k  # n an integer (range's bound): 2n values
    return u


def scales_a_list(u, w):
    u[:] = u * w + 1.0  # an array operand: NumPy makes the list an array
    return u


def repeats_and_joins(u, w, n):
    for t in range(n):
        u[0] += len(w * 2) + len(w + w)  # Python repeats and joins the list: 4 each, not 2
    u[1] = sum(w * 2)
    return u


def joins_and_adds(u, w):
    u[:2] = u[:2] + w  # w is kept a list (joined below): NumPy makes it an array here
    return w + [u.sum()], u


def sums_a_joined_list(u, w, n):
    b = [0.5, 2.0]
    for t in range(n):
        u[0] += np.sum(w + [t]) + np.max(b + [t])  # jnp.sum refused the joined list (TypeError)
    u[1] = np.sum(b * 2)
    return u


@pytest.mark.parametrize("fn, args", [(grows_a_list, ([1.0, 2.0], 3)), (joins_and_sums, ([1.0, 2.0],)),
                                      (adds_a_list, ([1.0, 2.0, 3.0],)), (repeats_a_list, ([1.0, 2.0], 3)),
                                      (scales_a_list, ([1.0, 2.0, 3.0],)), (repeats_and_joins, ([1.0, 2.5], 2)),
                                      (joins_and_adds, ([1.5, 2.0],)), (sums_a_joined_list, ([1, 2], 3))])
def test_a_list_argument_is_a_list_where_python_joins_it_and_an_array_where_numpy_computes(fn, args):
    """A list argument joined with a list (`w + [t]`, npr_seq_op) or multiplied by an integer
    (`w * 2`, `k * w`) stays a list of values (npr_jit's `lists=`): made an array, `+` and `*`
    computed elementwise (len 2 where Python gives 3 or 4, a silent wrong answer). Kept a list, it
    is made an array where it meets one (`u + w`: _npr_binop) or a NumPy function takes it
    (`np.sum(w + [t])`: npr_np_array), as NumPy makes it; both raised TypeError (the fuzzer's
    list_join family)."""
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), np.zeros(3), *args)


def returns_its_list(u, w):
    u[0] += np.sum(w) + len(w)  # an array for NumPy's sum
    return w, u


def test_a_list_argument_returned_is_the_callers_list():
    """`return w` gives back the caller's list, as Python does (np2ref made it an array, and
    returned that: the fuzzer's list_join family); `.pure` takes the list as a call does (jnp.sum
    refused the list under jax.vmap)."""
    w = [1.5, -2.0]
    got = np2ref.compile(returns_its_list, host_below=0)(np.zeros(2), w)
    expected = returns_its_list(np.zeros(2), w)
    assert got[0] is w and expected[0] is w
    np.testing.assert_array_equal(got[1], expected[1])
    pure = np2ref.compile(returns_its_list, host_below=0).pure
    with jax.enable_x64(True):
        assert pure(np.zeros(2), w)[0][0] is w
        (listed, u), _ = jax.vmap(lambda u: pure(u, w))(np.zeros((2, 2)))
    assert [np.asarray(v).tolist() for v in listed] == [[v, v] for v in w]  # vmap's outputs: arrays
    np.testing.assert_array_equal(u, np.tile(expected[1], (2, 1)))


def joins_and_returns_its_items(u, w):
    t = w + [u.sum()]  # w kept a list (npr_jit's `lists=`), its numbers traced
    return w[0], t[-1], w


def test_a_joined_list_arguments_numbers_come_back_as_pythons():
    """`w + [t]` keeps w a list of traced numbers: `return w[0]` or `w` gave np.float64 (or
    np.int64) where NumPy returns the caller's Python floats (ints): the fuzzer's runner, which
    compares Python scalar result types, on the list_join family."""
    for w in ([1.5, -2.0], [2, 3]):
        expected, got = assert_same_as_numpy(joins_and_returns_its_items, np2ref.compile(joins_and_returns_its_items,
                                                                                         host_below=0), np.zeros(2), w)
        assert result_types(got) == result_types(expected), (result_types(got), result_types(expected))


def solver_report(A, b, tol):
    x = np.zeros_like(b)
    r = b.copy()
    for k in range(50):
        step = r / np.diag(A)
        x += step
        r = b - A @ x
        if np.max(np.abs(r)) < tol:
            break
    return {"x": x, "iterations": k + 1, "stats": {"res": float(np.abs(r).max()), "n": len(b)}, "a": [k, x[0]]}


def test_dict_and_list_results_keep_pythons_order_and_types():
    """`return {"x": x, "iterations": k + 1}` came back with its keys sorted (JAX rebuilds a
    plain dict in sorted key order) and np.int64 for the Python int; a list literal's items too."""
    A = np.diag([4.0, 5.0, 6.0]) + 0.5
    f = np2ref.compile(solver_report, host_below=0)
    for call in range(2):  # the first call and the planned one
        expected, got = assert_same_as_numpy(solver_report, f, A, np.ones(3), 1e-9)
        assert list(got) == list(expected) and list(got["stats"]) == list(expected["stats"])
        assert [type(v) for v in (got["iterations"], *got["stats"].values(), got["a"][0])] == [int, float, int, int]
    pure, _ = f.pure(A, np.ones(3), 1e-9)
    assert type(pure) is dict and list(pure) == list(expected)
    device, _ = f.device(A, np.ones(3), 1e-9)
    assert type(device) is dict and list(device) == list(expected)
