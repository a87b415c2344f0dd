"""The jitted call with NumPy arrays, as straight-line Python made for one plan.

A call of np2ref.compile (or npr_jit's NumPy-facing call) with NumPy arrays and Python floats
runs a plan's flat jitted program (fastpath.py, mode "numpy"): JAX's own dispatch keys it by
shapes and dtypes. What np2ref adds around it — checking the arguments as the general path
would, writing the written arrays back, turning the result leaves into NumPy's results — is
written out here as one function per plan and argument types, with the plan's tests inlined
(`type(a0) is ndarray and a0.dtype in DTYPES`, the written array apart from the others). On
this 2-core VM each Python-level helper call on that path cost several µs more than its own
work (measured: 22 µs above a plain jitted call through the generic path, 6 µs written out).

The first version made for a plan finishes through _NprFlat._finish; once the flat run has been
traced and its result shape is known, it is replaced by one that writes the common results
(no bounds record, a plain tree of arrays) inline. Every test that fails, a run that raises
(a new trace refused, a JAX error), a plan forgotten: the call answers _NPR_GENERAL and the
general path runs the call from the start (nothing has been written back by then).
"""

import numpy as np
import jax

from .arguments import _NPR_GENERAL, _NPR_NONE, _npr_write_back, _NprPlan
from .buffers import _npr_results_numpy, _NPR_STAGE_BYTES, _NPR_VIEW_BYTES
from .module_globals import _npr_moved


def _npr_numpy_call(fn, flat, plan, kinds):
    """The straight-line call of `flat` for calls whose arguments have the types `kinds`
    (NumPy arrays JAX takes as they are, Python floats), as `plan` checks them: NumPy dtypes
    JAX holds, below the staging size where the plan stages, written arrays apart from the
    others and C-contiguous where the program reads layout, the module's values unchanged."""
    n = len(kinds)
    tests = []
    for i, k in enumerate(plan.key):
        if k is _NprPlan.ARRAY:
            tests.append(f"type(a{i}) is ndarray and a{i}.dtype in DTYPES")
            if plan.staging is not None and any(j == i for _, j in plan.staging.positions):
                tests.append(f"a{i}.nbytes < STAGE")
        else:
            tests.append(f"type(a{i}) is float")
    body = [f"if {' and '.join(tests) or 'True'}:", "    if WATCH.checks and moved(FN):", "        return MISS"]
    for i, j in plan.apart:
        body += [f"    if a{i} is a{j} or may_share(a{i}, a{j}) and shares(a{i}, a{j}):", "        return MISS"]
    for _, i in plan.written if plan.held else ():  # the module's arrays the function reads
        body += [f"    if any(may_share(a{i}, w) and shares(a{i}, w) for w in HELD):", "        return MISS"]
    if fn._layout:
        for _, i in plan.written:
            body += [f"    if not (a{i}.flags.c_contiguous or a{i}.size <= 1):", "        return MISS"]
    body += [f"    values = [{''.join(f'a{i}, ' for i in (flat.take or range(n)))}]",
             "    try:", "        out = RUN(values)", "    except Exception:", "        return MISS"]
    inline = _npr_inline_finish(flat)
    if inline is None:
        body += ["    result = FINISH(out, args, values)", "    if FLAT.shape is not None:",
                 "        UPGRADE()", "    return result"]
    else:
        body += ["    " + line for line in inline]
    source = (f"def call(args):\n    if len(args) == {n} and LIVE and not FLAT.refused:\n"
              + (f"        {''.join(f'a{i}, ' for i in range(n))}= args\n" if n else "")
              + "".join(f"        {line}\n" for line in body) + "    return MISS\n")
    scope = {"ndarray": np.ndarray, "DTYPES": _NPR_NUMPY_DTYPES, "STAGE": _NPR_STAGE_BYTES, "FLAT": flat,
             "WATCH": fn._watch, "moved": _npr_moved, "FN": fn, "may_share": np.may_share_memory,
             "shares": np.shares_memory, "RUN": flat.run, "FINISH": flat._finish, "MISS": _NPR_GENERAL,
             "LIVE": True, "asarray": np.asarray, "copyto": np.copyto,
             "VIEW": _NPR_VIEW_BYTES, "RESULTS": _npr_results_numpy, "WRITE_BACK": _npr_write_back,
             "HELD": plan.held}
    if flat.shape is not None:
        scope["TREE"], scope["UNFLATTEN"] = flat.shape.tree, jax.tree_util.tree_unflatten

    def upgrade():  # the flat run is traced: the version with the results written inline
        scope["LIVE"] = False
        if fn._numpy_fast.get(kinds) is call:
            fn._numpy_fast[kinds] = _npr_numpy_call(fn, flat, plan, kinds)
    scope["UPGRADE"] = upgrade
    exec(compile(source, "<np2ref numpy call>", "exec"), scope)
    call = scope["call"]
    call.flat = flat
    return call


def _npr_inline_finish(flat):
    """The lines that finish a traced flat run's call inline (its leaves `out`: the result's,
    then the written arguments' final values), or None while its result shape is unknown.
    Where the result is more than a plain tree of arrays (a bounds record, arguments returned,
    fixed Python values), _NprFlat._finish does it."""
    shape = flat.shape
    if shape is None:
        return None
    if shape.sites or not shape._plain:
        return ["return FINISH(out, args, values)"]
    lines = []
    count = shape.tree.num_leaves
    if flat.finals:
        names = [f"f{k}" for k in range(len(flat.finals))]
        lines += [f"{name} = asarray(out[{count + k}])" for k, name in enumerate(names)]
        writable = " and ".join(f"a{i}.flags.writeable" for i in flat.targets)
        lines += [f"if {writable}:"]
        lines += [f"    copyto(a{i}, {name}, casting='unsafe')" for i, name in zip(flat.targets, names)]
        pairs = "".join(f"(a{i}, {name}), " for i, name in zip(flat.targets, names))
        lines += ["else:", f"    WRITE_BACK([{pairs}])", f"del out[{count}:]"]
    if count == 0:
        lines += ["return None" if shape.tree == _NPR_NONE else "return UNFLATTEN(TREE, ())"]
    elif shape._leaf:
        lines += ["v = asarray(out[0])", "if v.nbytes < VIEW:", "    return v.copy() if v.ndim else v[()]",
                  "del v  # (RESULTS counts the references to the leaf)", "return RESULTS(out, values)[0]"]
    else:
        lines += ["return UNFLATTEN(TREE, RESULTS(out, values))"]
    return lines


# the dtypes of the NumPy arrays the straight-line call takes: native byte order, those JAX
# holds (_npr_jax_dtype), as the general path's _plan_key takes them
_NPR_NUMPY_DTYPES = frozenset(np.dtype(c) for c in "?bhilqBHILQefdFD")


