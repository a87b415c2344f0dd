"""A jitted run's result made into the converted function's: the tree, the Python values fixed
at trace time, the arguments returned as themselves (the caller's own arrays and numbers, views
of them), as NumPy's values (the plain call) or as jax.Arrays (.device) (split from arguments.py)."""

import jax
import numpy as np

from .arguments import _NprHeld, _npr_plain_dicts
from .bounds import _npr_bounds_error
from .buffers import _npr_results_numpy


class _NprResultShape:
    """How a jitted run's leaves make the converted function's result: its tree, the Python
    values fixed at trace time, and which leaves are an argument itself. It is a leafless pytree
    whose aux data is all of that, so each compiled executable hands back the shape it was
    traced with (a retrace for new shapes cannot mix one call's result up with another's)."""

    def __init__(self, tree, fixed, returned, same, sites=(), python=(), dicts=False, chosen=()):
        self.tree, self.returned, self.same = tree, dict(returned), dict(same)
        self.fixed = {i: v.obj if type(v) is _NprHeld else v for i, v in fixed}  # (held: the object itself)
        self.sites = sites  # the run-time index checks traced (_npr_Bounds.sites)
        self.python = dict(python)  # leaf index -> int/float/bool: a Python scalar in NumPy's program
        self.dicts = dicts  # a dict in the result: _NprDicts, made plain dicts again
        # (leaf index, int/float, whether a true predicate gives it) of a Python number or NumPy's
        # scalar as a branch on data chose: the predicates are the run's last leaves
        self.chosen = chosen
        self._aux = (tree, fixed, returned, same, sites, python, dicts, chosen)
        # every leaf comes from the run, none is an argument: one conversion per leaf, and for
        # a result that is one array, no tree to rebuild
        self._plain = not (self.fixed or self.returned or self.same or self.python or self.dicts or chosen)
        self._leaf = self._plain and jax.tree_util.treedef_is_leaf(tree) and tree.num_leaves == 1

    def check_bounds(self, slot):
        """NumPy's IndexError when a run-time index check failed (`slot`: the checks' record,
        (site, value), None when there were none), raised before anything is written back."""
        error = None if slot is None else _npr_bounds_error(self.sites, *np.asarray(slot))
        if error is not None:
            raise error

    def numpy(self, result, values, inputs=()):
        out = self._numpy(result, values, inputs)
        return _npr_plain_dicts(out) if self.dicts else out

    def _numpy(self, result, values, inputs=()):
        """The result as NumPy returns it: an argument returned is the caller's own array (a
        jax.Array passed and returned unchanged, that object), and a view of a NumPy array
        argument a view of the caller's array (made after the write-back). `result` is
        the jitted call's own list of leaves, `inputs` the arrays it was passed
        (_npr_results_numpy: large results are not copied where that is exact)."""
        tree = self.tree
        if not tree.num_leaves:  # None (an in-place kernel), (), {}: nothing to convert
            return jax.tree_util.tree_unflatten(tree, ())
        converted = _npr_results_numpy(result, inputs)
        if self._leaf:
            return converted[0]
        if self._plain:
            return jax.tree_util.tree_unflatten(tree, converted)
        dynamic_leaves = iter(converted)
        leaves = [self.fixed[i] if i in self.fixed else next(dynamic_leaves) for i in range(tree.num_leaves)]
        for i, kind in self.python.items():
            leaves[i] = kind(leaves[i])
        self._chosen(leaves, converted)
        for i, (name, steps) in self.returned.items():
            given = values.get(name)
            if steps[:1] and isinstance(steps[0], tuple) and steps[0][0] == "i":  # a tuple argument's item
                given, steps = given[steps[0][1]], steps[1:]
            if isinstance(given, np.ndarray):
                leaves[i] = _npr_numpy_view(given, steps)
            elif isinstance(given, jax.Array) and not steps:  # the caller's jax.Array passed and returned
                leaves[i] = given  # as it is: that very object, as NumPy's program returns it
            elif isinstance(given, list) and not steps:  # a list argument (made an array) returned: the list
                leaves[i] = given
            elif isinstance(given, list) and steps[:1] == ("item",):  # (arguments._NprListArg)
                leaves[i] = given[steps[1]]
            elif type(given) in (int, float, complex) and not steps:  # a Python number passed and
                leaves[i] = given  # returned as it is: that very number, as in NumPy (not np.float64)
        for i, j in self.same.items():
            leaves[i] = leaves[j]
        return jax.tree_util.tree_unflatten(tree, leaves)

    def device(self, result, values):
        out = self._device(result, values)
        return _npr_plain_dicts(out) if self.dicts else out

    def _device(self, result, values):
        """The result as jax.Arrays, for .device: an argument returned is the caller's own
        jax.Array, an object returned twice one object."""
        tree = self.tree
        if self._leaf:
            return result[0]
        if self._plain or not tree.num_leaves:
            return jax.tree_util.tree_unflatten(tree, result)
        dynamic_leaves = iter(result)
        leaves = [self.fixed[i] if i in self.fixed else next(dynamic_leaves) for i in range(tree.num_leaves)]
        for i, (name, steps) in self.returned.items():
            given = values.get(name)
            if steps[:1] and isinstance(steps[0], tuple) and steps[0][0] == "i":  # (a tuple argument's item)
                given, steps = given[steps[0][1]], steps[1:]
            if isinstance(given, (jax.Array, list)) and not steps:  # (a list: arguments._NprListArg)
                leaves[i] = given
            elif isinstance(given, list) and steps[:1] == ("item",):
                leaves[i] = given[steps[1]]
        for i, j in self.same.items():
            leaves[i] = leaves[j]
        return jax.tree_util.tree_unflatten(tree, leaves)


    def _chosen(self, leaves, result):
        """Each chosen leaf Python's number where its branch's predicate (among the last of
        `result`) took the Python number's side; else as it is (NumPy's scalar, a jax.Array)."""
        for (i, kind, on_true, *otherwise), taken in zip(self.chosen, result[len(result) - len(self.chosen):]):
            if bool(taken) == bool(on_true):
                leaves[i] = kind(leaves[i])
            elif otherwise:  # (a float32 pick held in float64: NumPy's float32 scalar, exactly)
                leaves[i] = otherwise[0].type(leaves[i])


def _npr_numpy_steps(view):
    """An NprView's steps from its base as NumPy would take them (hashable: slices as tuples),
    or None when an index in them is traced (known only when the program runs)."""
    steps = []
    for kind, arg in view.steps:
        if kind == 's':
            if arg.traced:
                return None
            arg = tuple((slice, e.start, e.stop, e.step) if isinstance(e, slice) else e for e in arg.probe)
        steps.append((kind, arg))
    return tuple(steps)


def _npr_numpy_view(a, steps):
    """The view of NumPy array `a` that _npr_numpy_steps describe."""
    for kind, arg in steps:
        if kind == 's':
            a = a[tuple(slice(*e[1:]) if isinstance(e, tuple) and e[:1] == (slice,) else e for e in arg)]
        elif kind == 'r':
            a = a.reshape(arg)
        else:
            a = a.transpose(arg)
    return a


def _npr_result_shape(aux, children):
    """_NprResultShape's unflatten: one object per traced signature, not one per call. Kept by
    the aux tuple's identity (each executable holds its own), never by equality, under which
    True == 1 == 1.0 and one signature's fixed values would stand for another's."""
    shape = _NPR_RESULT_SHAPES.get(id(aux))
    if shape is None or shape._aux is not aux:
        shape = _NPR_RESULT_SHAPES[id(aux)] = _NprResultShape(*aux)
        shape._aux = aux  # the executable's own tuple: the next call finds it by identity
    return shape


_NPR_RESULT_SHAPES = {}  # id(aux) -> _NprResultShape
jax.tree_util.register_pytree_node(_NprResultShape, lambda s: ((), s._aux), _npr_result_shape)
