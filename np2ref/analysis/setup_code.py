"""Refusals that need not refuse a whole file: set-up code that stays NumPy host code.

`convert` translates a module whole; one refused construct used to refuse every function of it.
A function whose refusal is found while its body is planned (an untranslated NumPy function,
`np.linalg.eig` in a `stationary(P)` helper only `__main__` calls, NPR004) and that writes no
array is set-up or reporting code: it stays NumPy as written (NPR021, a note naming the refusal),
the rest of the file converts, and whatever calls it is host code too, as for any host function
(analysis/module.py). Exact: the kept function is the user's own NumPy code, run by NumPy; a
converted function it calls takes and writes back NumPy arrays as from any host code.

A function that writes an array keeps its refusal (it is the work np2ref was asked to compile;
`convert --partial` keeps it NumPy on request), and so does one that such a function calls,
directly or through others (kept NumPy, it would make the kernel host code too, silently), and
every function `np2ref.compile` is given (`only=`): it asked for that function.
"""

from __future__ import annotations


def refused_setup(facts, sink, called: set[str]) -> dict[str, str]:
    """The converted functions holding an error of `sink` that the module calls, that write no
    array and that no function writing an array reaches by its calls, each with why it stays
    host code (analyse_module's `refused`: the first error)."""
    errors = sorted((d for d in sink.items if d.is_error), key=lambda d: (d.line, d.col))
    reached = _reached(facts.functions, [n for n, f in facts.functions.items() if _writes(f)])
    found = {}
    for name, f in facts.functions.items():
        if name not in called or name in reached:
            continue
        r = facts.positions[f.node]
        first = next((d for d in errors if r.start.line <= d.line <= r.end.line), None)
        if first is not None:
            found[name] = f"has {first.code} on line {first.line} ({first.message})"
    return found


def _writes(f) -> bool:
    return bool(f.writes or f.mutated_params)


def _reached(functions, roots) -> set[str]:
    """`roots` and every converted function they call, directly or through others."""
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name not in seen and name in functions:
            seen.add(name)
            todo += [callee for _, callee in functions[name].calls]
    return seen
