"""The host route's calls: what a call's signature is (host_key), whether a written array may
share another's memory (shares), host_below's default, and the call for one signature as
straight-line Python (host_call: np2ref.compile's hot path).

`Compiled.__call__` first tries the function made here for the last signature that took the
host route: it compares each argument with that signature in place (type, shape, dtype, the
value of a static int) and runs the original NumPy function, or answers MISS and the general
path decides (a new signature, a dtype equal but not the same object, a written array whose
memory may be another's). It does what the general path does for that route, without
building the signature's tuple or looking it up: on a 1-2 µs NumPy kernel that tuple is most
of np2ref's own time.
"""

from __future__ import annotations

import os

import numpy as np

# not this signature (or not provably free of aliasing): the general path decides. The jitted
# route's straight-line call (rt/numpycall.py's _npr_numpy_call) answers the same object.
from ..rt.compile_api import NPR_GENERAL as MISS

_STATIC = (int, bool, str, type(None))
_NO = object()  # an argument the call left out (the method's defaults)


def host_call(args, route, original, general=None):
    """A function of the argument tuple that calls `original` when the arguments have the
    signature of `args` (whose host route is `route`: True, or the (written, other) position
    pairs that must not share memory and the written positions that must be C-contiguous),
    and returns MISS otherwise. With `general` (Compiled's own __call__), the function has a
    `method`: the same test as a `__call__` of the arguments themselves (no tuple made, no
    second call), `general(self, *args, **kwargs)` when they are not this signature."""
    values = {"_original": original, "_ndarray": np.ndarray, "MISS": MISS, "_may_share": np.may_share_memory,
              "_general": general, "_NO": _NO}
    tests = []
    for i, a in enumerate(args):
        kind = type(a)
        values[f"T{i}"] = kind
        tests.append(f"type(a{i}) is T{i}")
        if kind is np.ndarray:
            values[f"S{i}"], values[f"D{i}"] = a.shape, a.dtype
            tests.append(f"a{i}.dtype is D{i} and a{i}.shape == S{i}")
        elif kind in _STATIC:
            values[f"V{i}"] = a
            tests.append(f"a{i} == V{i}")
    owners, apart = [], []
    if route is not True:
        pairs, contiguous = route
        for i in sorted({k for pair in pairs for k in pair}):  # the array that owns each one's memory
            owners.append(f"o{i} = a{i} if a{i}.base is None else a{i}.base")
        for i, j in pairs:  # distinct owners of their memory never share; views whose bounds are apart neither
            apart.append(f"(o{i} is not o{j} and type(o{i}) is _ndarray and type(o{j}) is _ndarray "
                         f"and o{i}.base is None and o{j}.base is None or not _may_share(a{i}, a{j}))")
        apart.extend(f"a{i}.flags.c_contiguous" for i in contiguous)
    names = "".join(f"a{i}, " for i in range(len(args)))
    test = " and ".join(tests) or "True"
    checked = ("".join(f"{{pad}}{line}\n" for line in owners)
               + (f"{{pad}}if {' and '.join(apart)}:\n    " if apart else "")
               + f"{{pad}}return _original({names})\n")
    source = ("def call(args):\n"
              f"    if len(args) == {len(args)}:\n"
              f"        ({names}) = args\n"  # `() = args` for a call with none
              f"        if {test}:\n"
              + checked.format(pad=" " * 12)
              + "    return MISS\n")
    if general is not None:  # a type test fails on _NO: an argument left out is not this signature
        source += (f"def method(self, {''.join(f'a{i}=_NO, ' for i in range(len(args)))}*rest, **kwargs):\n"
                   f"    if {test} and not rest and not kwargs:\n"
                   + checked.format(pad=" " * 8)
                   + f"    return _general(self, *[a for a in ({names}) if a is not _NO], *rest, **kwargs)\n")
    exec(compile(source, "<np2ref host route>", "exec"), values)
    call = values["call"]
    call.method = values.get("method")
    return call


# The host route (docs/guide.md, "Which route a call takes"): a NumPy-array call whose traced
# program has no loop, at most HOST_EQUATIONS equations and no array of HOST_BELOW elements or
# more runs the original NumPy function instead of the jitted one; any other's route is
# estimated (routes.py) and, where that is not clear, timed on its first calls (choice.py). Measured on a 2-core CPU VM
# (benchmarks/host_dispatch.py): a jitted call's dispatch is 5-7 µs at 10 elements and
# 20-50 µs at 1,000 (XLA:CPU splits elementwise loops across threads), NumPy's about 1 µs per
# operation up to a few thousand elements.
HOST_BELOW = 16384
HOST_ENV = "NP2REF_HOST_BELOW"  # an int: the default host_below (0: always the jitted program)


def host_below_of(value) -> int:
    if value is None:
        value = os.environ.get(HOST_ENV, HOST_BELOW)
    try:
        below = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"host_below (or ${HOST_ENV}) must be an int, not {value!r}") from None
    if below < 0:
        raise ValueError(f"host_below must be >= 0, not {below}")
    return below


# host_key's scalars: keyed by type (traced values) or by type and value (static ones)
_BY_TYPE = frozenset({float, complex, np.float64, np.float32, np.float16, np.int64, np.int32, np.int16,
                      np.int8, np.uint64, np.uint32, np.uint16, np.uint8, np.bool_, np.complex128,
                      np.complex64})
_BY_VALUE = frozenset({int, bool, str, type(None)})
_NDARRAY = np.ndarray


def host_key(args):
    """A call's signature for the host route, flat: each NumPy array's shape and dtype, each
    Python or NumPy scalar's type (traced: its value does not change the program), each int,
    bool, str or None's type and value (static); None when an argument is anything else (a
    jax.Array, a container, an ndarray subclass: the jitted route decides)."""
    key = []
    for a in args:
        kind = type(a)
        if kind is _NDARRAY:
            key.append(a.shape)
            key.append(a.dtype)
        elif kind in _BY_TYPE:
            key.append(kind)
        elif kind in _BY_VALUE:
            key.append(kind)
            key.append(a)
        else:
            return None
    return tuple(key)


def no_fast_call(args):
    return MISS


def shares(a, b):
    """np.shares_memory, after two cheaper tests: arrays in the memory of two distinct arrays
    that own theirs (each itself, or its base) never share, and np.may_share_memory's bounds
    test rules out most other pairs."""
    owner_a = a if a.base is None else a.base
    owner_b = b if b.base is None else b.base
    if owner_a is not owner_b and type(owner_a) is _NDARRAY and type(owner_b) is _NDARRAY and \
            owner_a.base is None and owner_b.base is None:
        return False
    return np.may_share_memory(a, b) and np.shares_memory(a, b)


def host_allowed(route, args) -> bool:
    """Whether a call may take the host route `route` (True, or the (written, other) position
    pairs that must not share memory and the written positions that must be C-contiguous):
    where not, the jitted call runs and refuses the call as it refuses it on that route."""
    if route is True:
        return True
    pairs, contiguous = route
    return not any(shares(args[i], args[j]) for i, j in pairs) and all(args[i].flags.c_contiguous for i in contiguous)


def signature_text(name: str, args) -> str:
    """`name(float64[200,220], float, 3)`: a call's signature as host_key tells them apart."""
    parts = []
    for a in args:
        if type(a) is _NDARRAY:
            parts.append(f"{a.dtype}[{','.join(map(str, a.shape))}]")
        elif type(a) in _BY_VALUE:
            parts.append(repr(a))
        else:
            parts.append(type(a).__name__)
    return f"{name}({', '.join(parts)})"
