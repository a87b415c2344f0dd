# The NumPy -> JAX table used by the read-side rewriter.
#
# Pure data plus small lookups; no jax import here.  Keys are fully
# qualified NumPy names ("numpy.sum", "numpy.linalg.norm"); values are the
# replacement expression text evaluated in a converted module where the
# names `np` (numpy), `jnp` (jax.numpy) and the `npr_np_*` shims from
# np2ref/rt/np_*.py are in scope.  Converted code runs with 64-bit
# types on (`jax.enable_x64(True)`), and every entry is checked by
# tests/library/test_numpy_table.py to give NumPy's dtype and values on float64,
# float32, int64, int32, int16, int8, uint8 and bool inputs.
#
# A name missing from FUNCTIONS is unsupported: the translator refuses it
# with a diagnostic, it never guesses.

from __future__ import annotations

import dataclasses

__all__ = [
    "FUNCTIONS",
    "UFUNCS",
    "MULTI_OUTPUT_UFUNCS",
    "GUFUNCS",
    "OUT_FUNCTIONS",
    "HOST_ONLY_PREFIXES",
    "DIFFERS",
    "LEFT_OUT",
    "lookup",
    "ARRAY_ARGUMENTS",
    "array_arguments",
    "is_ufunc",
    "accepts_out",
    "is_host_only",
    "is_random_draw",
    "RANDOM_DRAWS",
    "RANDOM_GENERATORS",
    "RANDOM_SEED",
    "READ_ONLY_VIEW",
    "uses_shim",
    "InPlace",
    "IN_PLACE_FUNCTIONS",
    "IN_PLACE_METHODS",
    "REFUSED_INPLACE_METHODS",
    "UFUNC_AT",
    "VIEW_FUNCTIONS",
    "VIEW_METHODS",
    "VIEW_ATTRIBUTES",
    "OPAQUE_VIEW_FUNCTIONS",
    "OPAQUE_VIEW_METHODS",
    "OPAQUE_VIEW_ATTRIBUTES",
    "Row",
    "row",
]


def _same(names: str, prefix: str = "") -> dict[str, str]:
    """numpy.<prefix><n> -> jnp.<prefix><n> for each whitespace-separated n."""
    return {f"numpy.{prefix}{n}": f"jnp.{prefix}{n}" for n in names.split()}


# --- Elementwise ufuncs (nin 1 or 2, nout 1): accept out= with same_kind
# casting and have .at/.reduce in NumPy.  All of them map to shims (see
# DIFFERS): JAX's promotion differs for most, and jnp rejects dtype=.
_UFUNC_NAMES = """
    add subtract multiply divide true_divide floor_divide mod remainder fmod
    power pow float_power negative positive square reciprocal
    abs absolute fabs sign floor ceil trunc rint conj conjugate
    maximum minimum fmax fmin
    equal not_equal less less_equal greater greater_equal
    logical_and logical_or logical_xor logical_not
    bitwise_and bitwise_or bitwise_xor bitwise_not bitwise_invert invert
    left_shift right_shift bitwise_left_shift bitwise_right_shift bitwise_count
    gcd lcm isnan isinf isfinite signbit
    sqrt cbrt exp exp2 expm1 log log2 log10 log1p logaddexp logaddexp2
    sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh arcsinh arccosh arctanh
    asin acos atan atan2 asinh acosh atanh
    deg2rad rad2deg degrees radians hypot copysign nextafter spacing ldexp heaviside
"""

UFUNCS: frozenset[str] = frozenset(f"numpy.{n}" for n in _UFUNC_NAMES.split())

# ufuncs with two outputs (out= takes a tuple; no .at).
MULTI_OUTPUT_UFUNCS: frozenset[str] = frozenset(
    {"numpy.divmod", "numpy.modf", "numpy.frexp"}
)

# Generalized ufuncs (core dimensions; accept out=, no .at).
GUFUNCS: frozenset[str] = frozenset(
    {"numpy.matmul", "numpy.vecdot", "numpy.matvec", "numpy.vecmat"}
)

# FUNCTIONS is built in two steps: every supported name first maps to its
# jnp namesake (or an equivalent), then each DIFFERS entry (below) is
# re-pointed at its npr_np_* shim.
FUNCTIONS: dict[str, str] = {}
FUNCTIONS.update(_same(_UFUNC_NAMES))
FUNCTIONS.update(_same("divmod modf frexp"))
FUNCTIONS.update(_same("matmul vecdot matvec vecmat"))

# --- Array creation
FUNCTIONS.update(
    _same(
        """
        zeros ones full zeros_like ones_like full_like
        arange linspace logspace geomspace eye identity
        array asarray copy meshgrid diag diagflat diagonal
        tri triu tril indices vander
        """
    )
)
FUNCTIONS.update(
    {
        # Contents of empty arrays are undefined in NumPy; zeros is a valid
        # refinement.
        "numpy.empty": "jnp.zeros",
        "numpy.empty_like": "jnp.zeros_like",
        # No memory layout or subclasses in JAX: both are asarray.
        "numpy.asanyarray": "jnp.asarray",
        "numpy.ascontiguousarray": "jnp.asarray",
        "numpy.asfortranarray": "jnp.asarray",
    }
)

# --- Elementwise non-ufunc functions
FUNCTIONS.update(
    _same(
        """
        where round around nan_to_num isclose
        sinc i0 real imag angle isneginf isposinf iscomplex isreal
        """
    )
)
FUNCTIONS["numpy.fix"] = "jnp.trunc"

# --- Reductions and statistics
FUNCTIONS.update(
    _same(
        """
        sum prod mean std var min max amin amax argmin argmax any all
        cumsum cumprod cumulative_sum cumulative_prod
        median percentile quantile average ptp count_nonzero
        nansum nanprod nanmean nanstd nanvar nanmin nanmax
        nanargmin nanargmax nanmedian nanpercentile nanquantile
        nancumsum nancumprod
        allclose array_equal array_equiv
        """
    )
)

# --- Shape and layout
FUNCTIONS.update(
    _same(
        """
        reshape ravel transpose permute_dims matrix_transpose swapaxes moveaxis
        rollaxis squeeze expand_dims concatenate concat stack vstack hstack
        dstack column_stack split array_split hsplit vsplit dsplit tile repeat roll
        flip fliplr flipud rot90 pad diff ediff1d gradient broadcast_to
        broadcast_arrays atleast_1d atleast_2d atleast_3d take take_along_axis
        choose select append shape ndim size
        """
    )
)
FUNCTIONS["numpy.row_stack"] = "jnp.vstack"

# --- Linear algebra
FUNCTIONS.update(
    _same("dot vdot inner outer einsum tensordot trace kron cross")
)
FUNCTIONS.update(
    _same(
        """
        norm solve inv det slogdet eigh eigvalsh cholesky qr svd svdvals lstsq
        matrix_power matrix_rank pinv multi_dot cond vector_norm matrix_norm
        outer cross trace diagonal matmul vecdot matrix_transpose tensorsolve
        tensorinv
        """,
        "linalg.",
    )
)

# --- Sorting, searching, misc numerics
FUNCTIONS.update(
    _same(
        """
        sort argsort searchsorted lexsort
        interp convolve correlate digitize trapezoid polyval cov corrcoef
        unwrap result_type can_cast promote_types issubdtype
        iscomplexobj isrealobj
        """
    )
)

# --- Scalar types / dtypes: the jnp versions are both dtypes (usable as
# dtype= arguments, np.dtype(jnp.float32) == float32) and traceable casts.
FUNCTIONS.update(
    _same(
        """
        float64 float32 float16 int8 int16 int32 int64
        uint8 uint16 uint32 uint64 bool_ bool complex64 complex128
        int_ uint double single
        """
    )
)
FUNCTIONS.update(
    {
        "numpy.intp": "jnp.int64",
        "numpy.uintp": "jnp.uint64",
        "numpy.longlong": "jnp.int64",
        "numpy.dtype": "np.dtype",
        "numpy.finfo": "np.finfo",
        "numpy.iinfo": "np.iinfo",
    }
)

# --- Constants: plain host values.
FUNCTIONS.update(
    {f"numpy.{n}": f"np.{n}" for n in "pi e inf nan newaxis euler_gamma".split()}
)


# Non-ufunc functions that accept out=.
OUT_FUNCTIONS: frozenset[str] = frozenset(
    f"numpy.{n}"
    for n in """
    all amax amin any argmax argmin around choose clip concat concatenate
    cumprod cumsum cumulative_prod cumulative_sum dot einsum fix isneginf
    isposinf max mean median min nanargmax nanargmin nancumprod nancumsum
    nanmax nanmean nanmedian nanmin nanpercentile nanprod nanquantile nanstd
    nansum nanvar outer percentile prod ptp quantile round stack std sum take
    trace var linalg.multi_dot
    """.split()
)

# Calls that must stay on the host: randomness, file I/O, printing and
# floating-point error state.  Matched as prefixes of the qualified name.
HOST_ONLY_PREFIXES: tuple[str, ...] = (
    "numpy.random",
    "numpy.save",  # save, savez, savez_compressed, savetxt
    "numpy.load",  # load, loadtxt
    "numpy.genfromtxt",
    "numpy.fromfile",
    "numpy.fromregex",
    "numpy.fromstring",
    "numpy.frombuffer",
    "numpy.memmap",
    "numpy.lib.npyio",
    "numpy.set_printoptions",
    "numpy.get_printoptions",
    "numpy.printoptions",
    "numpy.array2string",
    "numpy.array_repr",
    "numpy.array_str",
    "numpy.format_float_positional",
    "numpy.format_float_scientific",
    "numpy.seterr",
    "numpy.geterr",
    "numpy.errstate",
    "numpy.setbufsize",
    "numpy.getbufsize",
    "numpy.testing",
    "numpy.info",
    "numpy.show_config",
    "numpy.show_runtime",
)

# Functions whose jnp version differs from NumPy for some ordinary input,
# one line each, as found by tests/library/test_numpy_table.py (with 64-bit types on).
# Each maps to an npr_np_* shim in np2ref/rt/np_*.py with NumPy's
# semantics.  Background: JAX promotes int64/int32 + float32 to float32
# (NumPy: float64), computes int8..int32/bool inputs of float functions in
# float32 (NumPy: float16 for int8/uint8/bool, float32 for int16, float64
# for int32/int64), and does bool arithmetic in int32 (NumPy: int8).
_DT = "; also dtype= is rejected by jnp"
_F = "int32 input: jnp float32, NumPy float64 (int16 -> float32, int8/uint8/bool -> float16)" + _DT
_B = "bool, bool: jnp int32, NumPy int8; int64 with float32: jnp float32, NumPy float64" + _DT
_M = "int32 with float32 (or int64 with float32): jnp float32, NumPy float64" + _DT
_C = "int64 16777217 vs float32 16777216.0: jnp compares in float32 (equal), NumPy in float64" + _DT
_D = "dtype= is rejected by jnp (dtypes and values otherwise match)"
DIFFERS: dict[str, str] = {}
for _n in """sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan
        sinh cosh tanh arcsinh arccosh arctanh asin acos atan asinh acosh atanh
        deg2rad rad2deg degrees radians fabs spacing modf frexp""".split():
    DIFFERS[f"numpy.{_n}"] = _F
for _n in """arctan2 atan2 hypot logaddexp logaddexp2 copysign nextafter ldexp heaviside
        true_divide divide""".split():
    DIFFERS[f"numpy.{_n}"] = "int32, int32: jnp float32, NumPy float64 (int8 -> float16)" + _DT
for _n in "add subtract multiply maximum minimum fmax fmin".split():
    DIFFERS[f"numpy.{_n}"] = _M
for _n in """floor_divide mod remainder fmod divmod power pow left_shift right_shift
        bitwise_left_shift bitwise_right_shift""".split():
    DIFFERS[f"numpy.{_n}"] = _B
for _n in "equal not_equal less less_equal greater greater_equal".split():
    DIFFERS[f"numpy.{_n}"] = _C
for _n in """abs absolute negative positive sign floor ceil trunc signbit isnan isinf isfinite
        logical_and logical_or logical_xor logical_not bitwise_and bitwise_or bitwise_xor
        invert bitwise_not bitwise_invert bitwise_count gcd lcm""".split():
    DIFFERS[f"numpy.{_n}"] = _D
DIFFERS.update({
    "numpy.square": "bool input: jnp int32, NumPy int8" + _DT,
    "numpy.clip": "np.clip(uint8, 0, 300): jnp wraps 300 to 44, NumPy drops the bound" + _DT,
    "numpy.conj": "bool input: jnp bool, NumPy int8" + _DT,
    "numpy.conjugate": "bool input: jnp bool, NumPy int8" + _DT,
    "numpy.rint": "bool input: jnp float64, NumPy float16; int32: jnp float32, NumPy float64" + _DT,
    "numpy.reciprocal": "int input: jnp returns float, NumPy integer 1/x (0 unless |x| == 1)" + _DT,
    "numpy.float_power": "float32 input: jnp float32, NumPy always float64" + _DT,
    # reductions and statistics
    "numpy.cumsum": "int16/int8/int32/bool input: jnp accumulates in the input type, NumPy in int64",
    "numpy.cumprod": "int16/int8/int32 input: jnp accumulates in the input type, NumPy in int64",
    "numpy.nancumsum": "int16/int8/int32 input: jnp accumulates in the input type, NumPy in int64",
    "numpy.nancumprod": "int16/int8/int32 input: jnp accumulates in the input type, NumPy in int64",
    "numpy.cumulative_prod": "int16/int8/int32 input: jnp accumulates in the input type, NumPy in int64",
    "numpy.argmax": "complex input: jnp raises, NumPy orders by the real part, then the imaginary",
    "numpy.argmin": "complex input: jnp raises, NumPy orders by the real part, then the imaginary",
    "numpy.mean": "int32 input: jnp float32, NumPy float64",
    "numpy.nanmean": "int32 input: jnp float32, NumPy float64",
    "numpy.var": "int32 input: jnp float32, NumPy float64",
    "numpy.std": "int32 input: jnp float32, NumPy float64",
    "numpy.nanvar": "int32 input: jnp float32, NumPy float64",
    "numpy.nanstd": "int32 input: jnp float32, NumPy float64",
    "numpy.average": "int16/int32 input: jnp float32, NumPy float64",
    "numpy.median": "int16/int32 input: jnp float32, NumPy float64",
    "numpy.nanmedian": "int16/int32 input: jnp float32, NumPy float64",
    "numpy.percentile": "q given as a list is rejected by jnp; int input: jnp float32, NumPy float64",
    "numpy.nanpercentile": "q given as a list is rejected by jnp; int input: jnp float32, NumPy float64",
    "numpy.quantile": "q given as a list is rejected by jnp; int input: jnp float32, NumPy float64",
    "numpy.nanquantile": "q given as a list is rejected by jnp; int input: jnp float32, NumPy float64",
    # creation
    "numpy.array": "[np.int8(-3), 3]: jnp int8, NumPy int64 (Python numbers in lists are not weak)",
    "numpy.asarray": "[np.int8(-3), 3]: jnp int8, NumPy int64 (Python numbers in lists are not weak)",
    "numpy.arange": "stop= alone and NumPy-scalar bounds (np.int32(5): NumPy int64) differ in jnp",
    "numpy.linspace": "integer dtype=: NumPy floors (-1, 8, 4 -> [-1, 2, 5, 8]), jnp truncates",
    "numpy.full": "a float fill with an integer dtype: jnp saturates (nan -> 0, 300.7 -> 255 in uint8), NumPy casts (INT_MIN, 44)",
    "numpy.full_like": "a float fill with an integer dtype: jnp saturates (nan -> 0, 300.7 -> 255 in uint8), NumPy casts (INT_MIN, 44)",
    "numpy.geomspace": "integer dtype=: geomspace(1, 1000, 4) gives [1, 10, 100, 1000] in NumPy, [1, 9, 99, 1000] in jnp",
    "numpy.tri": "default dtype: jnp float32, NumPy float64",
    "numpy.triu": "1-d input: NumPy broadcasts it to a square matrix, jnp raises",
    "numpy.tril": "1-d input: NumPy broadcasts it to a square matrix, jnp raises",
    "numpy.vander": "float32 input: jnp float32, NumPy float64 (promote_types(x.dtype, int))",
    # elementwise helpers
    "numpy.round": "int input with decimals < 0 raises in jnp; bool input: NumPy float16",
    "numpy.around": "int input with decimals < 0 raises in jnp; bool input: NumPy float16",
    "numpy.fix": "no jnp.fix (jnp.trunc is the same for floats and ints)",
    "numpy.isclose": "int64 vs float32 with rtol=atol=0: jnp compares in float32, NumPy in float64",
    "numpy.allclose": "int64 vs float32 with rtol=atol=0: jnp compares in float32, NumPy in float64",
    "numpy.array_equal": "int64 16777217 vs float32 16777216.0: jnp compares in float32 (equal), NumPy in float64",
    "numpy.array_equiv": "int64 16777217 vs float32 16777216.0: jnp compares in float32 (equal), NumPy in float64",
    "numpy.sinc": "int32 input: jnp float32, NumPy float64",
    "numpy.i0": "int32 input: jnp float32, NumPy float64",
    "numpy.angle": "float32 scalar input: jnp float64, NumPy float32",
    "numpy.interp": "float32 input: jnp float32, NumPy always float64",
    "numpy.trapezoid": "int32 input: jnp float32, NumPy float64; bool y adds as logical or in NumPy",
    "numpy.polyval": "list coefficients rejected by jnp",
    "numpy.cov": "float32 input: jnp float32, NumPy always float64",
    "numpy.corrcoef": "float32 input: jnp float32, NumPy always float64",
    "numpy.gradient": "edge_order=2 unsupported in jnp; int32 input: jnp float32, NumPy float64",
    # joining and selecting
    "numpy.concatenate": "int64 with float32: jnp float32, NumPy float64",
    "numpy.concat": "int64 with float32: jnp float32, NumPy float64",
    "numpy.stack": "int64 with float32: jnp float32, NumPy float64",
    "numpy.vstack": "int64 with float32: jnp float32, NumPy float64",
    "numpy.row_stack": "no jnp.row_stack; int64 with float32: jnp float32, NumPy float64",
    "numpy.hstack": "int64 with float32: jnp float32, NumPy float64",
    "numpy.dstack": "int64 with float32: jnp float32, NumPy float64",
    "numpy.column_stack": "int64 with float32: jnp float32, NumPy float64",
    "numpy.append": "list values rejected by jnp; int64 with float32: jnp float32, NumPy float64",
    "numpy.where": "int64 with float32 branches: jnp float32, NumPy float64",
    "numpy.select": "int64 with float32 choices: jnp float32, NumPy float64",
    "numpy.choose": "jnp.choose needs concrete indices for mode='raise' (fails under jit)",
    "numpy.take": "list indices rejected by jnp; out-of-range indices: jnp fills, NumPy raises",
    "numpy.take_along_axis": "out-of-range indices: jnp fills them (NaN), NumPy raises IndexError",
    "numpy.repeat": "list repeats rejected by jnp (needs total_repeat_length)",
    "numpy.diff": "list prepend/append rejected by jnp",
    "numpy.insert": "jnp.insert: traced values cast by jnp, not NumPy; here an int obj only (lists, slices refused)",
    "numpy.ediff1d": "list to_begin/to_end rejected by jnp",
    "numpy.permute_dims": "axes is optional in NumPy, required in jnp",
    # sorting and searching
    "numpy.sort": "kind= rejected by jnp",
    "numpy.argsort": "kind= rejected by jnp",
    "numpy.searchsorted": "jnp returns int32 indices, NumPy intp (int64)",
    "numpy.digitize": "jnp returns int32 indices, NumPy intp (int64)",
    # products
    "numpy.dot": "int32 array with Python int: jnp rejects preferred_element_type; float32 with 2: NumPy float64",
    "numpy.vdot": "int64 with float32: jnp float32, NumPy float64",
    "numpy.inner": "float32 with Python int 2: jnp float32, NumPy float64 (scalars are not weak here)",
    "numpy.outer": "int64 with float32: jnp float32, NumPy float64",
    "numpy.matmul": "int64 with float32: jnp float32, NumPy float64",
    "numpy.vecdot": "int64 with float32: jnp float32, NumPy float64",
    "numpy.matvec": "int64 with float32: jnp float32, NumPy float64",
    "numpy.vecmat": "int64 with float32: jnp float32, NumPy float64",
    "numpy.tensordot": "int64 with float32: jnp float32, NumPy float64",
    "numpy.kron": "bool input raises in jnp; float32 with Python int: NumPy float64",
    "numpy.cross": "int64 with float32: jnp float32, NumPy float64",
    "numpy.einsum": "int64 with float32: jnp float32, NumPy float64",
    "numpy.convolve": "int input: jnp float64, NumPy keeps the int type",
    "numpy.correlate": "int input: jnp float64, NumPy keeps the int type",
    "numpy.linalg.outer": "int64 with float32: jnp float32, NumPy float64",
    "numpy.linalg.cross": "int64 with float32: jnp float32, NumPy float64",
    "numpy.linalg.matmul": "int64 with float32: jnp float32, NumPy float64",
    "numpy.linalg.vecdot": "int64 with float32: jnp float32, NumPy float64",
    "numpy.linalg.multi_dot": "int64 with float32: jnp float32, NumPy float64",
    # linear algebra: NumPy computes int input in float64
    "numpy.linalg.lstsq": "rank: jnp int64, NumPy int32; residuals: NumPy empty when M <= N",
    "numpy.linalg.matrix_power": "negative power of an int32 matrix: jnp float32, NumPy float64",
    "numpy.linalg.vector_norm": "ord=0 on int input raises in jnp; int32: jnp float32, NumPy float64",
    # dtype queries
    "numpy.result_type": "JAX's lattice: result_type(float32, int64) is float32 in jnp, float64 in NumPy",
})
for _n in """solve inv det slogdet eigh eigvalsh cholesky qr svd svdvals pinv cond tensorsolve
        tensorinv norm matrix_norm""".split():
    DIFFERS[f"numpy.linalg.{_n}"] = "int32 input: jnp computes in float32, NumPy in float64"

# Left out on purpose (refused by the translator), with the reason.
DATA_SHAPE = "output shape depends on the data"
LEFT_OUT: dict[str, str] = {
    "numpy.nonzero": DATA_SHAPE,
    "numpy.flatnonzero": DATA_SHAPE,
    "numpy.argwhere": DATA_SHAPE,
    "numpy.extract": DATA_SHAPE,
    "numpy.compress": DATA_SHAPE,
    "numpy.unique": DATA_SHAPE,
    "numpy.trim_zeros": DATA_SHAPE,
    "numpy.partition": "order of the non-kth elements is unspecified, so no exact match",
    "numpy.argpartition": "order of the non-kth indices is unspecified, so no exact match",
    "numpy.isscalar": "NumPy scalars become 0-d JAX arrays, so the answer changes",
    "numpy.linalg.eig": "general eigenproblem is CPU-only in JAX and complex-valued",
    "numpy.linalg.eigvals": "general eigenproblem is CPU-only in JAX and complex-valued",
    "numpy.resize": "NumPy's repeat-to-fill semantics; rarely used",
    "numpy.delete": "index semantics with lists; not covered yet",
    "numpy.piecewise": "takes callables; not covered yet",
    "numpy.fromfunction": "takes a callable called on index arrays; not covered yet",
    "numpy.put_along_axis": "mutates in place: handled by the write-side rewriter",
    "numpy.put": "mutates in place: handled by the write-side rewriter",
    "numpy.place": "mutates in place: handled by the write-side rewriter",
    "numpy.copyto": "mutates in place: handled by the write-side rewriter",
    "numpy.fill_diagonal": "mutates in place: handled by the write-side rewriter",
    "numpy.isnat": "datetime only; no jnp equivalent",
    # polynomials: np.polyval, polyfit, polyder, polyint, polyadd and polysub are translated
    "numpy.polymul": DATA_SHAPE + " (poly1d drops the leading zero coefficients first)",
    "numpy.polydiv": DATA_SHAPE + " (the remainder's leading near-zero coefficients are dropped)",
    "numpy.roots": DATA_SHAPE + " (its zeros trimmed; real or complex eigenvalues by the data)",
    "numpy.poly": "real or complex result by the data (conjugate roots give real coefficients)",
    "numpy.poly1d": "a polynomial object; keep the coefficients in an array (np.polyval, np.polyder)",
}


# Every DIFFERS entry goes through its shim: numpy.linalg.norm -> npr_np_linalg_norm.
for _q in DIFFERS:
    FUNCTIONS[_q] = "npr_np_" + _q[len("numpy."):].replace(".", "_")
# ufunc methods: np.add.outer -> npr_np_add.outer (every binary ufunc with a shim), and
# reduce/accumulate for the ufuncs whose reduction has a jnp counterpart.
_OUTER = """add subtract multiply divide true_divide floor_divide mod remainder fmod power pow
        float_power maximum minimum fmax fmin equal not_equal less less_equal greater greater_equal
        logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor left_shift right_shift
        bitwise_left_shift bitwise_right_shift gcd lcm arctan2 atan2 hypot logaddexp logaddexp2
        copysign nextafter ldexp heaviside"""
for _n in _OUTER.split():
    FUNCTIONS[f"numpy.{_n}.outer"] = FUNCTIONS[f"numpy.{_n}"] + ".outer"
for _n in "add multiply maximum minimum logical_and logical_or".split():
    FUNCTIONS[f"numpy.{_n}.reduce"] = FUNCTIONS[f"numpy.{_n}"] + ".reduce"
for _n in "add multiply maximum minimum".split():
    FUNCTIONS[f"numpy.{_n}.accumulate"] = FUNCTIONS[f"numpy.{_n}"] + ".accumulate"
# Counting, binning and index helpers (np2ref/rt/np_*.py says which arguments must be static).
FUNCTIONS["numpy.lib.stride_tricks.sliding_window_view"] = "npr_np_sliding_window_view"  # (a copy: an opaque view)
FUNCTIONS["numpy.polyfit"] = "npr_np_polyfit"  # (np2ref/rt/np_linalg.py: full= and cov= refused)
for _n in "polyder polyint polyadd polysub".split():  # (np2ref/rt/np_linalg.py: NumPy's own steps)
    FUNCTIONS[f"numpy.{_n}"] = f"npr_np_{_n}"
for _n in """bincount histogram histogram2d triu_indices tril_indices triu_indices_from tril_indices_from
        diag_indices diag_indices_from ix_ ndindex mgrid ogrid isin unravel_index
        ravel_multi_index""".split():
    FUNCTIONS[f"numpy.{_n}"] = f"npr_np_{_n}"
# Discrete Fourier transforms (np2ref/rt/np_linalg.py: NumPy 2's precision for each input dtype).
for _n in """fft ifft fft2 ifft2 fftn ifftn rfft irfft rfft2 irfft2 rfftn irfftn hfft ihfft fftshift ifftshift
        fftfreq rfftfreq""".split():
    FUNCTIONS[f"numpy.fft.{_n}"] = f"npr_np_fft_{_n}"
# Pure dtype functions: NumPy's own (jnp's follow JAX's promotion lattice).
FUNCTIONS["numpy.promote_types"] = "np.promote_types"
FUNCTIONS["numpy.issubdtype"] = "np.issubdtype"


# --- Sequences where NumPy takes an array
# NumPy makes an array of whatever sequence it is given for an array argument (np.asarray: a
# list, a tuple, a range, nested lists, with NumPy's dtype); these replacements raise TypeError
# for one (jax.numpy's check_arraylike), or read it otherwise (the shims below). The translator
# passes a sequence written there through npr_np_array (rewrite/rules/sequence_args.py), as NumPy
# converts it. Positions of the array arguments; None: every positional argument. Found by
# tests/library/test_sequence_args.py, which calls every entry with its arrays given as sequences.
# Not converted: np.array_split of a list, which NumPy splits by len(list) along any axis
# (jax.numpy's TypeError stays).
ARRAY_ARGUMENTS: dict[str, tuple[int, ...] | None] = {f"numpy.{n}": (0,) for n in """
    sum prod max min amax amin argmax argmin all any count_nonzero ptp nansum nanprod nanmax nanmin
    nanargmax nanargmin broadcast_to copy cumulative_sum diag diagflat diagonal empty_like
    zeros_like ones_like expand_dims flip fliplr flipud imag real iscomplex isreal isneginf
    isposinf lexsort matrix_transpose moveaxis nan_to_num pad ravel reshape roll rot90 split hsplit
    vsplit dsplit squeeze swapaxes tile trace transpose unwrap linalg.diagonal linalg.matrix_rank
    linalg.matrix_transpose linalg.trace linalg.norm
""".split()}
ARRAY_ARGUMENTS.update({f"numpy.{n}": None for n in "meshgrid atleast_1d atleast_2d atleast_3d broadcast_arrays".split()})
ARRAY_ARGUMENTS.update({"numpy.full": (1,), "numpy.full_like": (0, 1), "numpy.cov": (0, 1), "numpy.corrcoef": (0, 1), "numpy.interp": (0, 1, 2),
                        "numpy.linalg.solve": (0, 1), "numpy.linalg.tensorsolve": (0, 1)})


def array_arguments(qualified_name: str) -> tuple[int, ...] | None | bool:
    """The positions of `qualified_name`'s array arguments a sequence must be converted in (None:
    every positional one); False when its replacement takes any sequence as NumPy does."""
    return ARRAY_ARGUMENTS.get(qualified_name, False)


def not_in_table(qualified_name: str, one_argument: bool = False) -> tuple[str, str]:
    """NPR004's message and hint for a NumPy name the table does not translate (with
    `one_argument`: np.where(cond), which is np.nonzero(cond))."""
    short = qualified_name.replace("numpy", "np", 1)
    if "." not in qualified_name:  # hasattr(np, "trapz"): the module itself, as a value
        return (f"the NumPy module `{short}` used as a value is not translated",
                "name the NumPy function the code means (`np.trapezoid`): under jit the program "
                "must say which functions it calls; see `np2ref explain NPR004`")
    reason = DATA_SHAPE if one_argument else LEFT_OUT.get(qualified_name)
    if reason == DATA_SHAPE:
        what = "`np.where(cond)` with one argument is np.nonzero(cond):" if one_argument \
            else f"`{short}` is not translated:"
        return (f"{what} its {DATA_SHAPE}, which jit cannot compile",
                "under jit every shape is static: write `a[cond] = v`, np.where(cond, x, y), "
                "or a reduction with where=cond; see `np2ref explain NPR004`")
    if reason is not None and reason.startswith(DATA_SHAPE):  # (np.roots: with the detail)
        return (f"`{short}` is not translated: its {reason}, which jit cannot compile",
                "under jit every shape is static; see `np2ref explain NPR004`")
    if reason is not None and "write-side" not in reason:
        return (f"`{short}` is not translated: {reason}", "see `np2ref explain NPR004`")
    near = nearest(qualified_name)
    return (f"`{short}` is not in np2ref's NumPy table",
            (f"the nearest spelling np2ref translates: {near}; " if near else "")
            + "np2ref refuses NumPy functions it cannot translate exactly; see `np2ref explain NPR004`")


# Names NumPy has (or had) for what a table entry does, and constructors with a table spelling.
SPELLINGS = {
    "numpy.ndarray": "`np.empty(shape, dtype)` (`np.ndarray(shape)` is an uninitialised array)",
    "numpy.product": "`np.prod`", "numpy.cumproduct": "`np.cumprod`", "numpy.alltrue": "`np.all`",
    "numpy.sometrue": "`np.any`", "numpy.round_": "`np.round`", "numpy.trapz": "`np.trapezoid`",
    "numpy.asfarray": "`np.asarray(a, dtype=np.float64)`",
    "numpy.msort": "`np.sort(a, axis=0)`", "numpy.asmatrix": "`np.asarray`",
}


def nearest(qualified_name: str) -> str | None:
    """A supported spelling for a name the table lacks: a known synonym, else the closest name
    in the same namespace (a typo: `np.cumsun` -> `np.cumsum`), or None."""
    import difflib

    if qualified_name in SPELLINGS:
        return SPELLINGS[qualified_name]
    prefix, last = qualified_name.rsplit(".", 1)
    names = [q[len(prefix) + 1:] for q in FUNCTIONS if q.startswith(prefix + ".") and "." not in q[len(prefix) + 1:]]
    close = difflib.get_close_matches(last, names, n=1, cutoff=0.8)
    return f"`{prefix.replace('numpy', 'np', 1)}.{close[0]}`" if close else None


def lookup(qualified_name: str) -> str | None:
    """Replacement expression text for a qualified NumPy name, or None."""
    return FUNCTIONS.get(qualified_name)


def is_ufunc(qualified_name: str) -> bool:
    """True for single-output elementwise ufuncs (out= same_kind, .at)."""
    return qualified_name in UFUNCS


def accepts_out(qualified_name: str) -> bool:
    """True when the NumPy function takes an out= argument."""
    return (
        qualified_name in UFUNCS
        or qualified_name in MULTI_OUTPUT_UFUNCS
        or qualified_name in GUFUNCS
        or qualified_name in OUT_FUNCTIONS
    )


def is_host_only(qualified_name: str) -> bool:
    """True for calls that must stay on the host (random set-up, I/O, printing)."""
    return qualified_name.startswith(HOST_ONLY_PREFIXES) and not is_random_draw(qualified_name)


# Draws from a NumPy random generator (`np.random.<name>`, `Generator.<name>`, `RandomState.<name>`)
# that only read their arguments and return new values: a compiled function makes them on the host
# at run time, in program order, from the caller's generator (npr_random), so the stream is NumPy's
# own. Seeding, generator construction, state access and the in-place `shuffle` stay host code.
RANDOM_DRAWS = frozenset("""
    beta binomial chisquare choice dirichlet exponential f gamma geometric gumbel hypergeometric
    integers laplace logistic lognormal logseries multinomial multivariate_hypergeometric
    multivariate_normal negative_binomial noncentral_chisquare noncentral_f normal pareto
    permutation poisson power random rayleigh standard_cauchy standard_exponential standard_gamma
    standard_normal standard_t triangular uniform vonmises wald weibull zipf
    rand randint randn random_integers random_sample ranf sample tomaxint
""".split())
RANDOM_GENERATORS = frozenset({"numpy.random.default_rng", "numpy.random.Generator",
                               "numpy.random.RandomState"})
# Seeding NumPy's global generator: host code in a converted module (a script's set-up), and in a
# function np2ref.compile is given, a host call made when the program runs, in program order
# (npr_random), before the draws that follow it.
RANDOM_SEED = "numpy.random.seed"


def is_random_draw(qualified_name: str) -> bool:
    """`numpy.random.normal` and the other draws from NumPy's global generator."""
    parts = qualified_name.split(".")
    return len(parts) == 3 and parts[:2] == ["numpy", "random"] and parts[2] in RANDOM_DRAWS


def uses_shim(qualified_name: str) -> bool:
    """True when the replacement is an npr_np_* shim from np2ref/rt/np_*.py."""
    rep = FUNCTIONS.get(qualified_name)
    return rep is not None and rep.startswith("npr_np_")


# --- Memory: what a NumPy name writes, or returns a view of -------------------------------------
# The analysis (effects, aliases), the rules and the emitted helpers all read these rows: adding
# an in-place function is one row here, its helper in np2ref.rt, and a test.

@dataclasses.dataclass(frozen=True)
class InPlace:
    """An in-place NumPy function: the argument it writes, and the np2ref.rt helper that does the
    same to a Ref."""
    writes: int
    helper: str


IN_PLACE_FUNCTIONS: dict[str, InPlace] = {
    "numpy.copyto": InPlace(0, "npr_copyto"),
    "numpy.putmask": InPlace(0, "npr_putmask"),
    "numpy.put": InPlace(0, "npr_put"),
    "numpy.place": InPlace(0, "npr_place"),
    "numpy.fill_diagonal": InPlace(0, "npr_fill_diagonal"),
}

# In-place array methods the translator handles (method -> np2ref.rt helper, called with the
# array first), and those it refuses (no exact static-shape meaning, or rarely worth it).
IN_PLACE_METHODS: dict[str, str] = {"fill": "npr_fill", "sort": "npr_sort", "put": "npr_put"}
REFUSED_INPLACE_METHODS = frozenset({"resize", "partition", "itemset", "setfield", "byteswap", "setflags"})

# `np.<ufunc>.at` that are translated (npr_ufunc_at: add, subtract, multiply, maximum and minimum
# by a scatter where that is NumPy's order, the others one element at a time); any other `.at` is
# refused.
UFUNC_AT = frozenset({"add", "subtract", "multiply", "maximum", "minimum", "divide", "true_divide",
                      "floor_divide", "remainder", "mod", "fmod", "power", "logical_and", "logical_or",
                      "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"})

# Functions, methods and attributes that return a view of their first operand, with the
# np2ref.rt helper that reproduces the view (a write through it lands in the base).
VIEW_FUNCTIONS: dict[str, str] = {
    "numpy.asarray": "npr_asarray",
    "numpy.asanyarray": "npr_asarray",
    "numpy.transpose": "npr_transpose",
    "numpy.reshape": "npr_reshape",
    "numpy.ravel": "npr_ravel",
    "numpy.swapaxes": "npr_swapaxes",
}
VIEW_METHODS: dict[str, str] = {
    "reshape": "npr_reshape",
    "ravel": "npr_ravel",
    "transpose": "npr_transpose",
    "swapaxes": "npr_swapaxes",
    "view": "npr_view",
}
VIEW_ATTRIBUTES: dict[str, str] = {"T": "npr_transpose"}

# Names that may return a view np2ref does not model: writing through their result, or reading
# it after the base was written, is refused (NPR205).
OPAQUE_VIEW_FUNCTIONS = frozenset({
    "numpy.squeeze", "numpy.moveaxis", "numpy.expand_dims", "numpy.atleast_1d",
    "numpy.atleast_2d", "numpy.atleast_3d", "numpy.broadcast_to", "numpy.diagonal",
    "numpy.flip", "numpy.fliplr", "numpy.flipud", "numpy.rot90", "numpy.real", "numpy.imag",
    "numpy.split", "numpy.array_split", "numpy.hsplit", "numpy.vsplit",
    "numpy.lib.stride_tricks.sliding_window_view",  # (read-only in NumPy: a write raises ValueError)
})
READ_ONLY_VIEW = "numpy.lib.stride_tricks.sliding_window_view"  # a write through it: NumPy's ValueError
OPAQUE_VIEW_METHODS = frozenset({"squeeze", "diagonal", "flatten_view"})
OPAQUE_VIEW_ATTRIBUTES = frozenset({"real", "imag", "flat", "mT"})


@dataclasses.dataclass(frozen=True)
class Row:
    """Everything np2ref knows about one qualified NumPy name, gathered from the tables above."""
    name: str
    replacement: str | None        # the expression text converted code uses (jnp or an npr_np_ shim)
    differs: str | None            # why jnp's namesake is not used as it is
    left_out: str | None           # why it is not translated
    writes: int | None             # the argument it writes in place (IN_PLACE_FUNCTIONS)
    helper: str | None             # the np2ref.rt helper for its in-place or view form
    view: str                      # "modelled", "opaque" (NPR205 when written through) or "no"
    ufunc: bool
    ufunc_at: bool                 # np.<name>.at is translated
    out: bool                      # accepts out=

    def dump(self) -> str:
        fields = dataclasses.asdict(self)
        return "\n".join(f"{k:12} {v}" for k, v in fields.items()
                         if v is not None and v is not False and v != "no")


def row(qualified_name: str) -> Row:
    """The row for `numpy.<name>`."""
    short = qualified_name.split(".")[-1]
    in_place = IN_PLACE_FUNCTIONS.get(qualified_name)
    view = ("modelled" if qualified_name in VIEW_FUNCTIONS else
            "opaque" if qualified_name in OPAQUE_VIEW_FUNCTIONS else "no")
    return Row(
        name=qualified_name,
        replacement=FUNCTIONS.get(qualified_name),
        differs=DIFFERS.get(qualified_name),
        left_out=LEFT_OUT.get(qualified_name),
        writes=in_place.writes if in_place else None,
        helper=in_place.helper if in_place else VIEW_FUNCTIONS.get(qualified_name),
        view=view,
        ufunc=is_ufunc(qualified_name),
        ufunc_at=is_ufunc(qualified_name) and short in UFUNC_AT,
        out=accepts_out(qualified_name),
    )
