"""A top-level loop nest of element reads and writes as one Pallas kernel (`loops="pallas"`).

rewrite/pallas_loops.py writes, beside the lax loop `npr_for(rng, _loop_j)`, the nest as a kernel
function of the arrays and names it reads (`_pallas_j(A, n)`), whose loops are
`npr_pk_for(lo, hi, step, body, carry)` and whose element accesses are `A[i, j]` on an NprKRef:

    npr_pallas(_pallas_j, ('A', 'n'), (A, n), lambda: npr_for(npr_range(n), _loop_j), line=4)

npr_pallas runs the kernel with `pl.pallas_call`: every array whole in SMEM, flattened (scalar
reads and writes at dynamic positions are what the TPU's scalar unit does), the written ones
aliased to outputs. The kernel runs the nest's own statements in their order, element by element,
on the same dtypes, so its values are the loop's (bit for bit where XLA rounds as NumPy does:
`np2ref.compile(..., bitwise=True)` on a CPU). An index out of range (NumPy's IndexError) sets a
flag instead of touching memory; the lax loop then runs again from the arrays as they were, and
raises NumPy's error where it raises it. Where the kernel cannot run (an array that is a view, two
names for one array, mixed or non-float dtypes, a scalar that starts as a Python number, jax.grad
or jax.vmap around it, and on a
TPU anything but float32 or arrays beyond SMEM), the lax loop runs and `explain()` says why.
Interpret mode on every backend but the TPU, so CI runs the kernel on its CPU.
"""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

from .compat import _npr_pallas_modules, _npr_smem_space, _npr_Tracer
from .refs import _npr_batched, _npr_differentiated

_npr_PALLAS_NOTES = {}  # (file, line) -> what the last trace made of the loop there (explain())
_npr_SMEM_SHARE = 0.5   # of the TPU's SMEM the kernel's arrays may fill (the rest: Mosaic's own)


class NprKernelRefused(Exception):
    """Why a loop nest cannot be this kernel: the lax loop runs instead."""


def _npr_pallas_api():
    """(pallas, the SMEM memory space) of the installed JAX (compat.py imports them)."""
    pl, pltpu = _npr_pallas_modules()
    return pl, _npr_smem_space(pltpu)


def npr_pallas(kernel, names, values, loop, line=0):
    """Run the loop nest as the Pallas kernel `kernel` (module docstring), else `loop()`."""
    where = (kernel.__code__.co_filename, line)
    try:
        arrays, scalars, static = _npr_kernel_inputs(names, values)
        refs = [v for _, v in arrays if isinstance(v, jax.Ref)]
        saved = [r[...] for r in refs]
        flag = _npr_launch(kernel, arrays, scalars, static)
    except NprKernelRefused as why:
        _npr_PALLAS_NOTES[where] = f"the lax loop: {why}"
        return loop()
    _npr_PALLAS_NOTES[where] = "one Pallas kernel" + (" (interpret mode)" if _npr_interpret() else "")
    npr_pallas_rerun(flag, saved, refs, loop)
    return None


def _npr_interpret():
    return jax.default_backend() != "tpu"


def _npr_kernel_inputs(names, values):
    """(arrays, traced float scalars, static values) by name, refusing what the kernel cannot take."""
    from .views import NprView
    arrays, scalars, static = [], [], {}
    if _npr_differentiated(list(values)) or _npr_batched(list(values)):
        raise NprKernelRefused("it is differentiated or batched (jax.grad, jax.vmap): the kernel has no rule for either")
    for name, v in zip(names, values):
        if isinstance(v, NprView):
            raise NprKernelRefused(f"`{name}` is a view of another array")
        if isinstance(v, jax.Ref) or isinstance(v, (jax.Array, np.ndarray)) and np.ndim(v) > 0:
            arrays.append((name, v))
        elif isinstance(v, (jax.Array, np.ndarray, np.generic)) and not isinstance(v, _npr_Tracer):
            static[name] = v  # a concrete scalar: a constant of the kernel, as NumPy's
        elif isinstance(v, _npr_Tracer):
            if np.ndim(v) or not jnp.issubdtype(v.dtype, jnp.floating):
                raise NprKernelRefused(f"`{name}` is a traced {v.dtype} value, not a float scalar")
            scalars.append((name, v))
        elif isinstance(v, (int, float, bool)):
            static[name] = v
        else:
            raise NprKernelRefused(f"`{name}` is a {type(v).__name__}")
    _npr_check_arrays(arrays, scalars)
    return arrays, scalars, static


def _npr_check_arrays(arrays, scalars):
    if not arrays:
        raise NprKernelRefused("the nest touches no array")
    if len({id(v) for _, v in arrays}) < len(arrays):
        raise NprKernelRefused("two names for one array")
    empty = [n for n, v in arrays if not np.prod(v.shape)]
    if empty:  # an element access into it (the copy in, the flag's stand-in element 0) has nothing
        raise NprKernelRefused(f"`{empty[0]}` is empty")  # to lower to: interpret mode's slice fails late
    dtypes = {np.dtype(v.dtype) for _, v in arrays}
    if len(dtypes) > 1 or dtypes.pop().kind != "f":
        raise NprKernelRefused("its arrays are not all of one float dtype")
    if _npr_interpret():
        return
    wide = [n for n, v in arrays + scalars if np.dtype(v.dtype) != np.float32]
    if wide:
        raise NprKernelRefused(f"`{wide[0]}` is not float32 (Mosaic has no float64; "
                               "dtype_policy='float32' narrows it)")
    size = sum(int(np.prod(v.shape)) * 4 for _, v in arrays)
    room = _npr_smem_bytes() * _npr_SMEM_SHARE
    if size > room:
        raise NprKernelRefused(f"its arrays ({size} bytes) do not fit the TPU's SMEM ({int(room)} bytes for them)")


def _npr_smem_bytes():
    try:
        return int(_npr_pallas_modules()[1].get_tpu_info().smem_capacity_bytes)
    except Exception:  # another JAX, or no TPU info: the smallest SMEM of the TPUs listed
        return 16 * 1024


def _npr_launch(kernel, arrays, scalars, static):
    """pallas_call of the kernel on flattened arrays; the written Refs take its results. Returns
    the kernel's flag: nonzero where an index was out of range."""
    pl, smem = _npr_pallas_api()
    refs = [(n, v) for n, v in arrays if isinstance(v, jax.Ref)]
    reads = [(n, v) for n, v in arrays if not isinstance(v, jax.Ref)]
    shapes = {n: tuple(v.shape) for n, v in arrays}
    dtype = np.dtype(arrays[0][1].dtype)
    weak = {n: bool(getattr(v, "weak_type", False)) for n, v in scalars}
    ins = [jnp.reshape(v[...], -1) for _, v in refs] + [jnp.reshape(v, -1) for _, v in reads] + \
        [jnp.reshape(v, (1,)) for _, v in scalars]
    nw, nr = len(refs), len(reads)

    def body(*kr):
        outs, flag = kr[len(ins):len(ins) + nw], kr[-1]
        flag[0] = jnp.int32(0)
        for src, dst in zip(kr[:nw], outs):
            _npr_copy(src, dst)
        env = dict(static)
        for (n, _), r in zip(refs, outs):
            env[n] = NprKRef(r, shapes[n], flag)
        for (n, _), r in zip(reads, kr[nw:nw + nr]):
            env[n] = NprKRef(r, shapes[n], flag)
        for (n, _), r in zip(scalars, kr[nw + nr:len(ins)]):
            x = r[0]
            env[n] = _npr_weakly(x) if weak[n] else x
        kernel(**env)

    spec = pl.BlockSpec(memory_space=smem)
    out_shape = [jax.ShapeDtypeStruct((int(np.prod(shapes[n])),), dtype) for n, _ in refs] + \
        [jax.ShapeDtypeStruct((1,), np.int32)]
    call = pl.pallas_call(body, out_shape=out_shape, in_specs=[spec] * len(ins), out_specs=[spec] * len(out_shape),
                          input_output_aliases={k: k for k in range(nw)}, interpret=_npr_interpret())
    try:
        *new, flag = call(*ins)
    except NprKernelRefused:
        raise
    except Exception as exc:  # a statement the kernel cannot hold: traced nothing into the caller
        raise NprKernelRefused(f"the kernel does not trace ({type(exc).__name__}: {str(exc).splitlines()[0][:120]})")
    for (n, ref), v in zip(refs, new):
        ref[...] = jnp.reshape(v, shapes[n])
    return flag[0]


def _npr_weakly(x):
    from .compat import _npr_weak_astype
    return _npr_weak_astype(x, x.dtype)


def _npr_copy(src, dst):
    """dst[:] = src[:] element by element (SMEM holds scalars: no vector copy there)."""
    def one(t, c):
        dst[t] = src[t]
        return c
    lax.fori_loop(0, src.shape[0], one, 0)


class NprKRef:
    """An array inside the kernel: `a[i, j]` reads and `a[i, j] = v` writes one element of the
    flattened SMEM Ref, NumPy's negative indices counted from the end; an index out of range
    sets the kernel's flag and touches element 0 instead (the lax loop then runs after all)."""

    def __init__(self, ref, shape, flag):
        self.ref, self.shape, self.flag = ref, shape, flag
        self.dtype = ref.dtype

    def _flat(self, idx):
        idx = idx if isinstance(idx, tuple) else (idx,)
        if len(idx) != len(self.shape):
            raise NprKernelRefused(f"an index of {len(idx)} entries into an array of {len(self.shape)} dims")
        flat, ok = jnp.int32(0), True
        for e, n in zip(idx, self.shape):
            if not (isinstance(e, int) or isinstance(e, jax.Array) and e.ndim == 0 and jnp.issubdtype(e.dtype, jnp.integer)):
                raise NprKernelRefused(f"an index that is not an integer ({type(e).__name__})")
            e = jnp.asarray(e, jnp.int32)
            e = jnp.where(e < 0, e + n, e)
            ok = ok & (e >= 0) & (e < n)
            flat = flat * n + e
        bad = jnp.logical_not(ok)
        self.flag[0] = self.flag[0] | bad.astype(jnp.int32)
        return jnp.where(bad, 0, flat)

    def __getitem__(self, idx):
        return self.ref[self._flat(idx)]

    def __setitem__(self, idx, value):
        value = jnp.asarray(value)
        if not jnp.issubdtype(value.dtype, jnp.floating):
            raise NprKernelRefused(f"a {value.dtype} value stored into a float array")
        self.ref[self._flat(idx)] = lax.convert_element_type(value, self.dtype)


def npr_pk_for(lo, hi, step, body, carry):
    """Python's `for v in range(lo, hi, step)` inside the kernel: `carry = body(v, carry)` per
    trip, as a fori_loop over the trip count (int32). Carried scalars keep their dtype: one
    that starts as a Python number would change type in the first trip, as NumPy's does."""
    for c in carry:
        if not isinstance(c, jax.Array) or getattr(c, "weak_type", False):
            raise NprKernelRefused("a scalar carried through a loop starts as a Python number "
                                   "(NumPy changes its type in the first trip)")
    lo, hi = jnp.asarray(lo, jnp.int32), jnp.asarray(hi, jnp.int32)
    if step == 1:
        return lax.fori_loop(lo, hi, lambda v, c: tuple(body(v, c)), tuple(carry))
    trips = jnp.maximum((hi - lo + step - (1 if step > 0 else -1)) // step, 0)
    return lax.fori_loop(jnp.int32(0), trips, lambda t, c: tuple(body(lo + t * step, c)), tuple(carry))


def npr_pallas_rerun(flag, saved, refs, loop):
    """After the kernel: where an index was out of range, the arrays as they were and the lax
    loop over them (NumPy's IndexError comes from its run-time check)."""
    def again():
        for r, v in zip(refs, saved):
            r[...] = v
        loop()
    lax.cond(flag != 0, again, lambda: None)


# The runtime's modules call one another's functions (they were one file): imported once this
# module is complete, so that any import order works.
