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
        sort argsort searchsorted lexsort partition argpartition
        interp convolve correlate digitize trapezoid polyval cov corrcoef
        unwrap result_type can_cast promote_types issubdtype
        iscomplexobj isrealobj isscalar
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
# one line each; the table maps them to shims with NumPy's semantics.
DIFFERS: dict[str, str] = {}

# Left out on purpose (refused by the translator), with the reason.
LEFT_OUT: dict[str, str] = {}


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
