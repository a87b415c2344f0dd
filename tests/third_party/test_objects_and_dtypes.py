"""Third-party-style programs (tests/programs/objects_and_dtypes.py): object-oriented simulation
code, interprocedural mutation through helpers, dtype edges (uint8/int32 wraparound, NEP 50
promotion, bool arithmetic, negative integer division, complex arrays), np.linalg and np.fft
inside loops, each against NumPy: results, every
argument after the call, and the types of Python scalars in the results."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import np2ref
from conftest import ProgramChecks, assert_same_as_numpy, long_tail

CHECKS = ProgramChecks("objects_and_dtypes")
P, compiled, _same = CHECKS.module, CHECKS.compiled, CHECKS.same

R = np.random.default_rng(9)
_SPD = R.random((4, 4))
_SPD = _SPD @ _SPD.T + 4 * np.eye(4)
_DD = R.random((5, 5)) + 5 * np.eye(5)
_IMG = R.integers(0, 256, (4, 5)).astype(np.uint8)
_NEG = np.array([-7, -3, -1, 0, 2, 5, 9])

CASES = {
    # object-oriented code
    "namedtuple_params": (R.random(5), P.Params(0.1, 2.0), 4),
    "class_attribute_constants": (10.0, 0.0, 5),  # was np.float64 results (`Constants.G * Constants.DT`)
    "class_attribute_numpy_scalar": (10.0, 5),
    # interprocedural mutation
    "diffuse_neumann": (R.random(9), 0.2, 4),
    "diffuse_columns_bc": (R.random((6, 4)), 0.2, 3),
    "smooth_periodic": (R.random((6, 7)), 3),
    "rows_by_helper_in_loop": (R.random((3, 4)),),
    "euler_with_out": (R.random(8), 0.1, 3),
    "recursive_sort": (R.random(7),),
    "midpoint_subdivision": (np.concatenate([[1.0], np.zeros(7), [3.0]]),),
    "uses_default_none": (R.random(4),),
    "kernel_passes_buffer": (R.random(3),),
    "tuple_return_helper": (R.random(3), R.random(3), 0.1, 4),
    "returns_its_argument": (R.random(4), 7.0),
    "nested_helpers": (R.random(7), 3),
    "gaussian_elimination_pivot": (_DD[::-1].copy(), R.random(5)),
    "clamp_rows_through_views": (R.normal(0, 3, (4, 5)),),
    "halo_then_write_interior": (R.random(6),),
    # dtype edges
    "brighten_uint8": (_IMG,),
    "brighten_uint8_inplace": (_IMG,),
    "uint8_difference": (_IMG, _IMG[::-1].copy()),
    "uint8_mean_and_sum": (_IMG,),
    "int32_accumulate": (np.array([40000, 50000, 3, -60000], dtype=np.int32),),
    "int32_reductions": (np.array([2 ** 30, 2 ** 30, 5, 7], dtype=np.int32),),
    "int8_cumsum": (np.array([100, 20, 30, -5], dtype=np.int8),),
    "float32_mix": (R.random(4).astype(np.float32),),
    "float32_scalar_loop": (R.random(5).astype(np.float32),),  # was JAX's "not a valid JAX type" (type(s))
    "float32_sum_types": (R.random(5).astype(np.float32),),
    "float32_inplace_with_float64": (R.random(4).astype(np.float32), R.random(4)),
    "bool_arithmetic": (R.random(6) < 0.5, R.random(6) < 0.5),
    "bool_as_index_and_number": (R.normal(size=7),),
    "negative_division": (_NEG, 3),
    "negative_division_by_negative": (_NEG, -3),
    "int_result_types": (np.array([3, 4, 5, 6]),),
    "int_scalar_wrap": (np.array([200, 100], dtype=np.uint8),),
    "returns_types": (R.random(3).astype(np.float32),),
    "returns_numpy_type_object": (R.random(3),),  # was jax.numpy.float64
    "fft_round_trip": (R.random(8),),
    "complex_build_and_parts": (R.random(4), R.random(4)),
    "fft_lowpass": (R.random(16), 4),
    "complex_accumulate": (0.5 * (R.random(3) + 1j * R.random(3)), 4),
    # linalg and fft in loops
    "power_iteration_inplace": (_SPD, np.ones(4), 20),
    "qr_algorithm": (_SPD, 30),
    "gauss_seidel_matrix": (_DD, R.random(5), np.zeros(5), 4),
    "preconditioned_cg_while": (_SPD, R.random(4), 1e-10),
    "implicit_heat_cholesky": (R.random(6), 0.3, 3),
    "spectral_poisson": (R.random((8, 6)),),
    "spectral_derivative_rk": (np.sin(np.linspace(0, 2 * np.pi, 16, endpoint=False)), 0.01, 3),
    "inverse_iteration": (_SPD, 4.5, 10),
    "fft_convolve_loop": (R.random((3, 8)), R.random(3)),
    "eigh_in_loop": (R.random((3, 4, 4)),),
    "rayleigh_quotient_iteration": (_SPD, np.array([1.0, 0.5, 0.2, 0.1]), 3),
    "arnoldi": (_SPD, R.random(4), 3),
    # second batch
    "swap_rows_by_helper": (R.random((3, 4)),),
    "add_into_views": (R.random(5),),
    "normalise_if_large": (R.random(4), 5),
    "closure_bc": (R.random(7), 3),
    "fft_recursive": (R.random(8),),
    "float32_heat_step": (R.random(8).astype(np.float32), 3),
    "int32_scaled_overflow": (np.array([1.0, 30000.0, -25000.5]),),
    "uint8_scalar_overflow": (np.array([[250, 3]], dtype=np.uint8),),
    "int_div_by_zero": (np.array([7, -7, 0, 5]), np.array([0, 2, 0, -3])),
    "int_mean_median": (np.array([[1, 2, 7], [4, 9, 6]]),),
    "float32_round": (np.array([0.125, 2.5, -1.355, 3.14159], np.float32),),
    "float16_arith": (np.array([0.1, 1.5, 100.0]),),
    "lu_inplace": (R.random((4, 4)),),
    "norms_in_loop": (R.random((2, 3, 3)) + 2 * np.eye(3),),
    "heat2d_rfft": (R.random((6, 8)), 0.1, 0.1, 3),
    "fftshift_spectrum": (R.random(8),),
    "cholesky_per_step": (R.random(3), 3),
    "householder_reflect_rows": (R.random((3, 4)),),
    # the same buffer, or overlapping views of one, for `y` and `x` of `y += alpha * x`: NumPy
    # computes alpha * x before it adds, so a value loaded at the call is exact (was NPR201)
    "axpy_same_buffer": (R.random(5), 2.0),
    "axpy_overlapping_views": (R.random(6), 2.0),
    # views returned by helpers and written by the caller, the helper inlined (was NPR205/NPR203)
    "zero_interior_via_helper": (R.random(6),),
    "scale_interior_via_helper": (R.random(6), 3.0),
    "rows_written_through_helper": (R.random((3, 4)),),
}


def _same_args(name):
    return name.removesuffix("_by_negative"), CASES[name]


# the default run leaves out the cases whose np2ref lines the others cover (conftest.long_tail)
LONG = {"add_into_views", "diffuse_columns_bc", "diffuse_neumann", "euler_with_out", "fft_convolve_loop",
        "fft_lowpass", "inverse_iteration", "kernel_passes_buffer", "nested_helpers",
        "power_iteration_inplace", "recursive_sort", "returns_its_argument"}


@pytest.mark.parametrize("name", long_tail(CASES, LONG))
def test_program_matches_numpy(name):
    fname, args = _same_args(name)
    _same(fname, *args)


@pytest.mark.parametrize("fn, args", [
    ("count_in_branch", (np.ones(3), 0)), ("count_in_branch", (-np.ones(3), 0)), ("count_in_branch", (np.ones(3), 2.5)),
    ("count_in_branch", (np.ones(3), np.int32(0))), ("count_in_while", (np.linspace(0.0, 1.0, 6), 0, 0.01)),
    ("count_in_while", (np.linspace(0.0, 1.0, 6), np.zeros(()), 0.01)), ("time_in_while", (np.array([3.0]), 0.0)),
])
def test_a_parameter_counted_under_array_data_keeps_the_type_passed(fn, args):
    """`it += 1` on a parameter, under an `if` or in a `while` on array data: a Python int in,
    a Python int out, as in NumPy (it was np.int64: the branch's and the while loop's carry are
    strongly typed; npr_pyreturn now reads the value the caller passed, `_it_passed`)."""
    _same(fn, *args)


@pytest.mark.parametrize("name, helper, param", [("kernel_leaves_default_out", "acc_helper", "buf"),
                                                  ("kernel_list_default_left_out", "log_value", "hist")])
def test_a_default_a_helper_writes_is_refused_where_a_call_leaves_it_out(name, helper, param):
    """acc_helper(x) writes into its default `buf=np.zeros(3)`, one array every such call shares
    (NumPy's second call returns 6.0); traced, each call wrote into a fresh constant (3.0, 3.0).
    log_value(x) appends to its default `hist=[]`: NumPy's calls return 1, 2, then 3, 4; the
    translation returned 1, 2 on every call."""
    with pytest.raises(np2ref.Np2RefError, match=rf"NPR202 {helper}\(\) writes its parameter `{param}`, left out here"):
        compiled(name)


def test_defaults_passed_or_immutable_are_translated():
    _same("kernel_list_passed", np.ones(2))
    _same("kernel_scalar_default", np.ones(2))


def test_an_object_argument_holding_a_written_argument_is_refused():
    """`f(sim.u, sim)` where f writes `u` and reads `sim.u`: NumPy reads its own write (10.0); the
    compiled program read `sim.u` as the call found it (6.0). Now NPR206, also after a plan was
    made by a call with separate arrays."""
    c = compiled("write_then_read_attr")
    sim = P.Heat1D(np.arange(4.0), 0.1)
    for _ in range(2):
        _, got = assert_same_as_numpy(P.write_then_read_attr, c, np.zeros(4), sim)
        assert got == 6.0
    for u in (sim.u, sim.u[1:]):
        with pytest.raises(np2ref.Np2RefError, match=r"NPR206.*`u` and `sim.u` share memory"):
            c(u, sim)
    assert np.array_equal(sim.u, np.arange(4.0))


@pytest.mark.parametrize("name, other", [("write_then_read_module_array", "W"),
                                         ("write_then_read_module_object", "SIM.u")])
def test_a_written_argument_that_is_a_module_array_the_function_reads_is_refused(name, other):
    """`f(W)` where f writes its parameter and reads the module's `W` (or `SIM.u`): NumPy reads
    the written values; the compiled program held W's values when the call began."""
    c = compiled(name)
    for _ in range(3):  # the plan and the straight-line NumPy call (numpycall.py) check it too
        assert_same_as_numpy(getattr(P, name), c, np.ones(4))
    held = P.W if other == "W" else P.SIM.u
    for u in (held, held[1:]):
        with pytest.raises(np2ref.Np2RefError, match=rf"NPR206.*`u` shares memory with the module-level array `{other}`"):
            c(u)
    assert np.array_equal(P.W, np.arange(4.0)) and np.array_equal(P.SIM.u, np.arange(4.0))


def test_a_numpy_function_returned_as_a_value():
    assert compiled("returns_numpy_function")(np.ones(2)) is np.sin


def test_a_method_and_a_function_of_an_object():
    """np2ref.compile of a method reads `self.u` (checked on every call, as a static argument's
    attributes are), refuses one that writes `self.u` with a hint to pass the array, and refuses a
    bound method (NPR020)."""
    sim = P.Heat1D(np.arange(6.0), 0.2)
    energy = np2ref.compile(P.Heat1D.energy, host_below=0)
    assert energy(sim) == sim.energy()
    sim.u[:] = 1.0
    assert energy(sim) == 6.0
    with pytest.raises(np2ref.Np2RefError, match=r"NPR205 cannot translate a write into `self.u`, an array held by"):
        np2ref.compile(P.Heat1D.step, host_below=0)(sim)
    with pytest.raises(np2ref.Np2RefError, match="NPR020"):
        np2ref.compile(sim.step, host_below=0)
    with pytest.raises(np2ref.Np2RefError, match=r"NPR205 cannot translate a write into `p.v`"):
        np2ref.compile(P.leapfrog_dataclass, host_below=0)(P.Particles(np.ones(2), np.ones(2)), 0.1, 2)
    assert np.array_equal(sim.u, np.ones(6))
    # a method of the object passed in: an ordered host call (rt/opaque.py), NPR021 before
    advance = np2ref.compile(P.advance_object, host_below=0)
    for _ in range(2):
        ours, theirs = P.Heat1D(np.arange(6.0) ** 2, 0.2), P.Heat1D(np.arange(6.0) ** 2, 0.2)
        assert advance(ours, 2) == P.advance_object(theirs, 2) and np.array_equal(ours.u, theirs.u)


REFUSED = {
    # (views returned by helpers and written by the caller are translated now:
    # tests/rules/test_view_helpers.py; one buffer passed twice, read first: tests/aliases/test_read_first_buffers.py)
    # callbacks: functools.partial is host work, a lambda passed on is not lifted
    "rk4_partial": ((R.random(3), 0.7, 0.1, 4), "NPR021"),
    "callbacks_in_loop": ((R.random(5), 2.0), "NPR021"),
    "rk4_lambda": ((R.random(3), 0.7, 0.1, 4), "NPR014"),
    # recursion on a data-dependent test: both paths traced, one indexes out of bounds
    "fib_table": ((12,), "NPR127"),
    # writes through `.real` / `.imag`: the hint spells the whole-array write
    "complex_real_write": ((R.random(4) + 1j * R.random(4),), "NPR205 .*`.real` of `z`"),
    "complex_imag_negate": ((R.random(4) + 1j * R.random(4),), "NPR205 .*`.imag` of `z`"),
    # a `return` inside a loop with the written `x` in the returned tuple (loop_returns.py)
    "newton_system": ((np.array([2.0, 0.5]), 1e-12, 20), "NPR207"),
    # a list of arrays grown in a loop, nothing written: host work
    "lstsq_polyfit_windows": ((np.linspace(0, 1, 12), R.random(12), 4, 2), "NPR021"),
    # np.linalg.eigvals (complex, CPU-only in JAX), np.sort_complex, np.real_if_close (its dtype
    # depends on the data): not in the table
    "complex_eigvals_sorted": ((np.eye(2),), "NPR004"),
    # `a @ v - (beta[j - 1] * w_prev if j > 0 else 0.0)` on a traced loop index: an array or a float
    "lanczos_tridiagonal": ((_SPD, np.ones(4), 3), "NPR128"),
}


# objects made in the function: host code, run as `np2ref convert` writes it, its loops compiled
# (compiled/host_function.py; main refused them, NPR021 naming the class)
HOSTED = {
    "heat_object_local": (R.random(10), 0.2, 5),
    "dataclass_built_inside": (R.random(4), R.random(4), 0.1, 5),
    "rebinding_state": (R.random((3, 3)), R.random(3), 4),
    "object_counting": (R.normal(size=8),),
    "wave_object": (6, 0.3, 4),
}


@pytest.mark.parametrize("name", list(HOSTED))
def test_objects_made_in_the_function_run_on_the_host_their_loops_compiled(name):
    _same(name, *HOSTED[name])


@pytest.mark.parametrize("name", list(REFUSED))
def test_programs_np2ref_cannot_keep_exact_are_refused_with_a_code(name):
    args, code = REFUSED[name]
    with pytest.raises(np2ref.Np2RefError, match=code):
        compiled(name)(*args)


@pytest.mark.parametrize("name, args, error", [
    ("uint8_minus_big_python_int", (np.ones((2, 2), np.uint8),), OverflowError),
    ("int_negative_power", (np.array([1, 2, 4]),), ValueError),
])
def test_numpys_errors_are_raised(name, args, error):
    with pytest.raises(error) as expected:
        getattr(P, name)(*args)
    with pytest.raises(error, match=str(expected.value)):
        compiled(name)(*args)


def _sims():
    return [P.Heat1D(np.array([0.0, 1.0, 4.0, 9.0, 16.0]), 0.2) for _ in range(2)]


@pytest.mark.parametrize("name, message", [
    ("run_object_through_helper", r"NPR205 cannot translate a write into `sim.u` \(heat_step\(\) writes it\)"),
    ("attribute_bound_then_written", r"NPR205 cannot translate a write into `sim.u`, an array held by an object"),
    ("attribute_view_bound_then_written", r"NPR205 cannot translate a write into `sim.u`, an array held by an object"),
])
def test_writes_into_an_objects_array_are_refused(name, message):
    """`heat_step(sim.u, ...)`, `u = sim.u; u[0] = 7.0`: NumPy writes the object's array; the
    translation wrote a copy (a Ref of `sim.u`'s value) and left `sim.u` as it was. Refused now:
    at conversion for the helper's argument, when traced for a name bound to the attribute (an
    attribute holding a number is a value: attribute_number_rebound)."""
    sim = _sims()[0]
    with pytest.raises(np2ref.Np2RefError, match=message):
        compiled(name)(sim, 2) if name.startswith("run") else compiled(name)(sim)
    assert np.array_equal(sim.u, _sims()[1].u)


def test_a_number_attribute_bound_then_op_assigned_is_a_value():
    sim = _sims()[0]
    expected, got = _same("attribute_number_rebound", sim, np.ones(3))
    assert sim.alpha == 0.2


def test_an_objects_array_returned_is_that_array():
    sim = _sims()[0]
    assert compiled("returns_the_objects_array")(sim) is sim.u


def _scalar_types(value):
    """result_types with NumPy's scalars told from Python's (`np.True_` is a `bool` by name)."""
    if isinstance(value, (tuple, list)):
        return [_scalar_types(v) for v in value]
    return f"{type(value).__module__}.{type(value).__name__}"


@pytest.mark.parametrize("name, args", [
    ("builtin_scalar_types", (np.array([1.5, -2.25, 7.0, 0.5]),)),
    ("int_builtin_types", (np.array([7, -3, 11]),)),
    ("converged_flag", (np.array([1.5, -2.25, 7.0]), 1.0)), ("converged_flag", (np.array([1.5, -2.25, 7.0]), 0.1)),
])
def test_pythons_bool_and_complex_of_array_data_stay_pythons(name, args):
    """`bool(x.any())`, `complex(x[0], x[1])` and a flag set `converged = True` under a test of the
    data were NumPy's np.True_ / np.complex128 (conftest's result_types names np.True_ `bool`
    too: compared here with the types' modules)."""
    expected, got = _same(name, *args)
    assert _scalar_types(got) == _scalar_types(expected)


def test_an_error_in_a_statement_over_several_lines_points_at_it():
    """NPR031 from `y.tolist()` on the second line of a `return (...)`: the line map gave the
    statement's other lines the mark of the statement before (or 0, for the first statement)."""
    with pytest.raises(np2ref.Np2RefError) as info:
        compiled("returns_tolist")(np.ones(3))
    line = inspect.getsourcelines(P.returns_tolist)[1] + 2
    assert f"objects_and_dtypes.py:{line}:5: NPR031" in str(info.value)


def test_complex_part_hints_spell_the_whole_array_write():
    with pytest.raises(np2ref.Np2RefError) as info:
        compiled("complex_real_write")(np.ones(2, complex))
    assert "`z.real[i] = v` is `z[i] = v + 1j * z.imag[i]`" in str(info.value)
