"""The host route's call for one signature, as straight-line Python (np2ref.compile's hot path).

`Compiled.__call__` first tries the function made here for the last signature that took the
host route: it compares each argument with that signature in place (type, shape, dtype, the
value of a static int) and runs the original NumPy function, or answers MISS and the general
path decides (a new signature, a dtype equal but not the same object, a written array whose
bounds overlap another's). It does what the general path does for that route, without
building the signature's tuple or looking it up: on a 1-2 µs NumPy kernel that tuple is most
of np2ref's own time.
"""

from __future__ import annotations

import numpy as np

# not this signature (or not provably free of aliasing): the general path decides. The jitted
# route's straight-line call (rt/numpycall.py's _npr_numpy_call) answers the same object.
from ..rt.fastpath import _NPR_GENERAL as MISS  # noqa: E402
_STATIC = (int, bool, str, type(None))


def host_call(args, route, original):
    """A function of the argument tuple that calls `original` when the arguments have the
    signature of `args` (whose host route is `route`: True, or the (written, other) position
    pairs that must not share memory and the written positions that must be C-contiguous),
    and returns MISS otherwise."""
    values = {"_original": original, "_ndarray": np.ndarray, "MISS": MISS, "_may_share": np.may_share_memory}
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
    if route is not True:
        pairs, contiguous = route
        for i, j in pairs:  # distinct owners never share; views whose bounds are apart neither
            tests.append(f"(a{i}.base is None and a{j}.base is None and a{i} is not a{j} "
                         f"or not _may_share(a{i}, a{j}))")
        tests.extend(f"a{i}.flags.c_contiguous" for i in contiguous)
    names = "".join(f"a{i}, " for i in range(len(args)))
    source = ("def call(args):\n"
              f"    if len(args) == {len(args)}:\n"
              f"        {names}= args\n"
              f"        if {' and '.join(tests) or 'True'}:\n"
              f"            return _original({names})\n"
              "    return MISS\n")
    exec(compile(source, "<np2ref host route>", "exec"), values)
    return values["call"]
