"""Which route a call with NumPy arrays takes: the original NumPy function or the jitted
translation (np2ref.compile's host route; docs/benchmarks.md, "Routes").

Both routes compute NumPy's values (the host route by definition, the translation by being
exact), so the choice is about time only, made once per signature from the traced program:

- `program_size`: the rule on every backend. A program with no loop, at most HOST_EQUATIONS
  equations and every array under host_below elements runs NumPy: a jitted call's fixed cost
  (arguments in, results out) is tens of microseconds, NumPy's a microsecond an operation.
- `estimate`: the rule on a CPU, at any size. It estimates both routes' time from the
  program's equations and takes NumPy's when it is no slower. On a CPU the translation gains by
  fusing elementwise work (one pass where NumPy makes one an operation) and by running loops
  without Python's cost a trip; it loses by copying every argument NumPy's allocator did not
  align to 64 bytes (XLA:CPU reads only those in place), by its call's fixed cost, and on
  matrix-vector products (XLA:CPU's dot reads its operands 1.7-3.2x slower than NumPy's
  multithreaded BLAS; it multiplies matrices by matrices 1.1-1.4x faster). NumPy's time is
  estimated on the program as traced, the jitted call's on it as the peepholes rewrote it
  (rt/dots.py's one product for a convolution's nine), in which a loop XLA unrolls in full
  computes what its copies share once.
  A loop whose trip count is data (`while`) is always the translation's: its cost is unknown.
- on an accelerator (platform not "cpu") the jitted call also moves every NumPy argument to the
  device and its results and written arguments back (LINK_BYTES_PER_US, ACCEL_CALL); its
  program is counted at XLA:CPU's cost (no faster: a guess on the host's side).

The estimate is a prior, not the decision: choice.py times both routes where it is not clear.
"""

from __future__ import annotations

import numpy as np

from ..rt.compile_api import (
    npr_aval, npr_constvars, npr_effects, npr_eqn_name, npr_eqns, npr_inner_jaxprs, npr_invars, npr_is_literal,
    npr_outvars, npr_params, npr_value_aval)

# The cost model's constants, microseconds, measured on this project's 2-core CPU VM
# (benchmarks/host_dispatch.py and docs/benchmarks.md, "Routes"): ratios, not absolute times.
NUMPY_CALL = 1.5  # one NumPy operation on an array: the call, the result's allocation
NUMPY_SCALAR = 0.05  # one operation on a scalar (a Python or NumPy number, an index)
NUMPY_TRIP = 0.1  # one trip of a Python loop
JIT_CALL = 60.0  # np2ref's jitted call with NumPy arrays: arguments in, plan, results out
JIT_TRIP = 0.1  # one trip of a lax loop
BYTES_PER_US = 10e3  # memory traffic, read or written: 10 GB/s from memory
CACHED_BYTES_PER_US = 30e3  # 30 GB/s for an operation whose arrays fit the cache together
CACHED = 4 * 2 ** 20  # bytes: half this machine's L3
FLOPS_PER_US = 20e3  # NumPy's BLAS, both cores
# XLA:CPU's dot_general/conv against NumPy's BLAS: reading the operands 2x the time (gemv 1.7-3.2x,
# a thin tensordot 1.9x), multiplying 1.2x the rate (gemm 1.1-1.4x: benchmarks/routes.py --dots)
XLA_DOT, XLA_GEMM = 2.0, 1.2
# an element read or written through an index array: NumPy's fancy indexing and np.add.at 2-12 ns
# (cached) to 25-60 ns (1e6 random), XLA:CPU's gather and scatter 15-50 ns, its scatter-add into a
# small target 3-4 ns (histograms)
NUMPY_GATHER, NUMPY_SCATTER = 0.005, 0.012
JIT_INDEXED, JIT_SCATTER_ADD = 0.02, 0.004
# a buffer this large inside the jitted program is mapped afresh on every call (glibc's malloc
# maps blocks above its largest mmap threshold, 32 MiB): a product writing one faults its pages
# in. Measured here: XLA's (576x32)·(32x16384) product, 75 MB out, 22.5 ms against NumPy's 11.4
# (1.97x); at 9-19 MB out XLA takes 0.6-1.0 of NumPy's time
FRESH_PAGES, FRESH_DOT = 32 * 2 ** 20, 2.0
STAGED_BYTES = 64 * 1024  # a read-only argument this large, not 64-byte aligned, is staged (copied)

# An accelerator behind a host link (not measured here: PCIe or a TPU host's DMA is 3-25 GB/s;
# the lower end, with each transfer's fixed cost): what np2ref's call adds on top of the program
LINK_BYTES_PER_US = 3e3
ACCEL_CALL = 100.0  # µs: the dispatch, each transfer's fixed cost, the read of the results

HOST_EQUATIONS = 48
_LOOPS = frozenset({"while", "scan"})
# equations NumPy answers with a view or a Python-level step, and XLA fuses into their consumers
_VIEWS = frozenset({"reshape", "broadcast_in_dim", "squeeze", "expand_dims", "transpose", "slice",
                    "dynamic_slice", "get", "new_ref", "freeze", "rev", "copy_p", "stop_gradient"})
# A lanes body (rt/vectorise.py) under a batched branch selects every array the branch passes on
# between two copies of itself (`select_n(p, stop_gradient(x), x)`, x the array broadcast to
# every lane: 10^12 elements for a 1000 x 1000 nest's `old`): XLA folds `select(p, x, x)` to x,
# and a gather from it reads the elements it gathers only (relax, issue 39: both routes estimated
# 1,000-100,000x their measured times, so NumPy was timed, 2.8 s, where the jitted call takes 0.07)
_DOTS = frozenset({"dot_general", "conv_general_dilated"})
_READS = frozenset({"argmax", "argmin"})  # besides reduce_*: read their operand, write a little
_UPDATES = frozenset({"dynamic_update_slice", "scatter", "scatter-add", "scatter_add"})  # in place
_STORES = frozenset({"swap", "addupdate"})  # a ref's store: after an update above, the same array


def program_size(jaxpr) -> tuple[int, int, bool]:
    """(equations, the largest array's element count, whether a loop primitive occurs) over a
    jaxpr and every jaxpr nested in its equations."""
    equations, largest, loop = 0, 0, False
    stack = [jaxpr]
    while stack:
        j = stack.pop()
        for v in list(npr_invars(j)) + list(npr_outvars(j)):
            largest = max(largest, _elements(v))
        for eqn in npr_eqns(j):
            equations += 1
            loop = loop or npr_eqn_name(eqn) in _LOOPS
            for v in npr_outvars(eqn):
                largest = max(largest, _elements(v))
            stack.extend(npr_inner_jaxprs(eqn))
    return equations, largest, loop


def estimate_or_none(jaxpr, args, written, rewrites=(), platform="cpu", lanes=()):
    """estimate's (NumPy's, the jitted call's) microseconds, or None for a program with an
    equation the model does not know the shape of."""
    try:
        return estimate(jaxpr, args, written, rewrites, platform, lanes)
    except Exception:
        return None


def estimate(jaxpr, args, written, rewrites=(), platform="cpu", lanes=()) -> tuple[float, float]:
    """(NumPy's, the jitted call's) estimated microseconds for one call. The jitted program is
    `jaxpr` as traced, peepholes applied; NumPy computes what the program was before them
    (nine window products where rt/dots.py made one): each rewritten part counts as it was.
    `platform`: JAX's default backend; off the CPU the call pays the transfers. `lanes`: the
    (Python trips, operations a trip) of each loop the translation made lanes (rt/loops.py
    npr_trips_recorded): NumPy runs those trips, which the batched program shows once (a
    1000 x 1000 element loop nest: 4 s in NumPy, estimated 49 ms from the program alone)."""
    numpy_us, jit_us = _body(jaxpr)
    numpy_us += sum(trips * (NUMPY_TRIP + ops * NUMPY_SCALAR) for trips, ops in lanes)
    for traced, rewritten in rewrites:
        numpy_us += _body(traced)[0] - _body(rewritten)[0]
    if platform != "cpu":
        moved = sum(a.nbytes for a in args if type(a) is np.ndarray)  # in; out: results, written arguments
        moved += sum(_nbytes(v) for v in npr_outvars(jaxpr))
        return numpy_us, jit_us + ACCEL_CALL + moved / LINK_BYTES_PER_US
    jit_us += JIT_CALL
    for i, a in enumerate(args):
        if type(a) is not np.ndarray:
            continue
        pass_us = a.nbytes / (CACHED_BYTES_PER_US if a.nbytes <= CACHED else BYTES_PER_US)
        jit_us += pass_us  # read once by the fused program
        if i in written:  # copied in, donated, copied back
            jit_us += 4 * pass_us
        elif a.nbytes < STAGED_BYTES or a.ctypes.data % 64 or not a.flags.c_contiguous:
            jit_us += 2 * pass_us  # device_put's copy, or np2ref's staging copy
    jit_us += 3 * _traffic(npr_outvars(jaxpr))  # a fresh buffer each call: written, and its pages faulted in
    return numpy_us, jit_us


def _body(jaxpr, invariant=None) -> tuple[float, float]:
    """(NumPy's, the jitted program's) microseconds for one run of jaxpr."""
    numpy_us, jit_us, _ = _run(jaxpr, invariant)
    return numpy_us, jit_us


def _run(jaxpr, invariant=None) -> tuple[float, float, float]:
    """(NumPy's, the jitted program's, the jitted program's once) microseconds for one run of
    jaxpr. `invariant`: in the body of a loop XLA unrolls in full, the vars whose value every
    copy shares (the loop's constants, from values computed once); what is computed from them
    alone is computed once (XLA's common-subexpression pass: rt/dots.py's products), its time
    the third number, not in the second."""
    numpy_us = jit_us = once_us = 0.0
    updated = set()  # arrays made by an in-place update: storing one back into its ref is free
    same = {}  # a var -> the value it is (through stop_gradient, or a select of one value)
    for eqn in npr_eqns(jaxpr):
        name = npr_eqn_name(eqn)
        if _same_value(eqn, same):
            numpy_us += 4 * NUMPY_SCALAR
            continue
        if name in _STORES and any(v in updated for v in npr_invars(eqn)[1:2]):
            numpy_us += NUMPY_SCALAR
            continue
        if name in _UPDATES:
            updated.update(npr_outvars(eqn))
        if name == "scan" and npr_params(eqn).get("unroll", 1) >= npr_params(eqn)["length"]:
            n, j, once = _unrolled(eqn, invariant)
            numpy_us += n
            jit_us += j
            if invariant is None:
                jit_us += once
            else:
                once_us += once
            continue
        n, j = _equation(eqn)
        numpy_us += n
        if invariant is not None and _shared(eqn, invariant):
            once_us += j
        else:
            jit_us += j
    return numpy_us, jit_us, once_us


def _same_value(eqn, same) -> bool:
    """Whether eqn passes one value on unchanged (stop_gradient, or a select_n whose cases are
    all that value): noted in `same`, and no work on either route."""
    name, ins = npr_eqn_name(eqn), npr_invars(eqn)
    if name == "stop_gradient":
        cases = ins[:1]
    elif name == "select_n" and len(ins) > 2:
        cases = ins[1:]
    else:
        return False
    if any(npr_is_literal(v) for v in cases):
        return False
    roots = {same.get(v, v) for v in cases}
    if len(roots) != 1:
        return False
    same[npr_outvars(eqn)[0]] = roots.pop()
    return True


def _unrolled(eqn, invariant) -> tuple[float, float, float]:
    """A scan XLA unrolls in full: (NumPy's, the jitted copies', the once) microseconds. Its
    constants are shared by every copy where their values are computed once outside it
    (`invariant` None: the enclosing program runs once)."""
    params = npr_params(eqn)
    body, length, n = params["jaxpr"].jaxpr, params["length"], params["num_consts"]
    inner = {b for b, o in zip(npr_invars(body)[:n], npr_invars(eqn)[:n])
             if invariant is None or npr_is_literal(o) or o in invariant} | set(npr_constvars(body))
    numpy_us, jit_us, once_us = _run(body, inner)
    return length * (numpy_us + NUMPY_TRIP), length * (jit_us + JIT_TRIP), once_us


def _shared(eqn, invariant) -> bool:
    """Whether eqn computes from `invariant` vars (and literals) alone, without effects: its
    outputs join them."""
    if npr_effects(eqn) or not all(npr_is_literal(v) or v in invariant for v in npr_invars(eqn)):
        return False
    invariant.update(npr_outvars(eqn))
    return True


def _equation(eqn) -> tuple[float, float]:
    name = npr_eqn_name(eqn)
    if name == "while":
        return float("inf"), 0.0  # trips unknown: the translation's
    if name == "scan":
        params = npr_params(eqn)
        if params.get("unroll", 1) >= params["length"]:
            numpy_us, jit_us, once_us = _unrolled(eqn, None)
            return numpy_us, jit_us + once_us
        numpy_us, jit_us = _body(params["jaxpr"].jaxpr)
        length = params["length"]
        jit_us += 2 * _traffic(npr_outvars(eqn)[:params["num_carry"]])  # a rolled loop writes its carries
        return length * (numpy_us + NUMPY_TRIP), length * (jit_us + JIT_TRIP)
    if name == "cond":
        costs = [_body(branch.jaxpr) for branch in npr_params(eqn)["branches"]]
        return max(c[0] for c in costs), max(c[1] for c in costs)
    if name == "optimization_barrier":  # rt/divisions.py's fence: no work on either route
        return 0.0, 0.0
    inner = npr_inner_jaxprs(eqn)
    if inner:  # a call (pjit, custom_jvp_call, ...): its equations
        costs = [_body(j) for j in inner]
        return sum(c[0] for c in costs), sum(c[1] for c in costs)
    arrays = [v for v in npr_invars(eqn) if npr_aval(v) is not None]
    if max((_elements(v) for v in arrays + list(npr_outvars(eqn))), default=1) <= 1:
        return NUMPY_SCALAR, 0.0
    indexed = _index_elements(name, arrays)
    if indexed:  # a gather or scatter through an index array: a cost an element besides the traffic
        outs = list(npr_outvars(eqn))  # (a gather reads the elements it gathers, not its whole operand)
        traffic = _traffic(arrays[1:] + outs + outs if name in ("get", "gather") else arrays + outs)
        numpy_us = NUMPY_CALL + traffic + (NUMPY_GATHER if name in ("get", "gather") else NUMPY_SCATTER) * indexed
        return numpy_us, traffic + (JIT_SCATTER_ADD if name in ("scatter-add", "scatter_add", "addupdate")
                                    else JIT_INDEXED) * indexed
    if name in _VIEWS:
        return 4 * NUMPY_SCALAR, 0.0
    if name in _UPDATES or name in _STORES:  # NumPy and XLA write the update's elements in place
        update = 2 * _traffic(arrays[1:2] if name in _UPDATES or len(arrays) < 2 else arrays[1:2])
        return NUMPY_CALL + update, update
    traffic = _traffic(arrays + list(npr_outvars(eqn)))
    if name in _DOTS:  # BLAS against XLA:CPU: XLA reads the operands slower, multiplies faster
        flops = _flops(eqn)
        blas = max(traffic, flops / FLOPS_PER_US)
        xla = max(XLA_DOT * _traffic(arrays) + _traffic(npr_outvars(eqn)), flops / (XLA_GEMM * FLOPS_PER_US))
        if sum(_nbytes(v) for v in npr_outvars(eqn)) > FRESH_PAGES:  # faulted in as the product writes it
            xla *= FRESH_DOT
        return NUMPY_CALL + blas, xla
    if name.startswith("reduce_") or name in _READS:
        return NUMPY_CALL + traffic, _traffic(arrays)  # XLA fuses the operand's producer
    if _elementwise(eqn):
        return NUMPY_CALL + traffic, 0.0  # fused: the program's reads and writes are counted once
    return NUMPY_CALL + traffic, traffic  # a gather, sort, cumulative sum, pad: its own pass


def _index_elements(name: str, arrays) -> int:
    """The elements of the integer index arrays a gather, scatter or ref access takes."""
    if name == "get":
        indices = arrays[1:]  # (ref, *indexer leaves)
    elif name in _STORES:
        indices = arrays[2:]  # (ref, value, *indexer leaves)
    elif name == "gather" or name.startswith("scatter"):
        indices = arrays[1:2]  # (operand, indices, [updates])
    else:
        return 0
    found = 0
    for v in indices:
        dtype = getattr(npr_value_aval(v), "dtype", None)
        if dtype is not None and np.dtype(dtype).kind in "iu" and _elements(v) > 1:
            found = max(found, _elements(v))
    return found


def _traffic(variables) -> float:
    """Microseconds to read or write these arrays once: from the cache when they fit together."""
    nbytes = sum(_nbytes(v) for v in variables)
    return nbytes / (CACHED_BYTES_PER_US if nbytes <= CACHED else BYTES_PER_US)


def _elementwise(eqn) -> bool:
    shapes = {_shape(v) for v in list(npr_invars(eqn)) + list(npr_outvars(eqn))
              if npr_aval(v) is not None and _elements(v) > 1}
    return len(shapes) == 1


def _flops(eqn) -> float:
    out = _elements(npr_outvars(eqn)[0])
    rhs_shape = _shape(npr_invars(eqn)[1])
    if npr_eqn_name(eqn) == "conv_general_dilated":  # each output: a product over the kernel's window
        features = rhs_shape[npr_params(eqn)["dimension_numbers"].rhs_spec[0]]
        return 2.0 * out * _elements(npr_invars(eqn)[1]) / max(features, 1)
    (lhs_contract, _), _ = npr_params(eqn)["dimension_numbers"]
    lhs_shape = _shape(npr_invars(eqn)[0])
    return 2.0 * out * int(np.prod([lhs_shape[d] for d in lhs_contract], dtype=np.int64))


def _shape(var) -> tuple:
    return tuple(getattr(npr_value_aval(var), "shape", ()))


def _elements(var) -> int:
    shape = _shape(var)
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


def _nbytes(var) -> int:
    dtype = getattr(npr_value_aval(var), "dtype", None)
    try:
        itemsize = np.dtype(dtype).itemsize
    except TypeError:
        return 0
    return _elements(var) * itemsize
