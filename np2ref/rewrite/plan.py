"""The plan: what the planning pass (rewrite/marks.py) decided for each node of one converted
function, read by the rewrite (rewrite/function.py) through the original nodes."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class Marks:
    ref_form: set = dataclasses.field(default_factory=set)
    no_load: set = dataclasses.field(default_factory=set)
    own_form: set = dataclasses.field(default_factory=set)
    new_ref: set = dataclasses.field(default_factory=set)
    value_wrap: set = dataclasses.field(default_factory=set)
    store_bases: set = dataclasses.field(default_factory=set)
    iop_names: dict = dataclasses.field(default_factory=dict)   # AugAssign -> "iop" | "at"
    own_after: dict = dataclasses.field(default_factory=dict)   # Assign -> [ref names to npr_own]
    special_calls: dict = dataclasses.field(default_factory=dict)  # Call -> (kind, detail)
    skip_numpy: set = dataclasses.field(default_factory=set)    # func nodes not to map to jnp
    apart: dict = dataclasses.field(default_factory=dict)       # Call -> {read arg: [written args]}
    inner: set = dataclasses.field(default_factory=set)         # `np` in `np.zeros`: part of a dotted name
    not_expr: set = dataclasses.field(default_factory=set)      # Names that are not expressions (attrs, keywords)
    mask_store: dict = dataclasses.field(default_factory=dict)  # stmt -> (leaves, op)
    loops: dict = dataclasses.field(default_factory=dict)       # For -> LoopPlan
    rotations: set = dataclasses.field(default_factory=set)     # Assign swapping written arrays
    branches: dict = dataclasses.field(default_factory=dict)    # If -> BranchPlan
    elifs: set = dataclasses.field(default_factory=set)         # If nodes that are an `elif`
    unmask: set = dataclasses.field(default_factory=set)        # `b[m]` emitted as `b` in a mask store
    mask_rank: dict = dataclasses.field(default_factory=dict)   # np.arange(np.count_nonzero(m)) -> (target, axis)
    dead: set = dataclasses.field(default_factory=set)          # bodies of `if 0:` / `if False:`: kept as written
