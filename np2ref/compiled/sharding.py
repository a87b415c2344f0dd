"""Shardings for `np2ref.compile`: which arguments are split over which devices.

A converted program runs on a device mesh through `jax.jit` with shardings and GSPMD: the refs
are created *inside* the jitted function from the (sharded) arguments, so XLA partitions the
loads, stores and loops and inserts the halo exchanges a stencil needs. `shard_map` is not the
route: on jax 0.10.2 a ref closed over inside `shard_map` fails (`AttributeError: 'AbstractRef'
object has no attribute 'nospec'`), and converted loops close over their refs.

    np2ref.compile(fn, mesh=mesh)                      # leading axis of every written array
    np2ref.compile(fn, mesh=(mesh, {"u": "x"}))        # leading axis of u over mesh axis "x"
    np2ref.compile(fn, in_shardings={"u": NamedSharding(mesh, P("x", None))},
                   out_shardings=NamedSharding(mesh, P()))
"""

from __future__ import annotations

import inspect

import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec, Sharding


class ShardingPlan:
    """Shardings by argument name, turned into `jax.jit` keyword arguments for each signature.

    `in_shardings`: {argument name: Sharding or PartitionSpec}. `out_shardings`: the sharding of
    every array the function returns. `mesh`: a Mesh (the leading axis of each array argument the
    function writes is split over all the mesh's devices) or `(mesh, {name: axis})`, where axis
    is a mesh axis name, a tuple of them, or a PartitionSpec. A written argument comes back with
    the sharding it went in with, as a NumPy array written in place keeps its buffer."""

    def __init__(self, fn, mutated, *, in_shardings=None, out_shardings=None, mesh=None):
        self.function = fn.__name__
        self.params = tuple(inspect.signature(fn).parameters)
        self.mesh, axes = _split_mesh(mesh)
        if axes is None and self.mesh is not None:
            every = self.mesh.axis_names if len(self.mesh.axis_names) > 1 else self.mesh.axis_names[0]
            axes = {name: every for name in mutated}
        by_name = {name: self._sharding(name, PartitionSpec(axis) if not isinstance(axis, PartitionSpec)
                                        else axis) for name, axis in (axes or {}).items()}
        if in_shardings is not None:
            if not isinstance(in_shardings, dict):
                raise TypeError("np2ref.compile: in_shardings is a dict {argument name: sharding}, "
                                f"not a {type(in_shardings).__name__}")
            by_name.update({name: self._sharding(name, s) for name, s in in_shardings.items()})
        self.in_shardings: dict[str, Sharding] = by_name
        self.out_shardings = None if out_shardings is None else self._sharding(None, out_shardings)
        self.active = bool(by_name) or out_shardings is not None

    def _sharding(self, name, value):
        if name is not None and name not in self.params:
            raise ValueError(f"np2ref.compile: {self.function}() has no argument `{name}` to shard "
                             f"(its arguments: {', '.join(self.params)})")
        if isinstance(value, Sharding):
            return value
        if isinstance(value, PartitionSpec):
            if self.mesh is None:
                raise ValueError(f"np2ref.compile: the PartitionSpec for `{name or 'the result'}` "
                                 "needs mesh= (or pass a NamedSharding)")
            return NamedSharding(self.mesh, value)
        raise TypeError(f"np2ref.compile: the sharding of `{name or 'the result'}` must be a "
                        f"jax.sharding.Sharding or PartitionSpec, not {type(value).__name__}")

    def jit_options(self, dynamic_names, written):
        """`jax.jit` keyword arguments for `run(dynamic) -> (result leaves, {written: final})`."""
        static = sorted(set(self.in_shardings) - set(dynamic_names))
        if static:
            raise ValueError(f"np2ref.compile: `{static[0]}` of {self.function}() is sharded but was "
                             "passed a static value (a Python int or bool); shard arrays only")
        ins = {name: self.in_shardings.get(name) for name in dynamic_names}
        finals = {name: self.in_shardings.get(name) for name in written}
        # run returns (result, finals, its leafless _NprResultShape, the index checks' slot)
        return {"in_shardings": (ins,), "out_shardings": (self.out_shardings, finals, None, None)}


def _split_mesh(mesh):
    if mesh is None:
        return None, None
    axes = None
    if isinstance(mesh, tuple) and len(mesh) == 2 and isinstance(mesh[1], dict):
        mesh, axes = mesh
    if not isinstance(mesh, Mesh):
        raise TypeError("np2ref.compile: mesh= takes a jax.sharding.Mesh or (mesh, {argument: axis}), "
                        f"not {type(mesh).__name__}")
    for name, axis in (axes or {}).items():
        names = axis if isinstance(axis, (tuple, PartitionSpec)) else (axis,)
        for a in names:
            for part in (a if isinstance(a, tuple) else (a,)):
                if part is not None and part not in mesh.axis_names:
                    raise ValueError(f"np2ref.compile: `{name}` is sharded over `{part}`, which is not "
                                     f"an axis of the mesh ({', '.join(mesh.axis_names)})")
    return mesh, axes


def device_mesh(axis_name: str = "x") -> Mesh:
    """A 1-D mesh over every device, with an Auto axis (GSPMD propagates shardings through the
    converted program; jax.make_mesh's default Explicit axes type every intermediate instead)."""
    devices = jax.devices()
    return jax.make_mesh((len(devices),), (axis_name,), axis_types=(jax.sharding.AxisType.Auto,))
