"""The fences spliced into a traced program (divisions.py decides where): a value behind an
optimization barrier, through a select XLA and LLVM keep, or made no longer a broadcast; and the
fences of zeros and booleans, which XLA's simplifier folds where NumPy keeps a value (`x + 0.0`,
`np.zeros(n) + v`, a sum of one element, `x * b`). Reads JAX's jaxpr types through compat_jaxpr.py."""

import jax
import numpy as np

from .compat_jaxpr import (
    _npr_aval, _npr_eqn_name, _npr_eqns, _npr_invars, _npr_is_literal, _npr_literal_value, _npr_outvars,
    _npr_params, _npr_replace, _npr_struct)


def _npr_fence_zero(eqns, eqn, zeros=()):
    """`x + 0.0` (`x - -0.0`) with the zero fenced, wherever it is: XLA drops it (StableHLO's own
    folds too, with bitwise=True), and NumPy's -0.0 + 0.0 is 0.0, a value and not its last bit:
    `1.0 / (x + 0.0)` was -inf where NumPy's is inf, `np.arctan2(x + 0.0, -1.0)` -pi for pi. The
    zero becomes select(x != x, x, 0.0). So does `s + v` where s (`zeros`: which operands) is an
    array of zeros (np.zeros, zeros_like, full(0.0): `y = np.zeros(n); y += v` is v to XLA,
    fuzz_c29dfde049) or a loop's carry that starts at one or at the literal 0.0 (`s = 0.0; for
    ...: s += x[i] * -1.0`): XLA unrolls a short loop, and its first trip's `0.0 + v` is v to it
    (-0.0 where NumPy's is 0.0)."""
    invars, name = list(_npr_invars(eqn)), _npr_eqn_name(eqn)
    if len(invars) != 2 or name not in ("add", "sub") or \
            np.dtype(_npr_aval(_npr_outvars(eqn)[0]).dtype).kind not in "fc":
        return eqn
    for pos, v in enumerate(invars):
        if _npr_vanishing_zero(name, pos, v):
            invars[pos] = _npr_splice(eqns, v, invars[1 - pos], _npr_aval(_npr_outvars(eqn)[0]))
            return _npr_replace(eqn, invars=invars)
    for pos, v in enumerate(invars):
        carried = zeros and zeros[pos] and (name == "add" or pos == 0)
        if carried and _npr_aval(v).shape == _npr_aval(_npr_outvars(eqn)[0]).shape:
            invars[pos] = _npr_splice(eqns, v, v, _npr_aval(v), _npr_fence_scalar)  # (a select: folded
            return _npr_replace(eqn, invars=invars)  # with the constant start; the barrier is not)
    return eqn


# equations that give their operand's values (a broadcast, a reshape, a cast): zeros stay zeros
_NPR_SAME_VALUES = frozenset({"broadcast_in_dim", "reshape", "convert_element_type", "squeeze", "expand_dims",
                              "transpose", "copy", "copy_p"})


def _npr_zeros_made(name, ins, nought) -> bool:
    """Does the equation (its name, operands; `nought`: which operands are zeros) make an array of
    +0.0 (np.zeros is a broadcast of the literal 0.0 to JAX)?"""
    if name not in _NPR_SAME_VALUES or not ins:
        return False
    if not _npr_is_literal(ins[0]):
        return nought[0]
    value = np.asarray(_npr_literal_value(ins[0]))
    return name == "broadcast_in_dim" and value.size == 1 and value.item() == 0 and \
        not np.signbit(value.real).any() and not np.signbit(np.imag(value)).any()


def _npr_fence_single_sum(eqns, eqn):
    """A float sum of one element per result (`p[1:2].sum(axis=0)`, `np.sum` of a (1, 1) array)
    with its operand x fenced as x + select(x != x, x, 0.0): NumPy's sum starts from 0.0, so its
    sum of -0.0 is 0.0, and XLA makes that sum a reshape, -0.0 (fuzz_0895e82df5). Sums of two
    or more elements per result keep XLA's start, 0.0, and pay nothing."""
    if _npr_eqn_name(eqn) != "reduce_sum" or np.dtype(_npr_aval(_npr_outvars(eqn)[0]).dtype).kind not in "fc":
        return eqn
    x = _npr_invars(eqn)[0]
    shape = _npr_aval(x).shape
    if _npr_is_literal(x) or int(np.prod([shape[a] for a in _npr_params(eqn)["axes"]])) != 1:
        return eqn
    return _npr_replace(eqn, invars=[_npr_splice(eqns, x, x, _npr_aval(x), _npr_plus_zero)])


def _npr_plus_zero(v, other=None):
    """v + 0.0, the zero hidden from XLA's simplifier (NumPy's start of a sum)."""
    return v + jax.lax.select(v != v, v, jax.numpy.zeros_like(v))


def _npr_fence_bool_factor(eqns, eqn, bools):
    """`x * b` with b a boolean made float: XLA rewrites multiply(x, convert(b)) to select(b, x, 0),
    so nan * False was 0.0 where NumPy's is nan (inf * False too; fuzz_1212f1a004). The converted
    boolean goes behind an optimization barrier, which the rewrite cannot see through."""
    invars = list(_npr_invars(eqn))
    if _npr_eqn_name(eqn) != "mul" or np.dtype(_npr_aval(_npr_outvars(eqn)[0]).dtype).kind not in "fc" or \
            not any(not _npr_is_literal(v) and v in bools for v in invars):
        return eqn
    for pos, v in enumerate(invars):
        if not _npr_is_literal(v) and v in bools:
            invars[pos] = _npr_splice(eqns, v, v, _npr_aval(v), _npr_fence_scalar)
    return _npr_replace(eqn, invars=invars)


def _npr_vanishing_zero(name, pos, v) -> bool:
    """Is literal operand `v` a zero XLA drops (`x + 0.0`, `x - -0.0` are x to it, and to
    StableHLO's own folds with bitwise=True: NumPy's -0.0 + 0.0 is 0.0)?"""
    if not _npr_is_literal(v) or name not in ("add", "sub") or name == "sub" and pos == 0:
        return False
    value = np.asarray(_npr_literal_value(v))
    return value.dtype.kind == "f" and value.size == 1 and value.item() == 0 and \
        bool(np.signbit(value)) == (name == "sub")


# one NaN's bits per float width: no arithmetic makes these payloads (and v + v of one is that NaN)
_NPR_NAN_BITS = {"float64": (np.int64, 0x7FF8DEADBEEF0001), "float32": (np.int32, 0x7FC0BEEF),
                 "float16": (np.int16, 0x7E5D), "bfloat16": (np.int16, 0x7FC5)}


def _npr_fence_own(v, other=None):
    """`v` itself, through a select that XLA and LLVM keep: an FMA cannot swallow the multiply that
    made it. The select tests v's bits against one NaN's: `v != v`, the test before, LLVM folded to
    false where it proves v no NaN (a converted integer times a constant: `np.arange(n) * 0.1 + 0.1`,
    then the multiply-add was contracted, and a grid's bin another: fuzz11)."""
    width = _NPR_NAN_BITS.get(np.dtype(v.dtype).name)
    if width is None or jax.default_backend() != "cpu":  # complex: its parts' bits are not one
        # integer's; a TPU's float64 bitcast is its float32 pair's, and its compiler rejects 64-bit
        # integer work that follows one (docs/tpu.md): the test before, which XLA:CPU's LLVM alone folds
        return jax.lax.select(v != v, v + v, v)
    bits = jax.lax.bitcast_convert_type(v, width[0])
    return jax.lax.select(bits == np.array(width[1], dtype=np.uint64).astype(width[0]), v + v, v)


def _npr_fence_scalar(v, other):
    return jax.lax.optimization_barrier(v)


def _npr_fence_array(v, other):
    """`v` where `other` is not NaN, `other` where it is: no longer a broadcast, a constant or a
    quotient to XLA (a division by it stays one), and the quotient is NumPy's: NaN / d and
    x / NaN are that NaN."""
    shape = jax.numpy.broadcast_shapes(np.shape(v), np.shape(other))
    v, other = jax.numpy.broadcast_to(v, shape), jax.numpy.broadcast_to(other.astype(v.dtype), shape)
    return jax.lax.select(other != other, other, v)


def _npr_splice(eqns, v, other, out, fence=None):
    """Append to `eqns` the equations that fence `v` (an operand of a division with `other`,
    out: its result's aval), traced by JAX itself (each release's own parameters); the fenced
    var."""
    fence = fence or (_npr_fence_scalar if out.shape == () else _npr_fence_array)
    args = [_npr_struct(u) for u in (v, other)]
    closed = jax.make_jaxpr(lambda *a: fence(*a))(*args)  # a new function: fresh vars (not a cached jaxpr's)
    if closed.consts or len(_npr_outvars(closed.jaxpr)) != 1:  # pragma: no cover (a JAX that traced it otherwise)
        raise ValueError("fence")
    names = dict(zip(_npr_invars(closed.jaxpr), (v, other)))
    for e in _npr_eqns(closed.jaxpr):
        eqns.append(_npr_replace(e, invars=[names.get(u, u) if not _npr_is_literal(u) else u
                                      for u in _npr_invars(e)]))
    fenced = _npr_outvars(closed.jaxpr)[0]
    return names.get(fenced, fenced)
