"""The only place that spells JAX names in generated code, so an API change lands here.

Everything the rewrite emits goes through these constants and builders; the runtime helpers
(`npr_*`) are defined in the runtime package np2ref.rt, which converted files import.
"""

from __future__ import annotations

import libcst as cst

from ..analysis import numpy_table as T

NEW_REF = "jax.new_ref"
JNP = "jnp"
NP = "np"
IMPORTS = ("import jax", "import jax.numpy as jnp", "import numpy as np")

# Runtime helpers by role (names are fixed by np2ref.rt).
STORE_PROXY = "npr_at"
LOAD = "npr_load"
FLAT = "npr_flat"
OWN = "npr_own"
SHARE = "npr_share"
INT = "npr_int"
ASTYPE = "npr_astype"
SCALAR_TYPE = "npr_scalar_type"
FLOAT = "npr_float"
PYITEM = "npr_pyitem"
BOOL = "npr_bool"
SELECT = "npr_select"
IS_INTEGER = "npr_is_integer"
BUILTINS = {"max": "npr_max", "min": "npr_min", "any": "npr_any", "all": "npr_all",  # on array data
            "complex": "npr_complex", "round": "npr_round"}
VALUE = "npr_value"
RETURNED = "npr_returned"
IOP = "npr_iop"
SUB = "npr_sub"
GET = "npr_get"
WINDOW = "npr_win"
APART = "npr_apart"
MASK_STORE = "npr_mask_store"
MASK_LEAD = "npr_mask_lead"
MASK_TRAIL = "npr_mask_trail"
MASK_NEWAXIS = "npr_mask_newaxis"
MASK_GUARD = "npr_mask_guard"
WHERE_GUARDED = "npr_where_guarded"
UNMASK = "npr_unmask"
NONZERO_MASK = "npr_nonzero_mask"
MASK_ITEM = "npr_mask_item"
NONZERO_ITEM = "npr_nonzero_item"
NONZERO_COUNT = "npr_nonzero_count"
KEEP = "npr_keep"
RESELECT = "npr_reselect"
KEEP_STORE = "npr_keep_store"
MASK_RANK = "npr_mask_rank"
MASKED_REDUCE = "npr_masked_reduce"
UNSELECT = "npr_unselect"
SELECT_VALUES = "npr_select_values"
SELECT_WHOLE = "npr_select_whole"
SELECTION_MASK = "npr_selection_mask"
MASK_LEAF = "npr_mask_leaf"
MATH = "npr_math"
FOR = "npr_for"
RECUR = "npr_recur"  # a loop's stores carried to the trips that read them back (rewrite/recurrences.py)
VFOR = "npr_vfor"  # a loop of independent iterations (rewrite/lanes.py)
SUM_FOR = "npr_sum_for"  # a loop that only accumulates, summed reordered (rewrite/sum_reorder.py, sums="reorder")
FOLD_FOR = "npr_fold_for"  # a loop that only adds into one R[P], as one ordered chain (rewrite/ordered_fold.py)
FOLD = "npr_fold"  # that chain: R[P] read, every trip's value added in order
PALLAS = "npr_pallas"  # a loop nest as one Pallas kernel (rewrite/pallas_loops.py, loops="pallas")
LANE = "npr_lane"
RANGE = "npr_range"
ITEMS = "npr_items"
ITEM = "npr_item"
INT_MAX = "npr_int_max"
LIKE = "npr_like"  # a stand-in of a value's promotion type (analysis/pick_uses.py probes)
CUT = "npr_cut"  # where a probe stops below an operand it cannot stand in for
PICKED = "npr_picked"  # a max()/min() result read in arithmetic, checked there
EITHER = "npr_either"  # a name bound to arithmetic on such a result, noted again where read
INT_MIN = "npr_int_min"
NDINDEX = "npr_ndindex"
ROTATE = "npr_rotate"
ROTATED = "npr_rotated"
IF = "npr_if"
WHILE = "npr_while"
INDEX_LIST = "npr_index"
UNSET = "npr_unset"
BOUND = "npr_bound"
UNBOUND = "npr_unbound"
DEFINED = "npr_defined"
AND = "npr_and"
IFEXP = "npr_ifexp"
DICT_KEY = "npr_dict_key"
ANDV = "npr_andv"
ORV = "npr_orv"
AND_THEN = "npr_and_then"
OR_ELSE = "npr_or_else"
OR = "npr_or"
ASSERT = "npr_assert"
APPEND = "npr_append"  # an append under an `if` of a loop that stacks it (rt/appends.py)
HISTORY_LEN = "npr_len"  # len() of a list a `while` on data appends to (rt/histories.py)
HISTORY_LAST = "npr_history_last"  # its x[-1]
ERRSTATE = "npr_errstate"
NOT = "npr_not"
IN = "npr_in"
UFUNC_AT = "npr_ufunc_at"
UFUNC_AT_MASKED = "npr_ufunc_at_masked"
OUT = "npr_out"
SEQ_OP = "npr_seq_op"
FLOORDIV = "npr_floordiv"
MOD = "npr_mod"
POW = "npr_pow"
DIVMOD = "npr_divmod"
PYOP = "npr_pyop"
PYRETURN = "npr_pyreturn"
RANDOM = "npr_random"
DRAWS = "npr_draws"  # a loop's draws made before it (rt/draws.py)
SITE = "npr_site"
OPAQUE = "npr_opaque"  # a method of an object np2ref cannot see into (rt/opaque.py)
GENERATOR = "npr_generator"
CHECKED_CALL = "npr_call"
SPECIAL = "npr_special"  # a SciPy special function: now on known values, a host call on traced ones
NAMESPACE_CALL = "npr_xp"
ELEMENT = "npr_element"
SCALAR_READ = "npr_scalar_read"
UNPACK = "npr_unpack"
ISINSTANCE = "npr_isinstance"
TYPE = "npr_type"
ARRAY_MADE = "npr_array_made"
SCALAR_OF = "npr_scalar_of"
KIND_AS = "npr_kind_as"
KIND_CALL = "npr_kind_call"
STR = "npr_str"
REPR = "npr_repr"
FORMATTED = "npr_formatted"
PRINT = "npr_print"
ENTRY_DECORATOR = "npr_jit"
IN_PLACE_METHODS = T.IN_PLACE_METHODS
IN_PLACE_FUNCTIONS = {name: entry.helper for name, entry in T.IN_PLACE_FUNCTIONS.items()}


def name(dotted_name: str) -> cst.BaseExpression:
    """`"jax.new_ref"` -> the expression node."""
    parts = dotted_name.split(".")
    node: cst.BaseExpression = cst.Name(parts[0])
    for p in parts[1:]:
        node = cst.Attribute(node, cst.Name(p))
    return node


def call(func: str, *args: cst.BaseExpression, **kwargs: cst.BaseExpression) -> cst.Call:
    items = [cst.Arg(a) for a in args]
    items += [cst.Arg(v, keyword=cst.Name(k), equal=_EQ) for k, v in kwargs.items()]
    return cst.Call(name(func), items)


def load_all(ref: cst.BaseExpression) -> cst.Subscript:
    """`r[...]`: the explicit load of a whole ref."""
    return cst.Subscript(ref, [cst.SubscriptElement(cst.Index(cst.Ellipsis()))])


def index_value(elements) -> cst.BaseExpression:
    """An index as a value: a single plain element as itself, anything else as `np.s_[...]`."""
    elements = list(elements)
    if len(elements) == 1 and isinstance(elements[0].slice, cst.Index) and elements[0].slice.star is None:
        return elements[0].slice.value
    fixed = [e.with_changes(comma=cst.MaybeSentinel.DEFAULT) for e in elements]
    if len(elements) == 1:
        fixed = [fixed[0].with_changes(comma=cst.Comma())] if False else fixed
    return cst.Subscript(name(f"{NP}.s_"), fixed)


def string(text: str) -> cst.SimpleString:
    return cst.SimpleString(repr(text))


def str_tuple(items) -> cst.BaseExpression:
    items = list(items)
    if not items:
        return cst.Tuple([])
    elements = [cst.Element(string(s)) for s in items]
    if len(elements) == 1:
        elements = [cst.Element(string(items[0]), comma=cst.Comma())]
    return cst.Tuple(elements)


_EQ = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
