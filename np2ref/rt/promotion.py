"""NumPy's type promotion for Python operators between traced values of different dtypes. jax.numpy promotes
`int64_array + float32_array` to float32 (JAX's lattice), NumPy to float64; the 28 ordered pairs where the two
differ all hold a float16, float32 or complex64 and an integer of 16 bits or more (_NPR_PROMOTE_TABLE,
computed from both libraries at import). The converted file keeps its operators as the user wrote them; the
traced program runs a variant of each converted function (NprFunction.traced_fn), compiled once from that same
source with `ast`, whose operators (`a + b`, `-a`, `a < b`, `s += y` on a name; not between two literals) go
through _npr_binop & co.: between such a pair the operands are first cast to NumPy's result dtype; otherwise
the operator is applied to the operands as they are, so a program without such a pair traces to the same jaxpr
(all 46 corpus programs do), but for a product, power or `abs()` of signed integer arrays, made on their
unsigned bits (wrapping.py, whose operator tables these are). Python scalars are weak in both libraries, NumPy
scalars (`np.float32(2)`) strong in both (NEP 50). dtype_policy="float32": jax.numpy's promotion
(wrapping._npr_plain_binop).
"""

import ast as _npr_ast
import linecache as _npr_linecache
import threading as _npr_threading
import types as _npr_types
import jax
import jax.numpy as jnp
import numpy as np

from .casts import _npr_check_int_exact, _npr_check_weak_int, _npr_weak, _npr_weak_int
from .compat import _npr_traced
from .core import _npr_above, _npr_state, npr_load, npr_pyreturn, NprUnsupported
from .np_dtypes import _npr_np_asarray, _npr_np_result_dtype
from .wrapping import (
    _NPR_CMPS, _NPR_IOPS, _NPR_OPERATORS, _npr_plain_binop, _npr_plain_ibinop, _npr_wrap_abs)


def _npr_promote_table():
    kinds = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                                   np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128)]
    with jax.enable_x64(True):  # JAX's lattice itself (without x64 it narrows its answers)
        return {(a, b): np.result_type(a, b) for a in kinds for b in kinds
                if np.result_type(a, b) != np.dtype(jax.numpy.promote_types(a, b))}


_NPR_PROMOTE_TABLE = _npr_promote_table()  # (dtype, dtype) -> NumPy's result where jax.numpy's differs


def _npr_numpy_operands(a, b):
    """(a, b) cast to NumPy's result dtype where the Python operator on them would promote as
    JAX does and NumPy's result differs; else (a, b) themselves."""
    if _npr_state.get("either"):
        _npr_check_either(a, b)
    da, db = getattr(a, "dtype", None), getattr(b, "dtype", None)
    if da is None or db is None or da == db:
        return a, b
    target = _NPR_PROMOTE_TABLE.get((da, db))
    if target is None or not (isinstance(a, jax.Array) or isinstance(b, jax.Array)):
        return a, b  # NumPy values between themselves follow NumPy's own rule
    if _npr_weak(a) or _npr_weak(b) or (target.itemsize > 4 and jax.numpy.result_type(float).itemsize < 8):
        return a, b  # a traced Python scalar; or dtype_policy="float32", where no 64-bit type exists
    return _npr_promote_to(a, target), _npr_promote_to(b, target)


def _npr_promote_to(v, dtype):
    v = npr_load(v)
    if isinstance(v, jax.Array):
        return jax.lax.convert_element_type(v, dtype)
    return np.asarray(v).astype(dtype)[()] if isinstance(v, np.generic) else np.asarray(v).astype(dtype)


def _npr_binop(op, a, b):
    """`a op b` (an operator or a comparison) with NumPy's result dtype; a list or tuple
    meeting an array is made one, as NumPy makes it (a list argument kept a list: ops.py)."""
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        a, b = _npr_seq_operands(a, b)
    pa, pb = _npr_numpy_operands(a, b)
    out = _npr_numpy_special(op, pa, pb)
    return _npr_noted(op, a, b, _npr_strong(_NPR_OPERATORS[op](pa, pb) if out is None else out, pa, pb))


def _npr_strong(out, a, b):
    """`out` strongly typed where an operand is a NumPy integer or bool array or scalar: jax.numpy
    makes `i64 - 2.0` a weakly typed float64, which a later `* f16` turns into float16, where
    NumPy's float64 array keeps float64 (`(np.arange(3) - 2.0) * b.max()`, b float16)."""
    if not _npr_weak(out):
        return out
    for v in (a, b):
        if isinstance(v, (jax.Array, np.ndarray, np.generic)) and not _npr_weak(v) and np.dtype(v.dtype).kind in "biu":
            return jax.lax.convert_element_type(out, out.dtype)
    return out


def _npr_numpy_special(op, a, b):
    """Where NumPy's operator on an array gives another answer than jax.numpy's, that answer
    (None elsewhere):
    - a Python int out of an integer array's range (NEP 50): comparisons are decided by the
      value (`u8 < 300` is all True; jax.numpy casts 300 to 44), other operators but `/` raise
      NumPy's OverflowError (jax.numpy wraps it);
    - `/` between integers (or booleans) is float64 (jax.numpy: float32 below 64 bits);
    - `a ** 0.5` (0.5 a Python or NumPy scalar) on a float array is NumPy's fast path, a
      square root (`-inf ** 0.5` is nan, `-0.0 ** 0.5` is -0.0, where pow gives inf and 0.0)."""
    if op != "/":  # (`/` takes the int as a float64 in NumPy)
        out = _npr_int_out_of_range(op, a, b, lambda arr: isinstance(arr, jax.Array))
        if out is not None:
            return out
    if op == "/" and (isinstance(a, jax.Array) or isinstance(b, jax.Array)) and \
            _npr_kind(a) in "biu" and _npr_kind(b) in "biu" and jax.numpy.result_type(float).itemsize == 8:
        return jax.numpy.true_divide(jax.numpy.asarray(a, np.float64), jax.numpy.asarray(b, np.float64))
    if op == "**" and isinstance(a, jax.Array) and np.dtype(a.dtype).kind == "f":
        return _npr_half_power(a, b, a ** b)
    return None


def _npr_int_out_of_range(op, a, b, is_array):
    """NEP 50 for a Python int outside the range of the integer array it meets (is_array(arr):
    an operand this applies to): `op` a comparison, NumPy decides it by the value (`u8 < 300`
    is all True: the array's full of that truth), any other operator raises NumPy's
    OverflowError; None when neither operand is such a pair."""
    for arr, value, left in ((a, b, True), (b, a, False)):
        if _npr_weak_int(value) and is_array(arr) and np.dtype(arr.dtype).kind in "iu" and not _npr_weak(arr):
            if op in _NPR_CMPS:  # `x < i`, i a loop's Python int: compared by the value, in int64
                if np.dtype(arr.dtype) != np.uint64 and np.dtype(arr.dtype).itemsize < 8:
                    wide = jax.lax.convert_element_type(arr, np.int64)
                    return _NPR_CMPS[op](wide, value) if left else _NPR_CMPS[op](value, wide)
            else:
                _npr_check_weak_int(value, arr.dtype)
            continue
        if type(value) is int and is_array(arr) and np.dtype(arr.dtype).kind in "iu" and not _npr_weak(arr):
            info = np.iinfo(arr.dtype)
            if not info.min <= value <= info.max:
                if op not in _NPR_CMPS:
                    raise OverflowError(f"Python integer {value} out of bounds for {np.dtype(arr.dtype).name}")
                above = value > info.max  # the array is below the value everywhere
                truth = {"==": False, "!=": True, "<": above, "<=": above, ">": not above, ">=": not above}[op]
                if not left:  # `300 > x`: x < 300
                    truth = {"==": False, "!=": True, "<": not above, "<=": not above, ">": above, ">=": above}[op]
                return jax.numpy.full(np.shape(arr), truth)
    return None


def _npr_kind(v):
    return np.dtype(v.dtype).kind if hasattr(v, "dtype") else {bool: "b", int: "i"}.get(type(v), "f")


def _npr_noted(op, a, b, out):
    if _npr_state.get("either") and op not in _NPR_CMPS:
        for v, other in ((a, b), (b, a)):
            if _npr_either_kind(v) and _npr_pythonlike(other):  # `v * 2.0`: a Python float or np.float64, as
                _npr_check_int_exact(op, a, b, out)  # v was (`v16 - 1`: an int16 standing for a Python int?)
                return _npr_mark_either(out, _npr_either_chosen(v))
        if (both := _npr_above.either_both(a, b, out)) is not None:  # (carried_kinds: `p[0] + p[1]`, tuple items)
            return _npr_mark_either(out, both)
    if op in _NPR_CMPS and _npr_pythonlike(a) and _npr_pythonlike(b) and jnp.ndim(out) == 0:
        return npr_pyreturn(out, "bool")  # `float(x[0]) > dt` of Python numbers: Python's bool
    return out


# --------------------------------------------------- a value that is a NumPy scalar or a Python number
# `v = x[i] if c else 0.0` (c traced, x float64), `v = max(x[i], 0.0)` (rt/picks.py): NumPy's v is a float64
# or a Python float, as the data picks; the traced v, a float64, is NumPy's answer until v meets a dtype for
# which the two promote differently (`v * y32`: float64 or float32): refused (NPR128). Noted for one trace.
_NPR_PYTHON_KINDS = {"i": int, "u": int, "f": float, "c": complex}


def _npr_mark_either(v, chosen=None):
    """Note that traced `v` stands for a NumPy scalar of its dtype or a Python number. `chosen`:
    (the branch's predicate, whether its true branch gave the Python number): returned, the
    call gives Python's type where the data took that branch (pyscalars._npr_python_leaves)."""
    kind = _NPR_PYTHON_KINDS.get(np.dtype(v.dtype).kind) if isinstance(v, jax.Array) and v.ndim == 0 else None
    if kind is not None:
        _npr_state.setdefault("either", {})[id(v)] = (v, kind, *(chosen or ()))
    return v


def _npr_either_kind(v):
    entry = _npr_state.get("either", {}).get(id(v))
    return entry[1] if entry is not None and entry[0] is v else None


def _npr_either_chosen(v):
    """(predicate, whether true gives the Python number) of a noted value, or None."""
    entry = _npr_state.get("either", {}).get(id(v))
    return entry[2:] if entry is not None and entry[0] is v and len(entry) == 4 else None


def _npr_pythonlike(v):
    return type(v) in (int, float, complex) or _npr_weak(v)


def _npr_check_either(a, b):
    for v, other in ((a, b), (b, a)):
        kind = _npr_either_kind(v)
        if kind is None or _npr_pythonlike(other) or not hasattr(other, "dtype") or _npr_state.get("typing"):
            continue  # (typing: core._npr_typing_pass)
        d = np.dtype(other.dtype)
        if np.result_type(d, kind(0)) != np.result_type(d, v.dtype):
            raise NprUnsupported(
                "NPR128", f"a conditional expression or max()/min() on array data gave a {v.dtype} value or a "
                f"Python {kind.__name__}, as the data picks, and it meets a {d} value here, where NumPy's "
                f"result type would differ between the two")


def _npr_ibinop(op, a, b):
    """`a op= b` on a name: Python's own in-place operator, unless NumPy promotes the pair
    differently from JAX (then `a` is a traced value, never updated in place: a rebinding)."""
    pa, pb = _npr_numpy_operands(a, b)
    return _npr_noted(op, a, b, _npr_strong(_NPR_IOPS[op](a, b) if pa is a else _NPR_OPERATORS[op](pa, pb), pa, pb))


def _npr_unary(op, v):
    """`-v`, `+v`: Python's own; a value _npr_mark_either noted stays noted."""
    out = -v if op == "-" else +v
    if out is v and isinstance(v, jax.Array):  # `+a` is a new array in NumPy, not `a` itself
        out = jax.numpy.array(v, copy=True)
    if _npr_state.get("either") and _npr_either_kind(v):
        _npr_check_int_exact(op, 0, v, out)
        return _npr_mark_either(out, _npr_either_chosen(v))
    return out


def _npr_abs(f, v):
    """`abs(v)`, f what the name `abs` holds: a signed integer array's wraps (wrapping.py)."""
    return _npr_wrap_abs(v) if f is abs else f(v)


def _npr_new(out, v):
    """A method NumPy answers with a new array (`a.flatten()`): a copy where jnp hands back `v`."""
    return jax.numpy.array(out, copy=True) if out is v and isinstance(v, jax.Array) else out


def _npr_chain_of(binop):
    def chain(first, *rest):
        """A chained comparison `a < b <= c`: rest alternates operators and functions giving the
        next operand, each evaluated only when the comparisons before it held (Python's rule)."""
        left, result = first, True
        for k in range(0, len(rest), 2):
            right = rest[k + 1]()
            result = binop(rest[k], left, right)
            if not result:
                return result
            left = right
        return result
    return chain


_npr_chain = _npr_chain_of(_npr_binop)


# ------------------------------------------------------------- the promoting variant of a function
_NPR_AST_OPS = {
    _npr_ast.Add: "+", _npr_ast.Sub: "-", _npr_ast.Mult: "*", _npr_ast.Div: "/",
    _npr_ast.FloorDiv: "//", _npr_ast.Mod: "%", _npr_ast.Pow: "**", _npr_ast.BitAnd: "&",
    _npr_ast.BitOr: "|", _npr_ast.BitXor: "^", _npr_ast.LShift: "<<", _npr_ast.RShift: ">>",
    _npr_ast.MatMult: "@", _npr_ast.Eq: "==", _npr_ast.NotEq: "!=", _npr_ast.Lt: "<",
    _npr_ast.LtE: "<=", _npr_ast.Gt: ">", _npr_ast.GtE: ">=",
}
_NPR_PROMOTE_HELPERS = ("_npr_binop", "_npr_ibinop", "_npr_chain", "_npr_unary", "_npr_new", "_npr_abs")


def _npr_literal(node, floats_only=False):
    """A number written in the source (`2`, `-1.5`): a Python scalar, weak in both libraries."""
    if isinstance(node, _npr_ast.UnaryOp) and isinstance(node.op, (_npr_ast.USub, _npr_ast.UAdd)):
        node = node.operand
    return isinstance(node, _npr_ast.Constant) and not isinstance(node.value, str) and not (
        floats_only and type(node.value) is int)


class _NprPromoting(_npr_ast.NodeTransformer):
    """Operators become _npr_binop & co., except between two literals and comparisons with one."""

    def __init__(self):
        self.called = set()  # names called: module functions that may need the variant too

    def _call(self, helper, node, *args):
        return _npr_ast.copy_location(_npr_ast.Call(_npr_ast.Name(helper, _npr_ast.Load()), list(args), []), node)

    def visit_Call(self, node):
        if isinstance(node.func, _npr_ast.Name):
            self.called.add(node.func.id)
        node = self.generic_visit(node)
        if isinstance(node.func, _npr_ast.Name) and node.func.id == "abs" and len(node.args) == 1 \
                and not node.keywords:  # `abs(x * x)`: the builtin named, whatever `abs` is bound to
            return self._call("_npr_abs", node, node.func, node.args[0])
        if isinstance(node.func, _npr_ast.Attribute) and node.func.attr == "flatten" \
                and isinstance(node.func.value, _npr_ast.Name):  # `a.flatten()` of a 1-D `a`: a copy
            return self._call("_npr_new", node, node, _npr_ast.Name(node.func.value.id, _npr_ast.Load()))
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if _npr_literal(node.left) and _npr_literal(node.right):
            return node  # Python's own (with one literal nothing is cast, but `v * 2.0` keeps a note)
        return self._call("_npr_binop", node, _npr_ast.Constant(_NPR_AST_OPS[type(node.op)]), node.left, node.right)

    def visit_Compare(self, node):
        self.generic_visit(node)
        if not all(type(op) in _NPR_AST_OPS for op in node.ops):
            return node  # `in`, `is`: no promotion
        if len(node.ops) == 1:
            if _npr_literal(node.left, floats_only=True) or _npr_literal(node.comparators[0], floats_only=True):
                return node  # (an int literal may lie outside an integer array's range: `u8 < 300`)
            return self._call("_npr_binop", node, _npr_ast.Constant(_NPR_AST_OPS[type(node.ops[0])]),
                              node.left, node.comparators[0])
        if any(isinstance(n, _npr_ast.NamedExpr) for c in node.comparators for n in _npr_ast.walk(c)):
            return node  # `:=` in a function of its own would bind there
        rest = []
        for op, right in zip(node.ops, node.comparators):
            thunk = _npr_ast.Lambda(_npr_ast.arguments([], [], None, [], [], None, []), right)
            rest += [_npr_ast.Constant(_NPR_AST_OPS[type(op)]), _npr_ast.copy_location(thunk, right)]
        return self._call("_npr_chain", node, node.left, *rest)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, (_npr_ast.USub, _npr_ast.UAdd)) or _npr_literal(node):
            return node
        return self._call("_npr_unary", node, _npr_ast.Constant("-" if isinstance(node.op, _npr_ast.USub) else "+"),
                          node.operand)

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if not isinstance(node.target, _npr_ast.Name):
            return node  # stores through npr_at(a)[...] op= take NumPy's result type themselves
        call = self._call("_npr_ibinop", node, _npr_ast.Constant(_NPR_AST_OPS[type(node.op)]),
                          _npr_ast.Name(node.target.id, _npr_ast.Load()), node.value)
        return _npr_ast.copy_location(_npr_ast.Assign([node.target], call), node)


def _npr_promoting(fn, promote=True):
    """The variant of the converted function `fn` whose operators promote as NumPy does, or
    `fn` itself where its source cannot be read back (it then promotes as jax.numpy does).
    Kept on `fn` (`_npr_variant`): it lives as long as the function does. `promote=False`
    (dtype_policy="float32"): the operators promote as jax.numpy does, only their signed
    products wrap (wrapping.py), kept as `_npr_variant_plain`."""
    if not isinstance(fn, _npr_types.FunctionType):
        return fn
    key = "_npr_variant" if promote else "_npr_variant_plain"
    found = fn.__dict__.get(key)
    if found is None:
        with _NPR_AST_LOCK:
            try:
                found = _npr_build_promoting(fn, promote)
            except (OSError, SyntaxError, ValueError, TypeError):
                found = fn
        setattr(fn, key, found)
    return found


# CPython 3.11 keeps the AST converters' recursion depth in state every thread shares: two
# threads building variants at once (ast.parse, compile of an AST) raised "SystemError: AST
# constructor recursion depth mismatch" (tests/compile/test_compile.py, threads tracing at once)
_NPR_AST_LOCK = _npr_threading.RLock()


def _npr_source_def(code, text=None):
    """The `def` of `code` in its file's source (`text`, the source np2ref.compile exec'd it
    from, else as linecache holds it), checked to be the one compiled (name, first line, last
    line, parameters), else None. Two compiles of one file (loops="pallas" and not) share a
    linecache name: the later one's text, read back for the earlier one's function, passed those
    checks and traced the other translation (tests/loops/test_pallas_loops.py)."""
    lines = text.splitlines(True) if text is not None else _npr_linecache.getlines(code.co_filename)
    if not lines:
        return None
    tree = _npr_ast.parse("".join(lines))
    last = max((line for *_, line in code.co_lines() if line is not None), default=code.co_firstlineno)
    for node in _npr_ast.walk(tree):
        if isinstance(node, _npr_ast.FunctionDef) and node.name == code.co_name:
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            names = [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
            if first == code.co_firstlineno and node.end_lineno >= last and \
                    tuple(names) == code.co_varnames[:len(names)]:
                return node
    return None


def _npr_build_promoting(fn, promote=True):
    code = fn.__code__
    if fn.__closure__ or code.co_flags & 0x20:  # closures, generators: left as they are
        return fn
    node = _npr_source_def(code, fn.__globals__.get("__npr_sources__", {}).get(code.co_filename))
    if node is None:
        return fn
    node.decorator_list = []
    for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs + \
            [x for x in (node.args.vararg, node.args.kwarg) if x is not None]:
        a.annotation = None
    node.returns = None
    node.args.defaults = [_npr_ast.Constant(None) for _ in node.args.defaults]
    node.args.kw_defaults = [None if d is None else _npr_ast.Constant(None) for d in node.args.kw_defaults]
    rewriter = _NprPromoting()
    node = rewriter.visit(node)
    # module functions it calls by name get their variant too, looked up when called (late binding)
    callees = sorted(n for n in rewriter.called if n not in _NPR_PROMOTE_HELPERS and
                     _npr_promotable(fn.__globals__.get(n), code.co_filename))
    params = list(_NPR_PROMOTE_HELPERS) + callees
    outer = _npr_ast.FunctionDef(
        "_npr_promoting_outer", _npr_ast.arguments([], [_npr_ast.arg(p) for p in params], None, [], [], None, []),
        [node, _npr_ast.Return(_npr_ast.Name(node.name, _npr_ast.Load()))], [], None)
    module = _npr_ast.Module([outer], [])
    outer.lineno = outer.end_lineno = node.lineno
    _npr_ast.fix_missing_locations(module)
    compiled = compile(module, code.co_filename, "exec", dont_inherit=True)
    outer_code = next(c for c in compiled.co_consts if isinstance(c, _npr_types.CodeType))
    make = _npr_types.FunctionType(outer_code, fn.__globals__)
    glob = fn.__globals__
    helpers = (_npr_binop, _npr_ibinop, _npr_chain) if promote else _NPR_PLAIN_HELPERS
    variant = make(*helpers, _npr_unary, _npr_new, _npr_abs, *[_npr_late_callee(glob, n, promote) for n in callees])
    variant.__defaults__, variant.__kwdefaults__ = fn.__defaults__, fn.__kwdefaults__
    variant.__qualname__, variant.__module__ = fn.__qualname__, fn.__module__
    return variant


def _npr_promotable(value, filename):
    """A plain Python function of the converted module itself (a helper np2ref left undecorated)."""
    return isinstance(value, _npr_types.FunctionType) and value.__code__.co_filename == filename


def _npr_late_callee(glob, name, promote):
    def call(*args, **kwargs):
        f = glob[name]
        return (_npr_promoting(f, promote) if isinstance(f, _npr_types.FunctionType) else f)(*args, **kwargs)
    return call


_NPR_PLAIN_HELPERS = (_npr_plain_binop, _npr_plain_ibinop, _npr_chain_of(_npr_plain_binop))


def _npr_carried_dtype(values):
    """The dtype a name is carried in through a traced branch or loop, from the values it may hold
    there (arrays or avals; branches.py: _npr_traced_if, _npr_settle). Beside one NumPy dtype,
    Python numbers take it, as NumPy's operators would (`s = 0` then `s = s + x[i]` on int32 data
    is int32; `m = 0.0` then `m = f32[i]` float32; jnp.promote_types made both 64-bit). Refused
    NPR128: a Python float or complex beside a NumPy integer or bool (`best = -np.inf` then
    `best = x[i]` on int data: NumPy's name holds one or the other, a float64 carry would round
    int64 beyond 2**53), or a known Python int the NumPy integer cannot hold (`j = -1` then
    `j = u8[i]`). Otherwise (one kind of value, several NumPy dtypes) jnp.promote_types."""
    known = [v for v in values if type(v) is int]  # Python ints (under jit, jnp.asarray's are tracers)
    values = [jax.numpy.asarray(v) if type(v) in (bool, int, float, complex) else v for v in values]
    weak = [v for v in values if _npr_weak_value(v)]
    strong = {np.dtype(v.dtype) for v in values if not _npr_weak_value(v)}
    if len(strong) != 1 or not weak or strong == {np.dtype(bool)} and all(v.dtype.kind in "iu" for v in weak):
        dts = [np.dtype(v.dtype) for v in values]
        out = dts[0]
        for d in dts[1:]:
            out = jax.numpy.promote_types(out, d)
        return out
    (dt,) = strong
    for v in weak:
        kind = np.dtype(v.dtype).kind
        if dt.kind in "biu" and kind in "fc" or dt.kind == "f" and kind == "c":
            raise NprUnsupported("NPR128", f"a name holds a Python {'float' if kind == 'f' else 'complex'} "
                                 f"or a NumPy {dt} value, as array data decides (`best = -np.inf` then `best = x[i]` "
                                 f"on {dt} data): NumPy's type for it depends on the data")
    for v in known:
        if dt.kind in "iu" and not np.can_cast(np.min_scalar_type(v), dt):
            raise NprUnsupported("NPR128", f"a name holds the Python int {v} or a NumPy {dt} "
                                 f"value, as array data decides: {dt} cannot hold the int")
    return dt


def _npr_weak_value(v):
    """A Python number, or a traced or abstract value standing for one (weakly typed)."""
    if isinstance(v, jax.ShapeDtypeStruct):
        return bool(v.weak_type)
    return isinstance(v, jax.Array) and bool(jax.typeof(v).weak_type)


def _npr_half_power(a, b, r, ufunc=False):
    """`r`, the power `a ** b`, or NumPy's own where they differ: a float32 / float64 power
    of an array to an exponent of one element that is 0.5 is the square root (`-inf ** 0.5`
    is nan, `-0.0 ** 0.5` is -0.0; pow gives inf and 0.0), 2.0 the square `a * a` and -1.0 the
    reciprocal `1 / a` (NumPy's fast_scalar_power; XLA's simplifier makes pow those by default,
    but with bitwise=True, no simplifier, pow rounded 77 of 100,000 squares otherwise), for the
    operator and np.power alike (the operator on a NumPy scalar base, `x[0] ** p`, is C's pow;
    np.power's is not: `ufunc`). A traced exponent (one made in a loop body) picks per call."""
    if not (isinstance(a, jax.Array) and (a.ndim or ufunc) and np.dtype(r.dtype) in _NPR_SQRT_DTYPES
            and np.dtype(a.dtype).kind == "f") or type(b) in (bool, int, complex) or np.size(b) != 1 or \
            np.dtype(getattr(b, "dtype", float)).kind != "f":
        return r
    a = a.astype(r.dtype)
    if not _npr_traced(b):
        fast = _NPR_FAST_POWERS.get(float(np.ravel(np.asarray(b))[0]))
        return fast(a) if fast else r
    for exponent, fast in _NPR_FAST_POWERS.items():  # the branch not taken meets no pole (grad: 0 * NaN)
        r = jnp.where(pick := jnp.reshape(b, ()) == exponent, fast(jnp.where(pick, a, jnp.ones_like(a))), r)
    return r


_NPR_FAST_POWERS = {0.5: jnp.sqrt, 2.0: jnp.square, -1.0: lambda a: 1 / a}


_NPR_SQRT_DTYPES = frozenset((np.dtype(np.float32), np.dtype(np.float64)))


def _npr_seq_operands(a, b):
    """The operands of an operator between a Python list or tuple and an array as NumPy takes
    them: the sequence made an array (np.asarray's dtype: its Python numbers are not weak) and
    both in their NumPy result type. Anything else: (a, b) themselves."""
    if isinstance(a, (list, tuple)) != isinstance(b, (list, tuple)) and \
            isinstance(a if isinstance(b, (list, tuple)) else b, jax.Array):
        a = _npr_np_asarray(a) if isinstance(a, (list, tuple)) else a
        b = _npr_np_asarray(b) if isinstance(b, (list, tuple)) else b
        dt = _npr_np_result_dtype(a, b)
        return _npr_np_asarray(a, dt), _npr_np_asarray(b, dt)
    return a, b


