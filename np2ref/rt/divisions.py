"""Divisions that decide are NumPy's divisions: the jitted call's program with the operands
XLA's simplifier would rewrite fenced (docs/semantics.md, "Divisions that decide are NumPy's
divisions"). Reads JAX's jaxpr types through compat.py (its table: "a division XLA would
rewrite, fenced")."""

import os as _npr_os
import warnings as _npr_warnings
from math import frexp as _npr_frexp

import jax
import numpy as np

from .accurate64 import _npr_a64_enabled as _npr_accurate_on, _npr_accurate64
from .compat import _npr_current_trace, _npr_discharged
from .compat_jaxpr import (
    _npr_aval, _npr_body_name, _npr_constvars, _npr_effects, _npr_eqn_name, _npr_eqns, _npr_invars, _npr_is_body,
    _npr_is_literal, _npr_literal_value, _npr_open, _npr_outvars, _npr_params, _npr_replace,
    _npr_rewritable, _npr_rewrite_body, _npr_run_jaxpr)
from .core import _npr_state
from .fence_kinds import (
    _npr_fence_bool_factor, _npr_fence_own, _npr_fence_single_sum, _npr_fence_zero, _npr_splice, _npr_vanishing_zero,
    _npr_zeros_made)
from .fission import _npr_fission_on, _npr_fissioned
from .peepholes import _npr_is_ref_var, _npr_peepholed, _npr_PEEPHOLES, _npr_track


# XLA's algebraic simplifier rewrites a floating division by a constant `x / 10` into
# `x * 0.1`, by any broadcast scalar `x / dt` into `x * (1 / dt)`, `(a / b) / c` into
# `a / (b * c)`, `a / (b / c)` into `(a * c) / b`, `a / sqrt(b)` into `a * rsqrt(b)` and
# `a / exp(b)` into `a * exp(-b)`, each rounding differently from NumPy's one division: a bin
# edge `rmax * (i + 1) / npt` in a loop is `rmax` in NumPy at i = npt - 1, `rmax * 10 * 0.1` (one
# ulp more) in XLA, and the mask `radius < r2` takes one point more. The jitted call traces its
# program into a jaxpr, fences the operand such a rewrite would look at and runs that jaxpr:
# - a 0-d division's operand goes behind `lax.optimization_barrier` (opaque to the simplifier,
#   free at run time) when it may be a constant to XLA (a literal other than a power of two, a
#   concrete array closed over, a loop body's loop-invariant input, which XLA sinks into the
#   body, or anything computed from those alone), a quotient or a sqrt/exp/pow;
# - an array division's, only when the quotient reaches a decision (below): a barrier on a
#   scalar does not stop `x / broadcast(c)`, so the divisor becomes `select(x != x, x, c)`,
#   no longer a broadcast. A fenced array division runs as a division (slower than XLA's
#   multiply: benchmarks/divisions.py).
# A custom_jvp/custom_vjp body is left as JAX wrote it; without these internals the program
# runs as traced (XLA's rewrites stay).


_NPR_QUOTIENTS = frozenset({"div", "sqrt", "rsqrt", "exp", "exp2", "pow"})  # x / exp(y): x * exp(-y)
_NPR_FOLD_STEP = "_npr_fold_step"  # fold.py's scan step: its products are fenced (LLVM contracted them
# into FMAs in the unrolled pass even at -O0, bitwise=True: 1.8e-15 from NumPy in `y -= a * t - b`)
_NPR_FOLD_VALUES = "_npr_fold_values"  # fold.py's trips' values for a scalar chain: fenced alike, outputs too
_NPR_CHAINED = frozenset({"add", "sub", "mul", "neg"})  # (x + c1) + c2: x + (c1 + c2) to XLA
# XLA's simplifier's identities of real numbers that floats break beyond the last bit: an operand
# made by one of these, of the equation named, is fenced wherever it is ("square":
# `a * a`). ln(exp(A)) => A (NumPy's inf where exp overflows), ln(pow(A, B)) => B * ln(|A|)
# (NumPy's NaN for A < 0), exp(A) * exp(B) => exp(A + B) (NumPy's inf * 0: NaN, and inf where
# the product overflows), exp(A) / exp(B) => exp(A - B) (inf / inf: NaN, XLA's 1.0 for A = B),
# sqrt(A * A) => |A| (NumPy's inf where A * A overflows). (A / exp(B) => A * exp(-B) is a
# quotient: fenced where it decides, above.) abs(A) >= 0 => true (NumPy's False for NaN).
_NPR_IDENTITIES = {"log": ("exp", "exp2", "pow"), "mul": ("exp", "exp2"), "div": ("exp", "exp2"), "sqrt": ("square",),
                   **{c: ("abs",) for c in ("ge", "gt", "le", "lt")}}


def _npr_exact_power_of_two(v) -> bool:
    """A literal divisor whose reciprocal is exact (x * 0.5 is x / 2, bit for bit)."""
    try:
        value = complex(np.asarray(v).item())
    except (TypeError, ValueError):
        return False
    if value.imag or not np.isfinite(value.real) or value.real == 0:
        return False
    mantissa, _ = _npr_frexp(abs(value.real))
    return mantissa == 0.5


def _npr_fence_jaxpr(jaxpr, constant, everything=False, chained=(), zeros=()):
    """`jaxpr` (a core.Jaxpr) with the divisions' operands fenced; `constant`: the vars (of its
    invars and constvars) XLA may see as constants; `chained`: its invars that may be a sum,
    difference or product with a constant (a loop's carry: XLA unrolls short loops). Every 0-d
    division is fenced (free); an array division when its quotient reaches a decision
    (_npr_decisions), or `everything`."""
    constant, made, eqns, chained, squares, zeros = set(constant), {}, [], set(chained), set(), set(zeros)
    bools = set()  # floats converted from booleans (and their broadcasts): `x * b`'s b
    held, same = {}, {}  # a whole load is the value last stored whole (peepholes._npr_track)
    decided = set() if everything else _npr_decisions(jaxpr)
    for eqn in _npr_eqns(jaxpr):
        name, ins, outs = _npr_eqn_name(eqn), _npr_invars(eqn), _npr_outvars(eqn)
        known = [_npr_is_literal(v) or v in constant for v in ins]
        decides = everything or any(v in decided for v in outs) or _npr_decides(eqn) or \
            _npr_writes_decided(eqn, decided)
        nought = [not _npr_is_literal(v) and same.get(v, v) in zeros for v in ins]  # np.zeros' values, loaded too
        params = _npr_fence_bodies(eqn, known, decides, [not _npr_is_literal(v) and v in chained for v in ins], nought)
        eqn = _npr_fence_zero(eqns, _npr_fence_identities(eqns, eqn, made, squares), nought)
        eqn = _npr_fence_single_sum(eqns, eqn)
        ins = _npr_invars(eqn)
        out = _npr_aval(outs[0]) if name == "div" else None
        if out is not None and np.dtype(out.dtype).kind in "fc" and \
                (out.shape == () or np.dtype(out.dtype).kind == "f" and decides):
            invars = list(ins)
            for pos, v in enumerate(invars):
                if _npr_is_literal(v):  # x / 10 (not x / 2); 1.0 / x as it is
                    fence = pos == 1 and not _npr_exact_power_of_two(_npr_literal_value(v))
                elif pos == 0:  # (a / b) / c; (x * 2.0) / 2.0: x * (2.0 * 0.5) to XLA, not inf
                    fence = made.get(v) == "div"
                    if not fence and v in chained and known[1]:
                        invars[pos] = _npr_splice(eqns, v, v, _npr_aval(v), _npr_fence_own)
                else:  # x / c, x / sqrt(b), a / (b / c); an array by a broadcast: x / d
                    fence = known[1] or made.get(v) in _NPR_QUOTIENTS or \
                        out.shape != () and (_npr_aval(v).shape != out.shape or made.get(v) == "broadcast_in_dim")
                if fence:
                    invars[pos] = _npr_splice(eqns, v, invars[1 - pos], out)
            eqn = _npr_replace(eqn, invars=invars, params=params)
        elif name in _NPR_CHAINED and decides and _npr_FENCE["products"] and \
                np.dtype(_npr_aval(outs[0]).dtype).kind in "fc":
            eqn = _npr_fence_products(eqns, eqn, made, constant, params, chained)
        elif params is not _npr_params(eqn):
            eqn = _npr_replace(eqn, params=params)
        eqn = _npr_fence_bool_factor(eqns, eqn, bools)
        eqns.append(eqn)  # (a fenced eqn: other operands, the same results)
        if name == "convert_element_type" and not _npr_is_literal(ins[0]) and _npr_aval(ins[0]).dtype == np.bool_ \
                or name in _NPR_CARRIERS and ins and not _npr_is_literal(ins[0]) and ins[0] in bools:
            bools.update(outs)
        if name == "convert_element_type" and not _npr_is_literal(ins[0]) and \
                _npr_aval(ins[0]).dtype == _npr_aval(outs[0]).dtype:
            name = made.get(ins[0], name)  # a weak type dropped: still the quotient
        made.update((v, name) for v in outs)
        if _npr_zeros_made(name, ins, nought):
            zeros.update(outs)  # (np.zeros, zeros_like, full(0.0); a weak Python 0.0 carried, made strong)
        _npr_carry(name, ins, outs, made, chained, squares)
        _npr_track(eqn, held, same)
        own = _npr_eqn_name(eqn)
        one = own == "mul" and not any(map(_npr_is_literal, ins)) and same.get(ins[0], ins[0]) is same.get(ins[1], ins[1])
        if one or own == "integer_pow" and _npr_params(eqn)["y"] == 2:
            squares.update(outs)  # (still "mul" in made: the product fence reads that)
        if name in _NPR_CHAINED and any(known) and not all(map(_npr_is_literal, ins)):
            # x + c, x * c: `(x + c1) + c2` becomes `x + (c1 + c2)` to XLA; so does a chain on a
            # constant (`np.arange(300) * 0.1 + 0.1 + 0.7`: reassociated before XLA folds it)
            chained.update(outs)
        if all(known) and not _npr_effects(eqn) and params is _npr_params(eqn) and \
                next(_npr_bodies(params.values()), None) is None:
            constant.update(outs)  # computed from constants alone: XLA folds it to one
    return _npr_replace(jaxpr, eqns=eqns)


# Equations that pass a value on unchanged, to XLA once Refs are discharged (a store into a Ref,
# its load, the whole-array update a store is, a copy, a reshape): what made the value, and
# whether it is a sum or product with a constant, is what made what they give.
_NPR_CARRIERS = frozenset({"get", "new_ref", "mutable_array", "dynamic_update_slice", "copy", "copy_p",
                           "reshape", "squeeze", "expand_dims", "broadcast_in_dim", "slice", "dynamic_slice",
                           "transpose", "rev", "concatenate", "select_n", "convert_element_type"})


def _npr_carry(name, ins, outs, made, chained, squares):
    """Note what a store into a Ref (`swap`: (ref, value, *index)) or a carrier equation passes on:
    `z[...] = x + 0.1; z += 0.7` is `(x + 0.1) + 0.7` to XLA, and `z[...] = a * b; floor(z + c)`
    an FMA to LLVM."""
    if name in _NPR_REF_WRITES and len(ins) > 1 and not _npr_is_literal(ins[1]):
        if ins[1] in chained:
            chained.add(ins[0])
        if ins[1] in squares:  # `t[:] = x * x; np.sqrt(t)`: sqrt(A * A) to XLA
            squares.add(ins[0])
        if ins[1] in made:
            made[ins[0]] = made[ins[1]]
        return
    if name not in _NPR_CARRIERS:
        return
    values = [v for v in (ins[:1] if name == "get" else ins) if not _npr_is_literal(v)]
    if name == "select_n":
        values = values[1:]  # (the predicate is no value passed on)
    if any(v in chained for v in values):
        chained.update(outs)
    kinds = {made[v] for v in values if v in made and made[v] not in _NPR_CARRIERS}
    if name in _NPR_KEEPS_KIND and len(kinds) == 1:  # (a broadcast stays one: x / d's fence reads it)
        made.update((v, next(iter(kinds))) for v in outs)
    if name in _NPR_KEEPS_KIND and any(v in squares for v in values):
        squares.update(outs)


_NPR_KEEPS_KIND = frozenset({"get", "new_ref", "mutable_array", "dynamic_update_slice", "copy", "copy_p"})


def _npr_fence_products(eqns, eqn, made, constant, params, chained):
    """`a * b + c` (`c - a * b`, `-(a * b)`) whose result decides, with the product fenced: LLVM
    contracts a multiply feeding an add into one FMA (one rounding: `x - box * floor(x / box)`
    is -1.7e-16 where NumPy's is 0.0, and the cell index -1), and XLA:CPU always allows it. The
    product `p` becomes `select(bits(p) == NAN_BITS, p + p, p)` (_npr_fence_own), no multiply to
    LLVM, and `p` bit for bit. (A select on another operand failed where that operand was a scalar
    broadcast: `floor(x * s + a)`, LLVM hoisted the select out of the loop and contracted.)
    So is a sum, difference or product with a constant that is itself one with a constant: XLA's
    simplifier takes `(x + c1) + c2` as `x + (c1 + c2)`, `(x - c1) + c2`, `(x * c1) * c2` and
    `c1 * (c2 * x)` alike, one rounding where NumPy rounds twice (`(x + 0.1 + 0.7).astype(int)`
    put 34,952 of 3,000,000 values in another cell; tests/dtypes/test_constant_chains.py)."""
    invars = list(_npr_invars(eqn))
    known = [_npr_is_literal(v) or v in constant for v in invars]
    for pos, v in enumerate(invars):
        if _npr_is_literal(v) or v in constant and v not in chained:
            continue
        if not (made.get(v) == "mul" and _npr_eqn_name(eqn) in ("add", "sub", "neg") or
                v in chained and any(known)):
            continue
        invars[pos] = _npr_splice(eqns, v, v, _npr_aval(v), _npr_fence_own)
    return _npr_replace(eqn, invars=invars, params=params)


def _npr_fence_identities(eqns, eqn, made, squares):
    """eqn with the operands fenced that an identity of _NPR_IDENTITIES would look through
    (always: the value differs, not its last bit; the fence is a select). `squares`: the vars
    that are `a * a`."""
    name, invars = _npr_eqn_name(eqn), list(_npr_invars(eqn))
    inner = _NPR_IDENTITIES.get(name, ())
    found = [not _npr_is_literal(v) and ("square" if v in squares else made.get(v)) in inner and
             np.dtype(_npr_aval(v).dtype).kind in "fc" for v in invars]
    if not any(found) or name in ("mul", "div") and not all(found):  # exp(A) * exp(B) only
        return eqn
    for pos, v in enumerate(invars):
        if found[pos]:
            invars[pos] = _npr_splice(eqns, v, v, _npr_aval(v), _npr_fence_own)
    return _npr_replace(eqn, invars=invars)


# Where a rounding difference changes the answer, not the last bit: a comparison, a float cast to
# an integer, floor/ceil/round/sign/rem, an arg-reduction, a sort. Elsewhere XLA's rounding of
# a quotient is the one-ulp difference docs/semantics.md allows ("Floating point"), and the
# fence would cost an array division its speed (benchmarks/divisions.py: up to 1.4x on CPU).
_NPR_DECISIONS = frozenset({"lt", "le", "gt", "ge", "eq", "ne", "floor", "ceil", "round", "sign", "rem",
                            "is_finite", "argmax", "argmin", "sort", "top_k", "nextafter",
                            "bitcast_convert_type"})  # (np.signbit: a float's bits as an integer's)


def _npr_decides(eqn) -> bool:
    """Does eqn decide on a float value (or hold a body that does)?"""
    name = _npr_eqn_name(eqn)
    if name in _NPR_DECISIONS or name == "convert_element_type" and \
            np.dtype(_npr_params(eqn)["new_dtype"]).kind in "iub":
        return any(np.dtype(_npr_aval(v).dtype).kind in "fc" for v in _npr_invars(eqn))
    if name == "convert_element_type":
        return _npr_widens(_npr_aval(_npr_invars(eqn)[0]).dtype, _npr_params(eqn)["new_dtype"])
    return any(any(_npr_decides(e) for e in _npr_eqns(_npr_open(p)))
               for p in _npr_bodies(_npr_params(eqn).values()))


def _npr_widens(old, new) -> bool:
    """Is a cast from float dtype `old` to `new` a widening (float32 to float64, float16 to
    float32, complex64 to complex128)? XLA's rounding of a float32 quotient is one float32 ulp
    from NumPy's, the last bit in float32; widened, it is 6e-8 relative in a float64 array, a
    wrong answer at float64's precision (fuzz_1313f13007): it decides, as a comparison does."""
    old, new = np.dtype(old), np.dtype(new)
    return old.kind in "fc" and new.kind in "fc" and \
        new.itemsize // (2 if new.kind == "c" else 1) > old.itemsize // (2 if old.kind == "c" else 1)


def _npr_decisions(jaxpr) -> set:
    """The vars of `jaxpr` whose values reach a decision: each operand of an equation that
    decides, or whose results reach one (a body's operands all, when anything in it does), and
    what is stored into a Ref whose loads reach one (`z[...] = x / 0.1; z.astype(int)`: the store
    and the load are two equations, the Ref between them; until a pass finds nothing new)."""
    decided: set = set()
    while True:
        before = len(decided)
        for eqn in reversed(_npr_eqns(jaxpr)):
            ins = _npr_invars(eqn)
            if _npr_writes_decided(eqn, decided) or _npr_decides(eqn) or any(v in decided for v in _npr_outvars(eqn)):
                decided.update(v for v in ins if not _npr_is_literal(v))
        if len(decided) == before:
            return decided


_NPR_REF_WRITES = frozenset({"swap", "addupdate"})  # `ref[idx] = v`, `ref[idx] += v`: (ref, v, *idx)


def _npr_writes_decided(eqn, decided) -> bool:
    """Does eqn store into a Ref whose loads reach a decision: a store, or a loop, branch or call
    handed that Ref (`for k in range(n): z[...] = x / 0.1`, then `z.astype(int)`)?"""
    ins = [v for v in _npr_invars(eqn) if not _npr_is_literal(v)]
    if _npr_eqn_name(eqn) in _NPR_REF_WRITES:
        return bool(ins) and ins[0] in decided
    return next(_npr_bodies(_npr_params(eqn).values()), None) is not None and \
        any(v in decided and _npr_is_ref_var(v) for v in ins)


def _npr_bodies(values):
    for p in values:
        if _npr_is_body(p):
            yield p
        elif isinstance(p, tuple):
            yield from _npr_bodies(p)


def _npr_fence_bodies(eqn, known, everything, chained, nought=()):
    """eqn.params with its bodies fenced (the same dict when nothing changed). `known`: which of
    eqn's operands may be constants; `everything`: the body's array divisions too (eqn reaches a
    decision); `chained`: which operands may be a sum or product with a constant. A loop's
    loop-invariant operands reach its body as constants (XLA sinks them), its carries as what the
    last trip made (XLA unrolls a short loop: `x - 0.1` a trip is `x - 0.1 - 0.1` to it); a call's
    and a branch's operands are its body's inputs."""
    carries = [True] * len(known)
    name, params = _npr_eqn_name(eqn), _npr_params(eqn)
    if name in ("custom_jvp_call", "custom_vjp_call", "custom_vjp_call_jaxpr") or \
            next(_npr_bodies(params.values()), None) is None:
        return params
    new, zeros = dict(params), [_npr_vanishing_zero("add", 1, v) or bool(nought and nought[i])
                                for i, v in enumerate(_npr_invars(eqn))]
    if name == "scan":
        n = params["num_consts"]
        # fold.py's chain: every product fenced, where XLA fuses the unrolled trips into one pass
        everything = everything or _npr_body_name(params["jaxpr"]) == _NPR_FOLD_STEP
        new["jaxpr"] = _npr_fence_closed(params["jaxpr"], known[:n], everything, chained[:n] + carries,
                                         [False] * n + zeros[n:n + params["num_carry"]])
    elif name == "while":
        nc, nb = params["cond_nconsts"], params["body_nconsts"]
        new["cond_jaxpr"] = _npr_fence_closed(params["cond_jaxpr"], known[:nc], everything, chained[:nc] + carries)
        new["body_jaxpr"] = _npr_fence_closed(params["body_jaxpr"], known[nc:nc + nb], everything,
                                              chained[nc:nc + nb] + carries, [False] * nb + zeros[nc + nb:])
    elif name == "cond":
        new["branches"] = tuple(_npr_fence_closed(b, known[1:], everything, chained[1:]) for b in params["branches"])
    else:  # pjit, closed_call, remat...: the operands, one for one (else: any may be a constant)
        for k, p in params.items():
            if _npr_is_body(p):
                inner = _npr_open(p)
                n = len(_npr_invars(inner))
                values = _npr_body_name(p) == _NPR_FOLD_VALUES
                new[k] = _npr_fence_closed(p, known if n == len(known) else [True] * n, everything or values,
                                           chained if n == len(known) else [True] * n)
                new[k] = _npr_rewrite_body(new[k], _npr_fence_outputs) if values else new[k]
    changed = any(new[k] is not params[k] for k in params)
    return new if changed else params


def _npr_fence_outputs(jaxpr):
    """fold.py's trips' values (`_npr_fold_values`), each float output fenced (_npr_fence_own):
    XLA fuses their multiply into the chain's pass, where LLVM contracted it with the step's
    addition into one FMA (`s += a[k] * b[k]`, one ulp from NumPy in the default mode)."""
    eqns, outs = list(_npr_eqns(jaxpr)), []
    for v in _npr_outvars(jaxpr):
        wide = not _npr_is_literal(v) and np.dtype(_npr_aval(v).dtype).kind == "f"
        outs.append(_npr_splice(eqns, v, v, _npr_aval(v), _npr_fence_own) if wide else v)
    return _npr_replace(jaxpr, eqns=eqns, outvars=outs)


def _npr_fence_closed(p, known, everything, chained, zeros=()):
    """A body (a ClosedJaxpr or Jaxpr) fenced; `known`: which of its leading inputs may be
    constants (its closed-over consts are); `chained`: which of its inputs may be a sum or product
    with a constant; `zeros`: which are a loop's carry that starts at the literal 0.0."""
    def fence(jaxpr):
        constant = [*(v for v, k in zip(_npr_invars(jaxpr), known) if k), *_npr_constvars(jaxpr)]
        fenced = _npr_fence_jaxpr(jaxpr, constant, everything,
                                  [v for v, c in zip(_npr_invars(jaxpr), chained) if c],
                                  [v for v, z in zip(_npr_invars(jaxpr), zeros) if z])
        before, after = _npr_eqns(jaxpr), _npr_eqns(fenced)
        same = len(after) == len(before) and all(a is b for a, b in zip(after, before))
        return jaxpr if same else fenced
    return _npr_rewrite_body(p, fence)


_npr_FENCE = {"divisions": True, "products": True}  # False: XLA's rewrites, FMAs (benchmarks/divisions.py)
# a list while np2ref.compile's host route traces a call: each (program as traced, as the
# peepholes rewrote it) taken by the trace, so that NumPy's time is estimated on the products
# NumPy computes (compiled/routes.py); None otherwise
_npr_REWRITES = None


def _npr_rewrites_on():
    """(whether anything rewrites a traced program, whether the fences do)."""
    fence = _npr_FENCE["divisions"] and hasattr(jax.lax, "optimization_barrier_p")
    return _npr_rewritable() and (fence or any(_npr_PEEPHOLES.values()) or _npr_accurate_on()
                                  or _npr_fission_on()), fence


def _npr_fenced(thunk, discharge=False):
    """thunk()'s value, its array leaves computed by a jaxpr with the divisions fenced: the jitted
    call's program, and `.pure`'s under a caller's jit (under its vmap or grad, pure_fences.py
    traces the transformed program apart: re-evaluated here, the jaxpr broke lax loops under vmap,
    "Body jaxpr has consts", and under grad it hid the JVP tracers refs.py discharges for).
    `discharge`: its Refs discharged here (pure_fences.py: a Ref made from a concrete array, which
    the caller's jit keeps a NumPy array, and scatter-added into failed the jit's own discharge,
    "'TypedNdArray' object has no attribute 'at'")."""
    on, fence = _npr_rewrites_on()
    if not on:
        return thunk()
    box, bounds = {}, _npr_state.get("bounds")

    def arrays():
        if bounds is None:
            return run()
        outer, bounds.trace = bounds.trace, _npr_current_trace()  # the call's own trace: this one
        try:
            return run()
        finally:
            bounds.trace = outer

    def run():
        leaves, tree = jax.tree_util.tree_flatten(thunk())
        box["leaves"], box["tree"] = leaves, tree
        return [v for v in leaves if isinstance(v, jax.Array)]

    closed = jax.make_jaxpr(arrays)()
    program = _npr_replace(closed, jaxpr=_npr_rewritten(closed, fence))
    if discharge:
        program = _npr_discharged(program)
    outs = iter(_npr_run_jaxpr(program.jaxpr, program.consts))
    leaves = [next(outs) if isinstance(v, jax.Array) else v for v in box["leaves"]]
    return jax.tree_util.tree_unflatten(box["tree"], leaves)


def _npr_rewritten(closed, fence=True):
    """The Jaxpr of `closed` (a ClosedJaxpr as traced) rewritten as the jitted call's program is:
    fission.py's, accurate64.py's, the fences (`fence`) and peepholes.py's rewrites."""
    # the consts: the outer program's values (traced: data) and concrete arrays (constants)
    constant = [v for v, c in zip(_npr_constvars(closed.jaxpr), closed.consts) if not isinstance(c, jax.core.Tracer)]
    # fission.py first: the per-trip work it moves out of a loop becomes array operations, which
    # the rewrites below then see as such (an array division that decides is fenced as one)
    split = _npr_fissioned(closed.jaxpr)
    accurate = program = _npr_accurate64(split)  # accurate64.py: a TPU's float64 sin, exp, ...
    if fence:
        try:
            program = _npr_fence_jaxpr(program, constant)
        except (AttributeError, TypeError, ValueError) as exc:  # an internal moved: as traced, said
            if _npr_os.environ.get("NP2REF_STRICT_REWRITES"):  # (the test suite: our own bug is loud)
                raise
            _npr_warnings.warn(f"np2ref could not fence XLA's rewrites in this program ({type(exc).__name__}: "
                               f"{exc}): it runs as traced, and a quotient or product that decides may round "
                               f"as XLA rewrites it (docs/semantics.md, 'Floating point')", RuntimeWarning, 2)
            program = accurate
    rewritten = _npr_peepholed(program)  # peepholes.py
    if _npr_REWRITES is not None and (rewritten is not program or split is not closed.jaxpr):
        _npr_REWRITES.append((program if split is closed.jaxpr else closed.jaxpr, rewritten))
    return rewritten


