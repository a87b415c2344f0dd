"""Host calls at run time, in program order: npr_random, npr_call."""

import functools
import types

from jax.experimental import io_callback as _npr_io_callback
import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_note_effect, npr_bounds_ok
from .compat import _npr_eager, _npr_traced, _npr_weak_astype
from .core import _npr_above, npr_load, npr_pyreturn, NprError
from .host_words import _npr_host_operands, _npr_note_callback, _npr_wide, NprWords
from .jit import NprFunction
from .pymath import _npr_py_round
from .refs import _npr_batched, _npr_differentiated
from .views import _npr_is_ref


# ---- host calls --------------------------------------------------------------------------


def npr_random(generator, method, *args, **kwargs):
    """`np.random.normal(0.0, 1.0, n)`, `rng.integers(0, n, size=k)`: a draw from a NumPy
    generator (or `np.random.seed(s)`: _npr_seed), made on the host when the compiled program runs (an ordered io_callback), never
    while tracing. The values are NumPy's own stream and the caller's generator (or NumPy's
    global state) advances as it would in NumPy, in program order. Sizes are static; parameters
    read from arrays travel to the host as operands."""
    if not (generator is np.random or isinstance(generator, (np.random.Generator, np.random.RandomState,
                                                             NprMadeGenerator))):
        # a method named like a draw (`sampler.sample(n)`) on an object that is no NumPy generator:
        # what it does is the object's own, so it is the object's call np2ref cannot see into (rt/opaque.py)
        return _npr_above.opaque(generator, method, *args, **kwargs)  # (opaque.py, above)
    if method == "seed" and generator is np.random:  # (rules/calls.py plans np.random.seed only)
        return _npr_seed(generator, args, kwargs)
    if method in _NPR_RANDOM_STATEFUL:
        raise NprError("NPR023", f".{method}() sets, reads or shuffles a generator's state, which "
                       "np2ref does not do inside a compiled function")
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs))
    leaves = [npr_load(leaf) if _npr_is_ref(leaf) else leaf for leaf in leaves]
    if _npr_eager_values(leaves):  # host code (set-up run as written): NumPy's own draw, value and type
        return _npr_host_now(getattr(_npr_generator_now(generator), method), leaves, tree)
    operands = {i: jnp.asarray(leaf) for i, leaf in enumerate(leaves) if isinstance(leaf, jax.Array)}
    if _npr_differentiated(list(operands.values())):
        raise NprError("NPR023", f".{method}() draws with parameters being differentiated; a "
                       "draw made on the host has no derivative")
    if _npr_batched(list(operands.values())):
        raise NprError("NPR023", f".{method}() draws under jax.vmap with batched parameters, or in a "
                       "loop or branch that depends on batched values; NumPy would draw once per batch "
                       "member, in order, which a vmapped program cannot do")

    def host_call(values, draw):
        host = list(leaves)
        for i, v in zip(operands, values):
            host[i] = np.asarray(v)
        a, k = jax.tree_util.tree_unflatten(tree, host)
        return draw(*a, **k)

    drawn = _npr_random_shape(generator, method, host_call, list(operands.values()))
    sample = np.asarray(drawn)
    if sample.dtype.kind not in "biufc":
        raise NprError("NPR023", f".{method}() gives {sample.dtype} values, not numbers")
    dtype = jax.dtypes.canonicalize_dtype(sample.dtype)

    sent, received = _npr_host_operands(list(operands.values()))

    def run(*values):
        return np.asarray(host_call(received(values), getattr(_npr_generator_now(generator), method)), dtype=dtype)

    _npr_note_effect(run, operands)  # (NumPy's error while tracing: made then, bounds.py)
    run, sent = _npr_unless_failed(run, sent, lambda: np.zeros(sample.shape, dtype))
    out = _npr_host_result(run, sample.shape, dtype, sent)
    # `rng.random()`, `rng.choice(5)`: NumPy's draw is a Python float or int, returned as one and
    # weakly typed meanwhile, as a Python number promotes (`x32 * rng.random()` is float32)
    return npr_py_draw(out, type(drawn).__name__) if type(drawn) in (int, float, complex) else out


def npr_py_draw(out, kind):
    """A traced draw that NumPy gives as a Python `kind` ('int', 'float', 'complex'): weakly
    typed, and noted to be returned as a Python number (npr_pyreturn)."""
    return npr_pyreturn(_npr_weak_astype(out, out.dtype), kind)


class NprMadeGenerator:
    """A generator the function makes (`rng = np.random.default_rng(seed)`): made on the host each
    time the program runs, in program order (npr_generator's ordered io_callback), and drawn from
    by npr_random then. `made` is the generator of the run in progress; `probe` a throwaway of the
    same kind, for the shapes of draws while tracing."""

    def __init__(self, factory, bit):
        self.factory, self.bit = factory, bit
        self.probe = self.make(0)
        self.made = None

    def make(self, *args, **kwargs):
        return self.factory(self.bit(*args, **kwargs)) if self.bit is not None else self.factory(*args, **kwargs)


def npr_generator(factory, *args, bit=None, **kwargs):
    """`np.random.default_rng(seed)` (`RandomState(seed)`, `Generator(PCG64(seed))`: bit=PCG64)
    made inside a compiled function: NumPy makes a fresh generator on every call, so it is made on
    the host when the program runs, in program order with the draws around it (an ordered
    io_callback), never once while tracing (a second call would go on with the first call's
    stream). A seed read from array data travels to the host as an operand."""
    made = NprMadeGenerator(factory, bit)

    def make(*a, **k):
        made.made = made.make(*a, **k)
    _npr_host_effect(make, args, kwargs, "a generator made")
    return made


def _npr_generator_now(generator):
    """The NumPy generator a draw is made from when the program runs."""
    return generator.made if isinstance(generator, NprMadeGenerator) else generator


def _npr_seed(generator, args, kwargs):
    """`np.random.seed(s)` in a compiled function: seeded on the host when the program runs, in
    program order with the draws around it (an ordered io_callback), never while tracing. A seed
    read from array data travels to the host as an operand. Returns None, as NumPy does."""
    _npr_host_effect(generator.seed, args, kwargs, ".seed()")


def _npr_host_effect(fn, args, kwargs, what):
    """fn(*args, **kwargs) for its effect on host state (seeding, making a generator): now where
    nothing is traced (host code), else an ordered io_callback when the program runs, its array
    arguments sent as operands (refused under vmap with batched ones: NumPy would call it once
    per batch member, in order)."""
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs))
    leaves = [npr_load(leaf) if _npr_is_ref(leaf) else leaf for leaf in leaves]
    if _npr_eager_values(leaves):
        _npr_host_now(fn, leaves, tree)
        return
    operands = {i: jnp.asarray(leaf) for i, leaf in enumerate(leaves) if isinstance(leaf, jax.Array)}
    if _npr_batched(list(operands.values())):
        raise NprError("NPR023", f"{what} under jax.vmap from a batched value, or in a loop or branch "
                       "that depends on batched values; NumPy would do it once per batch member, in order")
    sent, received = _npr_host_operands(list(operands.values()))

    def run(*values):
        host = list(leaves)
        for i, v in zip(operands, received(values)):
            host[i] = v[()] if v.ndim == 0 else v
        a, k = jax.tree_util.tree_unflatten(tree, host)
        fn(*a, **k)

    _npr_note_effect(run, operands)  # (NumPy's error while tracing: made then, bounds.py)
    run, sent = _npr_unless_failed(run, sent, lambda: None)
    _npr_note_callback()
    _npr_io_callback(run, None, *sent, ordered=True)


def _npr_unless_failed(run, operands, skipped):
    """(run, operands) for a host call made only while no run-time check of the call has failed:
    NumPy raised at the failing statement and made no later draw, seeding or call, whose effect on
    a generator's (an object's) state would outlive the call's error. With checks on, the check
    record's flag goes first and a run not made returns skipped() (never seen: the call raises)."""
    ok = npr_bounds_ok()
    if ok is True or _npr_batched([ok]):
        return run, list(operands)

    def gated(flag, *values):
        return run(*values) if flag else skipped()
    return gated, [ok, *operands]


def _npr_eager_values(leaves):
    """Whether a host call's arguments are concrete and nothing is being traced: a converted
    function run as written from host code (NprFunction's eager route), where the call is made
    now. A draw staged as an io_callback there came back a float32 jax.Array (outside the
    64-bit scope) that host code then wrote into in vain."""
    return not any(_npr_traced(leaf) for leaf in leaves) and _npr_eager()


def _npr_host_now(fn, leaves, tree):
    """fn(*args, **kwargs) on the host now, its jax.Array arguments as NumPy values."""
    host = [(np.asarray(v)[()] if v.ndim == 0 else np.asarray(v)) if isinstance(v, jax.Array) else v
            for v in leaves]
    a, k = jax.tree_util.tree_unflatten(tree, host)
    return fn(*a, **k)


def _npr_host_result(run, shape, dtype, operands, ordered=True):
    """An io_callback (ordered: in program order) of run(*operands) -> an array of `shape` and
    `dtype`, exact on any thread: 64-bit values come back as words (host_words.py)."""
    dtype = np.dtype(dtype)
    _npr_note_callback()
    if not _npr_wide(dtype):
        return _npr_io_callback(run, jax.ShapeDtypeStruct(shape, dtype), *operands, ordered=ordered)
    words = NprWords()

    def as_words(*values):
        return words.returned(run(*values), shape, dtype)
    out = _npr_io_callback(as_words, words.spec(shape, dtype), *operands, ordered=ordered)
    return words.take(out, dtype)


def npr_special(fn, *args, **kwargs):
    """`scipy.special.gamma(x)` (any SciPy special function, which is pure): on values known while
    tracing (literals, module constants, arithmetic on them, static arguments), SciPy's own call
    now, its value a constant of the program (NumPy's program computes the same Python numbers);
    on traced data, an elementwise function (a NumPy ufunc: the result's shape is the inputs'
    broadcast, its dtype SciPy's for theirs) runs on the host when the program runs, an io_callback
    per output; anything else traced is refused (NPR021). Not differentiable (no derivative of a
    host call: refused)."""
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs))
    leaves = [npr_load(leaf) if _npr_is_ref(leaf) else leaf for leaf in leaves]
    traced = [i for i, leaf in enumerate(leaves) if _npr_traced(leaf)]
    name = f"{getattr(fn, '__module__', None) or 'scipy.special'}.{getattr(fn, '__name__', fn)}"
    if not traced:
        return _npr_host_now(fn, leaves, tree)
    if not isinstance(fn, np.ufunc) or kwargs:
        raise NprError("NPR021", f"{name}() on traced data: only SciPy's elementwise special functions "
                       "(ufuncs, without keywords) run on the host at run time; call it outside the converted "
                       "function, or on values known before the call (constants, static arguments)")
    operands = [jnp.asarray(leaves[i]) for i in traced]
    if _npr_differentiated(operands):
        raise NprError("NPR021", f"{name}() on values being differentiated: SciPy runs on the host, "
                       "which gives no derivative")
    weak = [_npr_weak_kind(v) for v in operands]  # a Python number traced: passed back as one

    def host_args(values):
        host = list(leaves)
        for i, v, kind in zip(traced, values, weak):
            host[i] = kind(v[()]) if kind is not None else v
        return host
    with np.errstate(all="ignore"):  # (stand-in values: only the dtypes are wanted)
        sample = fn(*host_args([np.ones((), v.dtype) for v in operands]))
    shape = np.broadcast_shapes(*(np.shape(leaf) for leaf in leaves))
    sent, received = _npr_host_operands(operands)
    outs = sample if isinstance(sample, tuple) else (sample,)

    def output(k, dtype):
        def run(*values):
            got = fn(*host_args(received(values)))
            return np.asarray(got[k] if isinstance(got, tuple) else got, dtype=dtype)
        return _npr_host_result(run, shape, dtype, sent, ordered=False)
    results = tuple(output(k, jax.dtypes.canonicalize_dtype(np.asarray(o).dtype)) for k, o in enumerate(outs))
    return results if isinstance(sample, tuple) else results[0]


def npr_round(v, *ndigits):
    """Python's `round(v, ndigits)` where an argument reads array data (rules/calls.py): Python's
    own on values known when traced, and NumPy's round (the value's own `__round__`) for NumPy's
    scalars and arrays. A traced Python number (weakly typed: `float(x[0])`, a float argument)
    rounded to `ndigits` is Python's correctly rounded decimal of its binary value, which no
    jax.numpy function computes (`round(2.675, 2)` is 2.67 in Python, 2.68 in jax.numpy and NumPy):
    computed exactly on the device for a float and a known 0 <= ndigits <= 22 (pymath._npr_py_round;
    not on a TPU), else run on the host when the program runs (unordered: it is pure; an io_callback
    a trip inside a loop); a Python number again (npr_pyreturn), its derivative zero as jnp.round's."""
    v = npr_load(v) if _npr_is_ref(v) else v
    if not _npr_traced(v) and not any(_npr_traced(n) for n in ndigits):
        return round(v, *ndigits)
    kind = _npr_weak_kind(v) if _npr_traced(v) else None
    if not ndigits or ndigits[0] is None or kind not in (int, float):
        return round(v, *ndigits)
    dtype = np.dtype(v.dtype)
    exact = _npr_py_round(jax.lax.stop_gradient(v), ndigits[0]) if kind is float and dtype == np.float64 else None
    if exact is not None:  # (on the device: a known 0 <= n <= 22, IEEE float64; pymath._npr_py_round)
        return npr_pyreturn(_npr_weak_astype(exact, dtype), "float")
    operands = [jax.lax.stop_gradient(jnp.asarray(v)), jnp.asarray(ndigits[0], dtype=jnp.int64)]
    sent, received = _npr_host_operands(operands)

    def run(*values):
        value, n = received(values)
        return np.asarray(round(kind(value[()]), int(n)), dtype=dtype)
    out = _npr_host_result(run, (), dtype, sent, ordered=False)
    return npr_pyreturn(_npr_weak_astype(out, dtype), kind.__name__)


def _npr_weak_kind(v):
    """The Python type of a traced 0-d value that stands for a Python number (JAX's weak type:
    a float argument, `x * 2.0` of one), which NumPy's promotion treats as weak; else None."""
    if jnp.ndim(v) != 0 or not getattr(v, "weak_type", False):
        return None
    return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[np.dtype(v.dtype).kind]


# Generator methods that are not draws returning new values: state access, in-place shuffles.
_NPR_RANDOM_STATEFUL = frozenset({"seed", "shuffle", "permuted", "set_state", "get_state", "spawn",
                                  "set_bit_generator", "get_bit_generator"})
# NumPy functions (module "numpy") that do I/O or change process state: never run while tracing.
_NPR_IMPURE_NUMPY_NAMES = ("save", "load", "genfromtxt", "fromfile", "fromregex", "fromstring", "frombuffer",
                           "memmap", "set_", "get_", "setbufsize", "getbufsize", "seterr", "geterr", "errstate", "printoptions", "array2string",
                           "array_repr", "array_str", "format_float", "info", "show_")
_NPR_PURE_BUILTINS = frozenset({abs, min, max, round, len, sum, pow, divmod, int, float, bool, complex,
                                 tuple, list, range, enumerate, zip, reversed, sorted, isinstance})
_NPR_IMPURE_NUMPY = ("numpy.random", "numpy.lib.npyio", "numpy.testing")


def npr_call(fn, *args, **kwargs):
    """`fn(x)` where `fn` came in as an argument (a function, a module's function: `xp.zeros`),
    checked when the call is traced: a pure callable runs as it is (a builtin such as `abs`, a
    NumPy or jax.numpy function, `math`), a draw from a NumPy generator runs on the host at run time
    (npr_random), and anything else is refused: a Python function np2ref cannot see into could
    draw, count or read state, and running it once while tracing would freeze its result."""
    kind = _npr_callable_kind(fn)
    if kind == "draw":
        owner = fn.__self__
        return npr_random(np.random if owner is np.random.mtrand._rand else owner, fn.__name__, *args, **kwargs)
    if kind is not None:
        # pure, or a function np2ref converted (`rk4(rhs, y0)` given the module's `rhs`): its
        # program, which writes none of its arguments, traced in place as a direct call would be
        return fn(*args, **kwargs)
    name = getattr(fn, "__qualname__", None) or type(fn).__name__
    raise NprError("NPR021", f"calls {name}, passed in as an argument, which np2ref cannot see into "
                   "(it could draw, count or read state, and would run once while tracing)")


def _npr_callable_kind(fn):
    """"draw" (a NumPy generator's method), "pure" (a builtin, ufunc, math, NumPy or jax.numpy
    function that does no I/O), "converted" (an np2ref function writing no argument) or None."""
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, (np.random.Generator, np.random.RandomState)) or owner is np.random.mtrand._rand:
        return "draw"
    module = getattr(fn, "__module__", None) or ""
    impure = module.startswith(_NPR_IMPURE_NUMPY) or (module.startswith("numpy") and str(
        getattr(fn, "__name__", "")).startswith(_NPR_IMPURE_NUMPY_NAMES))
    try:
        builtin = fn in _NPR_PURE_BUILTINS
    except TypeError:  # an unhashable callable
        builtin = False
    if isinstance(fn, np.ufunc) or builtin or (not impure and (
            module in ("math", "jax.numpy", "numpy") or module.startswith(("numpy.", "jax.")))):
        return "pure"
    if isinstance(fn, NprFunction) and not fn.mutated:
        return "converted"
    return None


def npr_xp(namespace, path, translated, method=None):
    """`xp.zeros_like` (path "zeros_like"; `xp.linalg.norm`: "linalg.norm") with `xp` a module
    passed in, as array-API style code takes it: with xp NumPy, np2ref's translation of
    `np.zeros_like` (`translated`, from the table), so the function computes what NumPy computes;
    with another namespace (jax.numpy, say), its own function through npr_call. `xp.clip(a, 1.5)`
    with `xp` maybe an array (a name both have, rules/namespaces.py maybe_namespaces): an array's
    method, `method(xp, a, 1.5)` (its receiver-first shim) or the array's own."""
    if namespace is np:
        return translated
    if not isinstance(namespace, types.ModuleType):
        return functools.partial(method, namespace) if method is not None else getattr(namespace, path)
    fn = namespace
    for name in path.split("."):
        fn = getattr(fn, name)
    return functools.partial(npr_call, fn)


def _npr_random_shape(generator, method, host_call, operands):
    """A draw like the one asked for (its shape, dtype and Python type are the call's), made
    from a throwaway generator of the same kind (the caller's is not touched) with stand-in
    parameter values: NumPy's result shape and dtype depend on the parameters' shapes and dtypes
    only."""
    if isinstance(generator, NprMadeGenerator):
        probe = generator.probe
    else:
        probe = np.random.default_rng(0) if isinstance(generator, np.random.Generator) else np.random.RandomState(0)
    fillers = (lambda k, o: np.ones(o.shape, o.dtype), lambda k, o: np.full(o.shape, k + 1, o.dtype),
               lambda k, o: np.full(o.shape, 1.0 / max(o.size, 1), o.dtype))
    for fill in fillers:
        try:
            drawn = host_call([fill(k, o) for k, o in enumerate(operands)], getattr(probe, method))
        except (ValueError, TypeError):
            continue
        try:  # a size read from array data (`rng.random(m)`, m traced): a shape known only at run time
            other = host_call([np.full(o.shape, 2, o.dtype) for o in operands], getattr(probe, method))
        except (ValueError, TypeError):
            return drawn
        if np.shape(other) != np.shape(drawn):
            raise NprError("NPR023", f"the shape of .{method}() depends on array data (a size read "
                           "from an array or a loop variable), which a compiled program must know when traced")
        return drawn
    raise NprError("NPR023", f"the shape of .{method}() could not be found from its arguments "
                   "without their values")


