"""What became of each loop (`np2ref check --explain-loops`, `Compiled.explain()`): vectorised into
whole-array lane operations (npr_vfor, rewrite/lanes.py), an ordered fold (npr_fold_for,
rewrite/ordered_fold.py), kept a lax loop or a Python loop, and why.

    path.py:13:5: syrk(): `for i`: vectorised: npr_vfor (the iterations are independent)
    path.py:15:9: syrk(): `for k`: an ordered fold: npr_fold_for, the += into C as one chain of additions ...
    path.py:96:9: cholesky(): `for j`: a lax loop: `A[i, :j]` beside `A[i, j]`, the element or block an
        iteration owns: another iteration's element or block may be read or written there
"""

from __future__ import annotations


def loop_lines(result, function: str | None = None) -> list[str]:
    """One line per loop of a ConversionResult (of `function` only, when given), in source order."""
    return [f"{result.filename}:{line}:{col}: {name}(): " + (f"`for {var}`" if var else "`while`") + f": {verdict}"
            for line, col, name, var, verdict in result.loops if function is None or name == function]


def loop_json(result) -> list[dict]:
    return [dict(filename=result.filename, line=line, col=col, function=name, variable=var, verdict=verdict,
                 vectorised=verdict.startswith("vectorised"), folded=verdict.startswith("an ordered fold"))
            for line, col, name, var, verdict in result.loops]
