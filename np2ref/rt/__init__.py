"""np2ref's runtime: what converted programs call.

A converted file imports the helpers it uses from here (`from np2ref.rt import npr_at, npr_jit`),
and `np2ref.compile` runs converted functions against the same objects. The package imports only
jax, numpy and the standard library; `np2ref convert --standalone` copies it beside the output
as the package `np2ref_rt` (these files as they are) so a converted program runs where np2ref is
not installed.

Modules, in the order a store goes through them:

- core: trace-time state, casting and small conversions; NprError.
- index, bounds: NumPy's index kinds normalised onto a Ref; IndexError for traced indices.
  lane_reads: `A[i + c]` with i a loop's lane variable read as slices, not a gather.
- views, stores, lowering: loads and NumPy views of Refs; stores with NumPy's casting,
  broadcasting and last-wins duplicates (scatter); how a store is lowered (switchable
  peepholes; store_order: stores ordered for XLA:CPU's copy insertion).
- inplace, masks, ops: out=, in-place functions and methods, boolean masks, `op=` on values
  (mask_checks, mask_selections, mask_reductions: the masks' pairing checks, selection names and
  reductions of selections).
- np_*: the npr_np_* shims, NumPy's dtypes and semantics on top of jax.numpy.
- jit, calls, module_globals, arguments: npr_jit, the NumPy-facing jitted call (calls: its
  arguments bound and checked, a plan per kind of arguments; module-level values it read
  checked on each call); static arguments, results, write-back.
- buffers: 64-byte-aligned NumPy arrays (XLA:CPU takes them without a copy), staging buffers.
- fastpath: a call of jax.Arrays runs the plan's program jitted with a flat signature;
  numpycall: a call with NumPy arrays runs it through straight-line Python made for the plan.
- loops, branches, refs, python_loops, windows, lane_dots, masked, windows_more, win_views, early_exit, rebinds: lax
  loops and branches with Refs closed over; slices that move with the loop variable, those of a
  length known only at run time (masked; windows_more: their mean, max, min, and static steps;
  win_views: such a window bound as a view and written through, masked stores into it);
  early_exit: a data-dependent `break` ends the loop; rebinds: a carried array the body rebinds.
- vectorise: npr_vfor, a loop whose iterations the rewrite proved independent run as one vmap
  over its range (rewrite/lanes.py); lane_dots: a product of two moving slices in those lanes as
  one matrix product where that is exact. sum_reorder: npr_sum_for, a loop that only accumulates
  `R[P] += value`, summed as one contraction over its range (sums="reorder"; not NumPy's bits);
  fold: npr_fold_for, such a loop with one `R[P] += value` as one chain of additions in NumPy's
  order, every trip's reads made at once (the default: NumPy's bits); with a carried value, a loop
  that only steps one scalar accumulator (`s += v`: rewrite/scalar_fold.py) as every trip's value
  at once and the chain of its steps.
- where_guard: npr_where_guarded, np.where whose branch meets a pole, guarded under jax.grad.
- recur: npr_recur, an element a loop's trip stored carried to the later trips that read it
  back (rewrite/recurrences.py).
- pallas: npr_pallas, a top-level loop nest of element reads and writes as one Pallas kernel (loops="pallas").
- pymath: math-module functions and library calls (scipy tridiagonal solves) on traced values.
- appends: a lax loop's append-only lists, the appended values stacked at the trip's index.
- histories: the lists a `while` loop on data appends to, in chunks handed to the host.
- host: random draws and calls that run on the host at run time, in program order; draws: a
  loop's draws made in one host call before it.
- comprehensions: npr_comp_map, `np.array([f(x) for x in X])` traced once over X's rows.
- budget: the trace budget (NPR037): a trace that records too many equations or takes too
  long stops, naming the loop or comprehension it unrolls.
- forward: `jax.jacfwd` of `.pure`, the primal computed apart from the batched tangents.
- compat: the one module that reaches into JAX internals; compat_messages: the one table of JAX's
  error wordings np2ref tells errors apart by.
- divisions: a quotient that reaches a decision is NumPy's division (XLA's `x * (1 / c)` fenced);
  fence_kinds: the fences spliced in (barriers, selects; the zero and boolean fences); pure_fences:
  the same program under a caller's vmap or grad of `.pure`.
- casts: floats to integers as x86-64 NumPy casts them (astype, stores, dtype=), its warning.
- wrapping: signed integer products, powers and abs through their unsigned bits (XLA takes a
  signed square for non-negative and folds `x * x < 0`; NumPy's wraps).
- conversions: Python's int(), float(), complex(), bool(), .item() of values that may be traced.
- promotion: NumPy's result dtype for operators between traced values (int64 + float32 is
  float64), through a variant of each converted function compiled from its own source.
- unbound: names a traced branch or loop may leave unbound (a flag beside the value; Python's
  UnboundLocalError when the call runs).
- pyscalars: Python's arithmetic on Python scalars (npr_pyop): ZeroDivisionError, float // and %,
  Python ints beyond int64 refused when the call runs.
- truth: Python's truth on values that may be traced (and, or, not, in, any/all); picks: the
  builtin max()/min() and the kinds of their result (analysis/pick_uses.py's `use=`).
- compile_api: what np2ref's host side (np2ref.compile, the fuzzer) reads of the runtime, public
  names over private ones; not exported here.

The modules stand on floors (docs/internals.md), each importing only its own and those below.

Every public name starts with npr_ (or Npr for classes), so converted code can import them
next to the user's own names.
"""

import numpy as _np

# Importing JAX draws from NumPy's global generator (its k8s_cluster module makes a
# retry schedule with np.random.rand at import): a stream the user seeded must not move
# because a converted program imported np2ref's runtime. The modules are imported floor by
# floor, each importing only the floors below it (tests/rt/test_rt_layers.py).
_state = _np.random.get_state()
try:
    import jax  # noqa: F401
    from . import (
        compat_messages, compat, core, forward, budget, buffers, module_globals,
        bounds, lowering, scatter, store_order, casts, conversions, float64_math, accurate64, fission, fence_kinds, divisions, pure_fences,
        lane_reads, wrapping,
        index, views, stores,
        ops, promotion, pyscalars, truth, picks, carried_kinds, pymath, np_dtypes, np_ufuncs, np_reductions, np_shape, np_creation,
        np_linalg, np_counting, inplace,
        unbound, refs, python_loops, rebinds, early_exit, appends, histories, branches, loops, lane_dots, vectorise,
        comprehensions, pallas, recur, where_guard,
        masked, masked_products, windows_more, windows, mask_checks, masks, mask_selections, mask_reductions, win_views, sum_reorder, fold,
        host, draws, opaque, introspect, arguments, result_shape, float_sizes, fastpath, numpycall, calls, jit)
finally:
    _np.random.set_state(_state)

MODULES = (compat_messages, compat, core, forward, index, bounds, views, stores, lowering, inplace, mask_checks, masks, mask_selections,
           mask_reductions, ops,
           np_dtypes, np_ufuncs, np_reductions, np_creation, np_shape, np_linalg, np_counting,
           jit, calls, module_globals, arguments, result_shape, buffers, loops, branches, refs, python_loops, windows, lane_dots, masked,
           masked_products,
           windows_more, win_views, sum_reorder, fold, early_exit, rebinds, host, draws, opaque, pymath, casts, introspect, promotion, unbound, pyscalars, fastpath, numpycall,
           fence_kinds, divisions, pure_fences, lane_reads, float64_math, accurate64, scatter, store_order, conversions, vectorise, truth, picks, carried_kinds, budget, comprehensions, appends, histories, pallas, recur, wrapping,
           where_guard)


def _public(module) -> dict:
    return {name: value for name, value in vars(module).items() if name.startswith(("npr_", "Npr"))}


__all__ = sorted({name for module in MODULES for name in _public(module)})
globals().update({name: value for module in MODULES for name, value in _public(module).items()})
PythonLoopWarning = python_loops.PythonLoopWarning
