"""The host route's call for one signature, as straight-line Python (np2ref.compile's hot path).

`Compiled.__call__` first tries the function made here for the last signature that took the
host route: it compares each argument with that signature in place (type, shape, dtype, the
value of a static int) and runs the original NumPy function, or answers MISS and the general
path decides (a new signature, a dtype equal but not the same object, a written array whose
memory may be another's). It does what the general path does for that route, without
building the signature's tuple or looking it up: on a 1-2 µs NumPy kernel that tuple is most
of np2ref's own time.
"""

from __future__ import annotations

import numpy as np

# not this signature (or not provably free of aliasing): the general path decides. The jitted
# route's straight-line call (rt/numpycall.py's _npr_numpy_call) answers the same object.
from ..rt.fastpath import _NPR_GENERAL as MISS  # noqa: E402
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
              f"        {names}= args\n"
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
