"""Families for the translator rules of the lattice-Boltzmann and host-loop work, which the
other families never write:

    fresh_loop   an array each trip binds anew, writes, and leaves to be read after the loop
                 (LoopPlan.fresh: the lax loop carries the last trip's value out), with zero
                 trips, a read before the rebinding, writes through views, a rebinding in one
                 branch, a view or an alias bound instead of a new array, nesting and break
    mask_lead    integers before a mask in a store (`f[i, m] = g[2 - i, m]`, `f[:, i, m] += v`:
                 rules/mask_index.py, npr_mask_lead / npr_mask_store)
    kept         a selection kept and stored back (`b = F[m, :]; b = b[:, perm]; F[m, :] = b`:
                 rules/kept.py, npr_keep / npr_reselect / npr_keep_store), the array written
                 in between, the mask rebuilt, the selection written
    list_join    a list argument `w` joined with a list literal (`len(w + [k])`, `sum([0.5] + w)`:
                 npr_seq_op, rt/ops.py _npr_list_argument)

The families of index_families.py (step_index), plane_families.py (lead_reduce, plane_reads),
surface_families.py (phys_surface), kernel_families.py (kernels), blind_families.py (index_param,
state_copy, moving_dots, moving_masks, loop_return), rebind_families.py (loop_rebind) and
api_families.py (xp_calls, shape_set, seq_args, host_step, helper_returns), host_families.py (opaque_obj,
special, print_loop, jax_args, imported, repeat_loop, setup_host) and flow_families.py (comp_rows, append_loop,
draw_loop, tuple_unpack, call_in_expr), seq_families.py (pallas_nest, elem_reread, tri_fill, trmm_loop) and
script_families.py (host_history, float_sized, zero_d_arg) and whole_families.py (fission_loop, swap_loop,
alias_buf, promote_mix, int_wrap, made_0d), idiom_families.py (add_at_mask, comp_range, none_return),
reach_families.py (view_helper, last_append, bound_slice, self_alias, cond_views) and lane_families.py
(f32_rebind, lane_nest, jax32), habit_families.py (guarded_append, items_list, py_draws) and
identity_families.py (helper_identity, py_passthrough, pool_window), carry_families.py (out_window,
recur_loop), raise_families.py (raise_loop), pick_families.py (minmax_kinds), edge_families.py (fold_edges,
xla_identities), int_families.py (wrapping_ints, flat_and_links) and trip_families.py (tuple_for,
mask_columns, module_setup, while_history, ordered_fold, scalar_acc) and made_families.py (try_loop,
class_attrs, pair_history, chosen_call, mask_cast, module_consts, round_digits) and round14_families.py
(where_poles, rebound_loop, jax_setup, two_names, host_beside) join them in FAMILIES.

Each is `fn(g, fr, helpers) -> (statements, names they define) | None`, like the compound
families of generate.py; the statements run on the NumPy shadow and are kept only if NumPy runs
them. `np2ref fuzz --family NAME` puts one in every program.
"""

from __future__ import annotations

import re

import numpy as np

from . import (api_families, blind_families, carry_families, edge_families, flow_families, habit_families, host_families,
               identity_families, idiom_families, int_families, index_families, kernel_families, lane_families, made_families, pick_families, plane_families,
               raise_families, reach_families, rebind_families, round14_families, script_families, seq_families, surface_families,
               trip_families, whole_families)
from .exprs import FLOATS, Gen, basic_index, ops_for, scalar
from .program import Block, Line
from .shadow import Frame, evaluate


def _numeric(fr: Frame, ndim: int = 0) -> list[str]:
    return [a for a in fr.arrays() if fr.ns[a].dtype.kind in "fiu" and fr.ns[a].ndim >= ndim]


def _bound(g: Gen, fr: Frame, x: str) -> str:
    """A trip count: mostly one known only when traced (a static int `n`, a shape), so that the
    loop is a lax loop; a literal range of up to 16 trips is unrolled (rules/loop_forms.py)."""
    shapes = [f"{a}.shape[0]" for a in fr.arrays() if fr.ns[a].ndim]
    options = ["n"] * 3 * ("n" in fr.ints()) + shapes * 2 + [f"len({a})" for a in shapes[:1]] + ["17", "2", "0"]
    return g.pick(options)


# -- fresh_loop ---------------------------------------------------------------------------
def fresh_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    """`for k in range(B): u = <new array of x>; <write u>; <use u>`, `u` read after the loop."""
    sources = _numeric(fr)
    if not sources:
        return None
    x = g.pick(sources)
    u, k = g.name("u"), g.name("k")
    arr = fr.ns[x]
    sign = "-" if arr.dtype.kind != "u" else ""
    make = g.pick([f"{x} * 2", f"{x} + {k}", f"{x}.copy()", f"np.zeros_like({x})", f"{sign}{x}",
                   f"{x}[::-1].copy()" if arr.ndim else f"{x}.copy()", f"np.full_like({x}, {k})",
                   f"np.ones({arr.shape}) * {k}", f"{x} * 2"]
                   # a view or the array itself: the writes reach x (no new array each trip)
                   + [f"{x}[::-1]" if arr.ndim else f"{x}[...]", x, f"{x}[1:]" if arr.ndim else x,
                      f"{x}.T", f"{x}.reshape(-1)"] * g.chance(25))
    try:
        shape, dtype = _shape_dtype(make, {**fr.ns, k: 1})
    except Exception:  # noqa: BLE001
        return None
    bind = Line(f"{u} = {make}")
    if g.chance(15):  # a tuple binding, as `rho, u = macroscopic(fin)` writes it
        s = g.name("s")
        bind = Line(f"{u}, {s} = {make}, {x}.sum()")
    writes = [_write(g, u, shape, dtype, k) for _ in range(g.int(1, 2))]
    body = [bind, *writes]
    if g.chance(50):  # the new array used in the trip: x rebound to it, or x written with it
        use = g.pick([f"{x}[...] += {u}.sum()", f"{x}[...] = {u}.max()" if int(np.prod(shape)) else f"{x}[...] += 1",
                      f"{x} = {x} + {u}", f"{x} = {u} * 2" if dtype == arr.dtype else f"{x}[...] += 1"])
        body.append(Line(use))
    prelude = []
    defined = g.chance(55)
    if defined:  # a value before the loop: what u is after zero trips (else Python's unbound name)
        prelude = [Line(f"{u} = {g.pick([f'np.zeros_like({x})', f'{x}.copy()', x, f'{x} * 0'])}")]
        if g.chance(30):  # read in the trip before the rebinding: the last trip's value is needed
            body.insert(0, Line(f"{x}[...] += {u}.sum()" if g.chance(50) else f"{x} = {x} + {u}"))
    if g.chance(25):  # bound in one branch only: the other trips keep the last value
        cond = g.pick([f"{k} % 2 == 0", f"{k} >= 1", f"{x}.sum() > 0", f"{k} == 0"])
        rest = [Block("else:", (Line(f"{u} = {x} * 0" if g.chance(50) else f"{u} = np.ones_like({x})"),))] \
            if g.chance(40) else []
        body = [Block(f"if {cond}:", (bind,)), *rest, *body[1:]]
    if g.chance(25):
        at = g.int(0, len(body))
        cond = g.pick([f"{k} == 1", f"{k} >= 2", f"{x}.sum() > 1", f"{k} == 0"])
        body.insert(at, Block(f"if {cond}:", (Line(g.pick(["break", "continue"])),)))
    bound = _bound(g, fr, x)
    loop = Block(f"for {k} in range({bound}):", tuple(body), (f"{k} = 0",))
    if g.chance(20):  # nested: the rebinding loop inside another, or another inside it
        k2 = g.name("k")
        if g.chance(50):
            loop = Block(f"for {k2} in range({g.pick(['2', bound, _bound(g, fr, x)])}):", (loop,), (f"{k2} = 0",))
        else:
            inner = Block(f"for {k2} in range(2):", (Line(f"{u}[...] += 1" if dtype.kind != "b" else f"{u}[...] = True"),))
            loop = Block(loop.header, loop.body + (inner,), loop.unwrap)
    after = []
    if g.chance(80):  # read after the loop (as well as maybe returned); written after it: a Ref
        reads = [f"{x}[...] += {u}.sum()", f"{x}[...] = {u}.max()" if int(np.prod(shape)) else f"{x}[...] += 1",
                 f"{x}[...] += ({u} * 2).sum()", f"{x}[...] += {u}[{basic_index(g, shape)}].sum()"]
        after.append(Line(g.pick(reads * 4 + [f"{u}[...] = 0", f"{u}[0] = 1" if shape and shape[0] else f"{u}[...] = 1"])))
    return [*prelude, loop, *after], (u,)


def _shape_dtype(expr: str, ns: dict):
    value = np.asarray(evaluate(expr, ns))
    return value.shape, value.dtype


def _write(g: Gen, u: str, shape, dtype, k: str) -> Line:
    """A write into u: a basic index, an op=, through a view of it, under a mask of it."""
    form = g.pick(["index", "index", "aug", "view", "mask", "method", "loop"])
    if form == "aug" and dtype.kind != "b":
        op = g.pick(ops_for(dtype)[:4])
        return Line(f"{u}[{basic_index(g, shape)}] {op}= {scalar(g, dtype, op)}")
    if form == "view" and shape:
        v = g.pick([f"{u}[1:]", f"{u}[::-1]", f"{u}.T", f"{u}.reshape(-1)", f"{u}[..., :1]"])
        return Line(f"{v}[...] = {scalar(g, dtype)}" if g.chance(50) else f"{v}[0] = {scalar(g, dtype)}")
    if form == "mask":
        cond = f"{u} > 0" if dtype.kind != "b" else u
        return Line(f"{u}[{cond}] = {scalar(g, dtype)}")
    if form == "method":
        return Line(g.pick([f"{u}.fill({scalar(g, dtype)})", f"np.copyto({u}, {scalar(g, dtype)})"]))
    if form == "loop" and shape and shape[0]:
        return Line(f"{u}[{k} % {shape[0]}] = {k}")
    return Line(f"{u}[{basic_index(g, shape)}] = {scalar(g, dtype)}")


# -- mask_lead ----------------------------------------------------------------------------
def mask_lead(g: Gen, fr: Frame, helpers) -> tuple | None:
    """Integers before a mask: `for i in range(K): f[i, m] = g[K - 1 - i, m]`, `f[:, i, m] += v`."""
    targets = [a for a in fr.arrays() if fr.ns[a].ndim >= 2 and fr.ns[a].shape[0] and fr.ns[a].dtype.kind != "b"]
    if not targets:
        return None
    f = g.pick(targets)
    arr = fr.ns[f]
    colon = arr.ndim >= 3 and arr.shape[1] and g.chance(40)
    K = arr.shape[1] if colon else arr.shape[0]
    trailing = arr.shape[2:] if colon else arr.shape[1:]
    m, lines, defines = g.name("m"), [], []
    same = [a for a in fr.arrays() if fr.ns[a].shape == trailing]
    subject = g.pick(same + [f"{f}[0, 0]" if colon else f"{f}[0]"] * 2)
    if len(trailing) == 2 and g.chance(30):  # a mask on the first of two axes after the integer
        subject = f"{f}[0, :, 0]"
    bools = evaluate(subject, fr.ns).dtype.kind == "b"
    cond = g.pick([subject, f"~{subject}"]) if bools else f"{subject} {g.pick(['>', '<', '!='])} {g.pick(['0', '1', '0.5'])}"
    if g.chance(70):
        lines.append(Line(f"{m} = {cond}"))
        defines.append(m)
    else:
        m = f"({cond})"
    i = g.name("i")
    n = f"{f}.shape[1]" if colon else f"{f}.shape[0]"  # a lax loop; a literal range is unrolled
    head = g.pick([f"range({n})", f"range({n})", f"range({K})", f"range(1, {n})", f"reversed(range({n}))",
                   f"range(-{n}, 0)"])
    table = None
    if g.chance(20):
        table = g.name("opp")
        perm = [K - 1 - j for j in range(K)] if g.chance(60) else [g.int(0, K - 1) for _ in range(K)]
        lines.append(Line(f"{table} = {perm if g.chance(60) else f'np.array({perm})'}"))
    lead = g.pick([i, i, f"{K - 1} - {i}", f"-1 - {i}", f"({i} + 1) % {K}", f"{i} - 1"] + [f"{table}[{i}]"] * 2 * bool(table))
    src_lead = g.pick([lead, f"{K - 1} - {i}", i] + [f"{table}[{i}]"] * bool(table))
    sources = [a for a in fr.arrays() if fr.ns[a].shape == arr.shape and fr.ns[a].dtype == arr.dtype]
    src = g.pick(sources)  # f itself among them: reads of rows the loop already wrote
    pre = ":, " if colon else ""
    op = "=" if g.chance(55) else g.pick(ops_for(arr.dtype)[:3]) + "="
    value = g.pick([f"{src}[{pre}{src_lead}, {m}]", f"{src}[{pre}{src_lead}, {m}] * 2", scalar(g, arr.dtype, op[0]),
                    f"{src}[{pre}{src_lead}][{m}]"] + ["s"] * ("s" in fr.floats() and arr.dtype.kind == "f")
                   + [f"np.arange(np.count_nonzero({m}))"] * (op == "=" and not colon))
    store = f"{f}[{pre}{lead}, {m}] {op} {value}"
    if g.chance(25):  # one integer written out, not a loop's
        return [*lines, Line(re.sub(rf"\b{i}\b", f"({g.int(-K, K - 1)})", store))], tuple(defines)
    return [*lines, Block(f"for {i} in {head}:", (Line(store),), (f"{i} = 0",))], tuple(defines)


# -- kept ---------------------------------------------------------------------------------
def kept(g: Gen, fr: Frame, helpers) -> tuple | None:
    """A selection kept in a name, reindexed, and stored back under the same mask:
    `b = F[m, :]; b = b[:, perm]; F[m, :] = b` (mask on leading axes) or
    `b = F[:, m]; F[:, m] = b[perm, :]` (mask on trailing axes), F maybe written in between."""
    targets = [a for a in fr.arrays() if fr.ns[a].ndim >= 2 and all(fr.ns[a].shape)]
    if not targets:
        return None
    F = g.pick(targets)
    arr = fr.ns[F]
    lead = g.chance(50)  # the mask on the leading axis (Mocz's) or on the trailing ones (Latt's)
    m, b = g.name("m"), g.name("b")
    if lead:
        cond = g.pick([f"{F}[:, 0] > 0", f"{F}[:, -1] != 0", f"{F}.sum(axis=1) > 0"]) if arr.ndim == 2 else \
            g.pick([f"{F}[..., 0] > 0", f"{F}[:, :, 0] != 0"])
        sel = g.pick([f"{F}[{m}, :]", f"{F}[{m}]"] if arr.ndim == 2 else [f"{F}[{m}, :]", f"{F}[{m}]"])
        axis_len = arr.shape[-1]
        reindex = g.pick([f"{b}[:, {_perm(g, axis_len)}]", f"{b}[:, ::-1]", f"{b}[::-1]", f"{b} * 2",
                          f"{b}[:, {_perm(g, axis_len)}] + 1"])
    else:
        cond = g.pick([f"{F}[0] > 0", f"{F}[-1] != 0", f"{F}.sum(axis=0) > 0"])
        sel = f"{F}[:, {m}]"
        axis_len = arr.shape[0]
        reindex = g.pick([f"{b}[{_perm(g, axis_len)}, :]", f"{b}[{_perm(g, axis_len)}]", f"{b}[::-1]",
                          f"{b}[::-1, :] * 2"])
    if arr.dtype.kind == "b":
        cond = g.pick([f"{F}[:, 0]" if lead else f"{F}[0]", f"~{F}[:, 0]" if lead else f"~{F}[0]"])
        reindex = reindex.replace(" * 2", "").replace(" + 1", "")
    target = sel
    lines = [Line(f"{m} = {cond}"), Line(f"{b} = {sel}")]
    if g.chance(60):
        lines.append(Line(f"{b} = {reindex}"))
        stored = b
    else:
        stored = reindex
    between = []
    if g.chance(60):  # the array written between the keep and the store: b must keep the old values
        between.append(Line(g.pick([f"{F} += 1" if arr.dtype.kind != "b" else f"{F}[...] = True",
                                    f"{F}[...] = 0", f"{F}[{m}] = 0", f"{F} *= 2" if arr.dtype.kind != "b" else f"{F}[0] = False"])))
    if g.chance(20):  # the kept selection written itself (a copy: F must not see it)
        between.append(Line(f"{b}[...] = 0"))
    if g.chance(10):  # the mask rebuilt: the store is under another mask (refused, or as NumPy)
        between.append(Line(f"{m} = {cond}"))
    op = "=" if g.chance(80) else "+=" if arr.dtype.kind != "b" else "|="
    lines += between[:g.int(0, len(between))] if g.chance(30) else between
    lines.append(Line(f"{target} {op} {stored}"))
    if g.chance(25):  # the same in a loop (Mocz's time loop)
        k = g.name("k")
        bound = g.pick(["n"] * ("n" in fr.ints()) + [f"{F}.shape[0]", "2", "0"])
        return [Block(f"for {k} in range({bound}):", tuple(lines), (f"{k} = 0",))], ()
    return lines, (m, b)


def _perm(g: Gen, d: int) -> str:
    perm = list(range(d))[::-1] if g.chance(50) else [g.int(0, d - 1) for _ in range(d)]
    return str(perm) if g.chance(70) else f"np.array({perm})"


# -- list_join ----------------------------------------------------------------------------
def list_join(g: Gen, fr: Frame, helpers) -> tuple | None:
    """The list argument `w` joined with a list literal in Python (`w + [k]`), where made an
    array it would add elementwise; or used where NumPy makes it an array (`t + w`)."""
    seqs = [n for n in fr.names if isinstance(fr.ns.get(n), (list, tuple))]
    if not seqs:
        return None
    shapes = {a: fr.ns[a].shape for a in fr.arrays() if fr.ns[a].dtype.kind == "f"}
    pre, defines = [], ()
    if not shapes or g.chance(20):  # a float array of its own to add into
        t = g.name("acc")
        shape = g.pick([(3,), (), (2, 3)])
        pre, defines = [Line(f"{t} = np.zeros({shape})")], (t,)
        shapes[t] = shape
    else:
        t = g.pick(list(shapes))
    w, k = g.pick(seqs), g.name("k")
    item = g.pick([k, "1.0", "2", "s" if "s" in fr.floats() else "0.5", f"{t}.sum()"])
    lit = f"({item},)" if isinstance(fr.ns[w], tuple) else f"[{item}]"
    joined = g.pick([f"{w} + {lit}", f"{lit} + {w}", f"{w} + {w}", f"{w} * 2", f"{w} + {lit} + {w}"])
    expr = g.pick([f"len({joined})", f"len({joined})", f"sum({joined})", f"({joined})[-1]", f"max({joined})",
                   f"np.sum({joined})", f"np.array({joined}).sum()", f"len({w})", f"sum({w})", f"{w}[0]",
                   f"sorted({joined})[0]", f"np.mean({w} + {lit})"])
    stmt = Line(f"{t}[...] {g.pick(['+=', '+=', '=', '-='])} {expr}")
    shaped = [a for a in shapes if shapes[a][-1:] == (len(fr.ns[w]),)]
    if shaped and g.chance(15):  # NumPy makes the list an array: elementwise
        u = g.pick(shaped)
        stmt = Line(f"{u}[...] = {u} + {w}")
    if g.chance(15):
        x = g.name("x")
        stmt = Block(f"for {x} in {joined}:", (Line(f"{t}[...] += {x}"),), (f"{x} = 0",))
    if g.chance(50) or k in stmt_text(stmt):
        bound = g.pick(["n"] * ("n" in fr.ints()) + [f"{t}.shape[0]" if shapes[t] else "3", "3", "0"])
        return [*pre, Block(f"for {k} in range({bound}):", (stmt,), (f"{k} = 0",))], defines
    return [*pre, stmt], defines


def stmt_text(stmt) -> str:
    return stmt.text if isinstance(stmt, Line) else stmt.header + " ".join(stmt_text(s) for s in stmt.body)


def list_param(g: Gen) -> str:
    """The list (or tuple) argument of list_join: floats or ints, empty sometimes."""
    items = [g.pick(FLOATS[:6]) for _ in range(g.int(0, 3))]
    if g.chance(30):
        items = [str(g.int(-2, 4)) for _ in items]
    text = ", ".join(items)
    return f"({text}{',' if len(items) == 1 else ''})" if g.chance(20) else f"[{text}]"


WANT_N = frozenset({"fresh_loop", "kept", "list_join", "phys_surface", "rebind", "loop_rebind"})  # families that loop `range(n)`, n a static int
FAMILIES = {  # name -> (family, weight among the compound families of generate.py)
    "fresh_loop": (fresh_loop, 3),
    "mask_lead": (mask_lead, 2),
    "kept": (kept, 2),
    "list_join": (list_join, 1),
    **index_families.FAMILIES,
    **plane_families.FAMILIES,
    **surface_families.FAMILIES,
    **kernel_families.FAMILIES,
    **blind_families.FAMILIES,
    **rebind_families.FAMILIES,
    **api_families.FAMILIES,
    **host_families.FAMILIES,
    **flow_families.FAMILIES,
    **seq_families.FAMILIES,
    **script_families.FAMILIES,
    **whole_families.FAMILIES,
    **idiom_families.FAMILIES,
    **reach_families.FAMILIES,
    **lane_families.FAMILIES,
    **habit_families.FAMILIES,
    **identity_families.FAMILIES,
    **carry_families.FAMILIES,
    **raise_families.FAMILIES,
    **pick_families.FAMILIES,
    **edge_families.FAMILIES,
    **int_families.FAMILIES,
    **trip_families.FAMILIES,
    **made_families.FAMILIES,
    **round14_families.FAMILIES,
}
