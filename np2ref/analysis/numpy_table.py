# The NumPy -> JAX table used by the read-side rewriter.
#
# Pure data plus small lookups; no jax import here.  Keys are fully
# qualified NumPy names ("numpy.sum", "numpy.linalg.norm"); values are the
# replacement expression text evaluated in a converted module where the
# names `np` (numpy), `jnp` (jax.numpy) and the `npr_np_*` shims from
# np2ref/emit/shims.py are in scope.  Converted code runs with 64-bit
# types on (`jax.enable_x64(True)`), and every entry is checked by
# tests/test_numpy_table.py to give NumPy's dtype and values on float64,
# float32, int64, int32, int16, int8, uint8 and bool inputs.
#
# A name missing from FUNCTIONS is unsupported: the translator refuses it
# with a diagnostic, it never guesses.

from __future__ import annotations

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
    "is_ufunc",
    "accepts_out",
    "is_host_only",
    "uses_shim",
]


def _same(names: str, prefix: str = "") -> dict[str, str]:
    """numpy.<prefix><n> -> jnp.<prefix><n> for each whitespace-separated n."""
    return {f"numpy.{prefix}{n}": f"jnp.{prefix}{n}" for n in names.split()}


def _shim(names: str, prefix: str = "") -> dict[str, str]:
    """numpy.<prefix><n> -> npr_np_<n> (prefix dots become underscores)."""
    tag = prefix.replace(".", "_")
    return {f"numpy.{prefix}{n}": f"npr_np_{tag}{n}" for n in names.split()}


# --- Elementwise ufuncs (nin 1 or 2, nout 1): accept out= (same_kind), have .at
# Those whose jnp version matches NumPy's dtype and values on every tested
# input map straight to jnp; the others go through a shim.
_UFUNC_SAME = """
    add subtract multiply negative positive
    equal not_equal less less_equal greater greater_equal
    logical_and logical_or logical_xor logical_not
    bitwise_and bitwise_or bitwise_xor bitwise_not bitwise_invert invert
    left_shift right_shift bitwise_left_shift bitwise_right_shift bitwise_count
    maximum minimum fmax fmin
    abs absolute fabs sign floor ceil trunc rint
    isnan isinf isfinite signbit
    mod remainder fmod floor_divide
    gcd lcm
    conj conjugate
    square reciprocal
"""

_UFUNC_FLOAT = """
    sqrt cbrt exp exp2 expm1 log log2 log10 log1p
    sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh
    asin acos atan asinh acosh atanh
    deg2rad rad2deg degrees radians
    true_divide divide arctan2 atan2 hypot logaddexp logaddexp2
    copysign nextafter spacing ldexp heaviside
    power pow float_power
"""

UFUNCS: frozenset[str] = frozenset(
    f"numpy.{n}" for n in (_UFUNC_SAME + _UFUNC_FLOAT).split()
)

# ufuncs with two outputs (out= takes a tuple; no .at).
MULTI_OUTPUT_UFUNCS: frozenset[str] = frozenset(
    {"numpy.divmod", "numpy.modf", "numpy.frexp"}
)

# Generalized ufuncs (core dimensions; accept out=, no .at).
GUFUNCS: frozenset[str] = frozenset(
    {"numpy.matmul", "numpy.vecdot", "numpy.matvec", "numpy.vecmat"}
)

FUNCTIONS: dict[str, str] = {}
FUNCTIONS.update(_same(_UFUNC_SAME))
FUNCTIONS.update(_same(_UFUNC_FLOAT))
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
    }
)

# --- Elementwise non-ufunc functions
FUNCTIONS.update(
    _same(
        """
        clip where round around nan_to_num isclose
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
# one line each (found by tests/test_numpy_table.py); the table maps each to
# an npr_np_* shim with NumPy's semantics.
_PROMO = (
    "JAX type promotion: int64/int32 with float32 gives float32 (NumPy float64), "
    "bool operands give int32 where NumPy's loop is int8"
)
_FLOATY = (
    "int input: jnp computes in float32 for int8..int32 and bool (NumPy float16 "
    "for int8/uint8/bool, float32 for int16, float64 for int32/int64)"
)
_ACC = "int32/int16/int8/bool input: jnp accumulates in the input type, NumPy in int64"
_MOMENT = "int input: jnp returns float32 for int32 and smaller, NumPy float64"
_ORDER = "int input: jnp returns float32 for int32 and smaller, NumPy float64; list q rejected"
_JOIN = "mixed dtypes: jnp promotes int64+float32 to float32, NumPy to float64"
_PRODUCT = "mixed dtypes and Python-scalar operands promote to float32 in jnp, float64 in NumPy"
_LINALG = "int input: jnp computes in float32 for int32, NumPy always float64"
_INTP = "jnp returns int32 indices, NumPy intp (int64)"
_PROBE = "int or float32 input: jnp result dtype differs from NumPy's"

DIFFERS: dict[str, str] = {}
for _n in (_UFUNC_SAME + _UFUNC_FLOAT + " divmod modf frexp").split():
    DIFFERS[f"numpy.{_n}"] = _FLOATY if _n in _UFUNC_FLOAT.split() + ["modf", "frexp"] else _PROMO
DIFFERS.update({
    "numpy.reciprocal": "integer input: jnp returns float64, NumPy integer 1/x (0 unless |x| == 1)",
    "numpy.heaviside": _FLOATY,
    "numpy.square": "bool input: jnp gives int32, NumPy int8",
    "numpy.rint": "int16 input: jnp returns float64, NumPy float32 (int8/bool: float16)",
})
for _n in "sum prod nansum nanprod cumsum cumprod nancumsum nancumprod cumulative_sum cumulative_prod trace".split():
    DIFFERS[f"numpy.{_n}"] = _ACC
for _n in "mean nanmean std var nanstd nanvar average".split():
    DIFFERS[f"numpy.{_n}"] = _MOMENT
for _n in "median nanmedian percentile nanpercentile quantile nanquantile".split():
    DIFFERS[f"numpy.{_n}"] = _ORDER
for _n in "concatenate concat stack vstack hstack dstack column_stack row_stack append select choose where".split():
    DIFFERS[f"numpy.{_n}"] = _JOIN
for _n in "dot vdot inner outer matmul vecdot matvec vecmat tensordot kron cross einsum".split():
    DIFFERS[f"numpy.{_n}"] = _PRODUCT
for _n in "outer cross matmul vecdot multi_dot".split():
    DIFFERS[f"numpy.linalg.{_n}"] = _PRODUCT
for _n in "solve inv det slogdet eigh eigvalsh cholesky qr svd svdvals pinv cond tensorsolve tensorinv norm vector_norm matrix_norm matrix_rank".split():
    DIFFERS[f"numpy.linalg.{_n}"] = _LINALG
for _n in "sinc i0 angle unwrap trapezoid polyval".split():
    DIFFERS[f"numpy.{_n}"] = _PROBE
for _n in "searchsorted digitize argsort lexsort count_nonzero".split():
    DIFFERS[f"numpy.{_n}"] = _INTP
DIFFERS.update({
    "numpy.convolve": "int input: jnp convolves in float64, NumPy in the int type",
    "numpy.correlate": "int input: jnp correlates in float64, NumPy in the int type",
    "numpy.interp": "float32 input: jnp returns float32, NumPy always float64",
    "numpy.cov": "float32/int input: jnp returns float32, NumPy always float64",
    "numpy.corrcoef": "float32/int input: jnp returns float32, NumPy always float64",
    "numpy.linalg.lstsq": "rank is int64 in jnp, int32 in NumPy; int input computed in float32",
    "numpy.linalg.matrix_power": "negative power of int matrix: jnp float32, NumPy float64; bool matrices",
    "numpy.linalg.trace": _ACC,
    "numpy.linalg.multi_dot": _PRODUCT,
    "numpy.array": "lists mixing NumPy scalars and Python numbers: jnp keeps the NumPy scalar type, NumPy uses int64/float64",
    "numpy.asarray": "lists mixing NumPy scalars and Python numbers: jnp keeps the NumPy scalar type, NumPy uses int64/float64",
    "numpy.arange": "NumPy-scalar arguments (np.int32(5)) give int64 in NumPy; float steps filled as start + i*delta",
    "numpy.linspace": "integer dtype=: NumPy floors, jnp truncates; int-array endpoints",
    "numpy.logspace": "integer dtype= and int-array endpoints",
    "numpy.geomspace": "integer dtype=: NumPy truncates the float result, jnp rounds",
    "numpy.tri": "default dtype: jnp float32, NumPy float64",
    "numpy.triu": "1-d input: NumPy broadcasts to a square matrix, jnp raises",
    "numpy.tril": "1-d input: NumPy broadcasts to a square matrix, jnp raises",
    "numpy.vander": "kept for list inputs",
    "numpy.clip": "int array with float bounds: NumPy 2 returns float64 (NEP 50), jnp keeps the int type",
    "numpy.round": "int input with decimals < 0: jnp raises; decimals > 0 rounding of x*10**d",
    "numpy.around": "int input with decimals < 0: jnp raises; decimals > 0 rounding of x*10**d",
    "numpy.fix": "no jnp.fix; ints stay ints",
    "numpy.isclose": "mixed int/float32 comparison dtype",
    "numpy.allclose": "mixed int/float32 comparison dtype",
    "numpy.nan_to_num": "kept for list inputs",
    "numpy.take": "list indices rejected by jnp",
    "numpy.repeat": "list repeats rejected by jnp (needs total_repeat_length)",
    "numpy.diff": "bool input: NumPy uses not_equal; list prepend/append rejected by jnp",
    "numpy.ediff1d": "list to_begin/to_end rejected by jnp; bool input",
    "numpy.roll": "repeated axes in shift tuples add up in NumPy",
    "numpy.pad": "int mean/median/linear_ramp modes round/truncate like NumPy; mode='empty'",
    "numpy.gradient": "int input gives float32 in jnp (NumPy float64); edge_order=2 unsupported in jnp",
    "numpy.sort": "kind= rejected by jnp",
    "numpy.permute_dims": "axes= optional in NumPy",
    "numpy.result_type": "JAX's promotion lattice (float32 + int64 -> float32) instead of NumPy's",
    "numpy.can_cast": "JAX's casting rules instead of NumPy's",
})

# Left out on purpose (refused by the translator), with the reason.
LEFT_OUT: dict[str, str] = {
    "numpy.nonzero": "output shape depends on the data",
    "numpy.flatnonzero": "output shape depends on the data",
    "numpy.argwhere": "output shape depends on the data",
    "numpy.extract": "output shape depends on the data",
    "numpy.compress": "output shape depends on the data",
    "numpy.unique": "output shape depends on the data",
    "numpy.trim_zeros": "output shape depends on the data",
    "numpy.histogram": "bin edges/counts: kept out (data-dependent bins for bins='auto')",
    "numpy.bincount": "output length depends on the data (needs length=)",
    "numpy.partition": "order of the non-kth elements is unspecified, so no exact match",
    "numpy.argpartition": "order of the non-kth indices is unspecified, so no exact match",
    "numpy.isscalar": "NumPy scalars become 0-d JAX arrays, so the answer changes",
    "numpy.linalg.eig": "general eigenproblem is CPU-only in JAX and complex-valued",
    "numpy.linalg.eigvals": "general eigenproblem is CPU-only in JAX and complex-valued",
    "numpy.resize": "NumPy's repeat-to-fill semantics; rarely used",
    "numpy.insert": "index semantics with lists; not covered yet",
    "numpy.delete": "index semantics with lists; not covered yet",
    "numpy.piecewise": "takes callables; not covered yet",
    "numpy.fromfunction": "takes a callable called on index arrays; not covered yet",
    "numpy.put_along_axis": "mutates in place: handled by the write-side rewriter",
    "numpy.put": "mutates in place: handled by the write-side rewriter",
    "numpy.place": "mutates in place: handled by the write-side rewriter",
    "numpy.copyto": "mutates in place: handled by the write-side rewriter",
    "numpy.fill_diagonal": "mutates in place: handled by the write-side rewriter",
    "numpy.isnat": "datetime only; no jnp equivalent",
}


for _q in DIFFERS:
    FUNCTIONS[_q] = "npr_np_" + _q[len("numpy."):].replace(".", "_")
FUNCTIONS["numpy.promote_types"] = "np.promote_types"
FUNCTIONS["numpy.issubdtype"] = "np.issubdtype"


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
    """True for calls that must stay on the host (random, I/O, printing)."""
    return qualified_name.startswith(HOST_ONLY_PREFIXES)


def uses_shim(qualified_name: str) -> bool:
    """True when the replacement is an npr_np_* shim from emit/shims.py."""
    rep = FUNCTIONS.get(qualified_name)
    return rep is not None and rep.startswith("npr_np_")
