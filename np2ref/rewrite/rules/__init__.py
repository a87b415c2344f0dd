"""The rule families. Importing this package registers every family's planners and emitters
(rewrite/registry.py); each module's docstring says what it rewrites, why, and when it is exact.

  views       references and owned values (`npr_sub`, `npr_own`, `jax.new_ref`)
  stores      `a[i] = v`, bindings of written arrays
  store_reads `A[i, i]` read in the value of a store into A (`A[i, i] = np.sqrt(A[i, i])`)
  augassign   `x op= v` on names
  mask_store  `a[m] = f(b[m])`, masked reductions (mask_guard: its reads that meet a pole)
  mask_trail  `a[m, d] op= v`, `a[np.where(m), d] op= v`: a mask first, integers after it
  mask_items  `x[m][0]`, `np.where(m)[0][0]`: one element of a selection
  nonzero     `x[np.nonzero(m)]`, `idx = np.nonzero(m)[0]` used as an index: the mask m != 0
  opaque      `SOURCE.draw(n)` on an object np2ref cannot see into: an ordered host call
  selections  `v = x[m]` kept in a name, only reduced (`np.sum(v ** 2)`, `v.size`)
  kept        `v = x[m, :]` kept in a name, reindexed and stored back (`x[m, :] = v[:, perm]`)
  out_args    `out=`
  ufunc_at    `np.add.at` and friends
  inplace     in-place NumPy functions and array methods
  calls       module functions, host calls, random draws, `int(x)` (where_guard: an np.where
              branch that meets a pole, guarded under jax.grad)
  structured  structured dtypes (record fields), refused (NPR025)
  names       loads and NumPy names
  reads       subscript reads
  sequences   operators on lists and tuples
  pyscalars   operators between Python scalars (`float(x[0]) / d`)
  pylists     lists of Python numbers (`hist.append(hist[-1] * 2)`: Python's floats, not NumPy's)
  pyreturns   returned Python scalars (`return n * 2`: Python's int, not NumPy's)
  asserts     `assert`
  errstate    `with np.errstate(...)`
  introspection  `isinstance`, `type`, `str`, f-strings on translated values
  zero_d      which calls and returned names may be 0-d arrays (`np.zeros(())`), noted for the runtime
  loops       `for` / `while` lowering (loop_forms: which loop forms, max/min on the index)
  branches    `if` lowering
  ifexp_identity  `r = in_place(u) if c else step(u)` written or returned: refused (NPR128)
  comprehensions  `np.array([f(x) for x in X])` traced once, mapped over X's rows
  unbound     names a lowered branch or loop may leave unbound (`npr_defined`), after planning
"""

from . import (asserts, augassign, branches, call_checks, calls, comprehensions, errstate, ifexp_identity, inplace, introspection, kept, loop_forms, loops, mask_items,
               mask_store, mask_trail, names, namespaces, nonzero, opaque, out_args, pylists, pyreturns, pyscalars, reads, selections, sequences, store_reads, stores,
               structured, ufunc_at, unbound, views)

__all__ = ["asserts", "augassign", "branches", "call_checks", "calls", "comprehensions", "errstate", "ifexp_identity", "inplace", "introspection", "kept", "loop_forms", "loops",
           "mask_items", "mask_store", "mask_trail",
           "names", "namespaces", "nonzero", "opaque", "out_args", "pylists", "pyreturns", "pyscalars", "reads", "selections", "sequences", "store_reads", "stores", "structured", "ufunc_at", "unbound", "views"]
