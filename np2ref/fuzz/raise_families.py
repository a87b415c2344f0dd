"""A family for run-time checks on array data (fuzz10), with its own arguments and weight 0 in other
runs (the programs of existing seeds stay as they were):

    raise_loop  `if <array data>: raise ValueError("...")` and `assert <array data>, "msg"` (a
                RuntimeError, an ArithmeticError, an IndexError of the program's own, a message
                formatting the loop variable, `and` of two tests, no message; Python's
                ZeroDivisionError of `1.0 / float(U[j])`, `k // int(U[j])`) inside loops whose trip
                count or condition depends on data (`for` over a static or a data-dependent range,
                `while` with a data test, an early `break` on data, a nest of element loops, a
                helper that checks its argument), with writes to the arrays before and after the
                check and sometimes a print before it (rt/raises.py, rules/asserts.py). The
                family's own statements run on the shadow, so they pass their checks; a last loop
                (most programs, not run on the shadow) is chosen by running candidates, so that
                NumPy raises on it in about half the programs drawn and not in the others: np2ref
                must raise NumPy's exception, message included, print what NumPy printed first and
                leave the arguments as they were (runner.py, raises.py).

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from pathlib import Path

from . import edges
from .exprs import Gen
from .host_families import define
from .program import Block, Line, Param, Stmt
from .raises import numpy_verdict
from .reach_families import _have
from .shadow import Frame, run


def raise_params(g: Gen, ns: dict) -> list[Param]:
    m = g.int(3, 6)
    dtype = g.pick(["np.float64", "np.float64", "np.float32", "np.int64", "np.int32"])
    return [Param("U", edges.literal(g, dtype, (m,), 0)), Param("V", edges.literal(g, "np.float64", (m,), 0)),
            Param("n", str(g.int(0, 5))), Param("lim", g.pick(["1.0", "2.0", "0.5", "3.0", "1.5"]))]


# the check: (the `if` test or None for an assert, the raise or the assert's test and message);
# {j} an index of U and V that moves with the loop variable {k}
_RAISES = [("U[{j}] > {c}", "raise ValueError('U above the limit')"),
           ("U.sum() > {c} * 2", "raise RuntimeError(f'diverged at step {{{k}}}')"),
           ("(U < -{c}).any()", "raise ArithmeticError('U below the limit')"),
           ("np.abs(V).max() >= {c} * 2", "raise ValueError(f'V too large at {{{k}}}')"),
           ("U[{j}] < 0 and V[{j}] > 0", "raise ValueError('signs differ')"),
           ("{k} > 0 and U[{j}] == U[{j} - 1]", "raise IndexError('a repeated value')"),
           ("not np.isfinite(V).all()", "raise OverflowError('V blew up')"),
           ("V[{j}] * U[{j}] > {c}", "raise RuntimeError('product above the limit')")]
_ASSERTS = ["assert U.max() <= {c} * 2, 'U out of range'", "assert U[{j}] != 0, f'zero at step {{{k}}}'",
            "assert np.all(V > -{c})", "assert U.sum() < {c} + {k}, 'the sum grew'",
            "assert V[{j}] <= U.max(), f'V above U at {{{k}}}'", "assert not (U[{j}] < -1 and V[{j}] < -1), 'both low'"]
_LIMITS = ["lim", "lim", "lim", "lim * 0.5", "0.25", "(lim + 1)"]  # {c}: tight ones raise more often
_STEPS = ["U[{j}] += {one}", "U -= {one}", "V[{j}] = U.sum()", "V[{j}] += U[{j}]", "V *= 0.5",
          "U[{j}] = V[{j}] * 2", "V[-1] -= {k} * 0.25", "U[1:] += U[:-1]", "V[...] = V[::-1] + 0.25",
          "U[{j}] = -U[{j}]", "V[{j}] = 1.0 / float(U[{j}])", "V[{j}] += {k} // int(U[{j}])"]  # (Python's
# ZeroDivisionError where the element is 0)
_BREAKS = ["U[{j}] < -lim", "V.sum() > lim * 3", "U.max() < 0", "{k} >= 1 and V[{j}] == 0"]
_TRIPS = ["n", "n", "U.shape[0]", "3", "int(V[0] > 0) + 2", "int(np.count_nonzero(U > 0))", "0"]


def _check(g: Gen, k: str, j: str, helper: str | None) -> Stmt:
    c = g.pick(_LIMITS)
    if helper and g.chance(30):
        return Line(f"{helper}({g.pick(['U', 'V', 'U[1:]'])}, {c})")
    if g.chance(40):
        return Line(g.pick(_ASSERTS).format(k=k, j=j, c=c))
    test, stmt = g.pick(_RAISES)
    return Block(f"if {test.format(k=k, j=j, c=c)}:", (Line(stmt.format(k=k, j=j)),))


def _checker(g: Gen, fr: Frame, helpers) -> str:
    """A helper that checks its argument against a limit: an assert or an `if ...: raise`."""
    test = g.pick(["x.max() > c", "(x < -c).any()", "x.sum() > c * 3"])
    body = (Line(f"assert not ({test}), 'x fails its check'"),) if g.chance(40) else \
        (Block(f"if {test}:", (Line(f"raise ValueError('x fails {test}')"),)),)
    return define(g, fr, helpers, ("x", "c"), body, None)


def checked_loop(g: Gen, fr: Frame, helper: str | None = None) -> list[Stmt]:
    """A loop with a check among writes before and after it, maybe an early `break` on data."""
    k = g.name("k")
    j = f"{k} % U.shape[0]"
    one = "1" if fr.ns["U"].dtype.kind in "iu" else g.pick(["0.5", "0.25", "1.0"])

    def steps(count: int) -> list[Stmt]:
        return [Line(g.pick(_STEPS).format(k=k, j=j, one=one)) for _ in range(count)]
    body = steps(g.int(1, 2)) + [_check(g, k, j, helper)] + steps(g.int(0, 2))
    if g.chance(20):  # printed before the check: NumPy's lines must come first (raises.py)
        body.insert(g.int(0, 1), Line(f"print({k}, {g.pick(['U.sum()', 'V[{j}]', 'float(U.max())']).format(j=j)})"))
    if g.chance(30):
        body.insert(g.int(0, len(body)), Block(f"if {g.pick(_BREAKS).format(k=k, j=j)}:", (Line("break"),)))
    form = g.pick(["for", "for", "while", "nest"])
    if form == "while":  # the data test, and a bound that ends it whatever the data
        test = g.pick(["U.sum() < lim * 4", "V.max() > -lim", "np.any(U != 0)"])
        return [Line(f"{k} = 0"), Block(f"while {k} < {g.pick(['n', '3', 'U.shape[0]'])} and {test}:",
                                        tuple(body) + (Line(f"{k} += 1"),), (f"{k} = 0",))]
    loop = Block(f"for {k} in range({g.pick(_TRIPS)}):", tuple(body), (f"{k} = 0",))
    if form == "nest":  # the check in an inner element loop
        i = g.name("i")
        inner = _check(g, i, i, None)
        loop = Block(f"for {k} in range({g.pick(['n', '2'])}):", tuple(steps(1)) + (
            Block(f"for {i} in range(U.shape[0]):", (Line(f"U[{i}] += {one}"), inner)),), (f"{k} = 0",))
    lines: list[Stmt] = [loop]
    if g.chance(40):
        lines.insert(0, Line(g.pick(["V[0] = lim", "U[0] = U[-1]", f"V += {one}"])))
    return lines


def raise_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "U", "V", "n", "lim"):
        return None
    helper = _checker(g, fr, helpers) if g.chance(25) else None
    return checked_loop(g, fr, helper), ()


def raise_tail(g: Gen, fr: Frame, body: tuple, ret):
    """A last checked loop, not run on the shadow, which NumPy's run raises on in about half the
    programs: candidates are run on a replay of the program and one of the outcome drawn is kept."""
    if not _have(fr, "U", "V", "n", "lim"):
        return body, ret
    want = not g.chance(45)  # (hypothesis's first draws favour False: raising then)
    helper = next((n for n, fn in fr.shared.items() if _is_checker(fn)), None)
    kept = None
    for _ in range(12):
        lines = checked_loop(g, fr, helper) + [Line(g.pick(["V[0] = U.sum()", "U[-1] = V[0]", "V *= 2"]))]
        outcome = _raises(fr, lines)
        if outcome is None:
            continue
        kept = lines
        if outcome == want:
            break
    return (body + tuple(kept), ret) if kept else (body, ret)


def _is_checker(fn) -> bool:
    """One of _checker's helpers (its message starts `x fails`), not another family's."""
    consts = fn.__code__.co_consts if hasattr(fn, "__code__") else ()
    return any(isinstance(c, str) and c.startswith("x fails") for c in consts)


def _raises(fr: Frame, lines: list[Stmt]) -> bool | None:
    """Whether NumPy raises running `lines` after the program so far; None for no test (raises.py)."""
    ns = fr.fresh()
    ns.update(fr.shared)
    try:
        run(lines, ns)
    except Exception as exc:  # noqa: BLE001
        return True if numpy_verdict(exc, Path("<shadow>")) == "compared" else None
    return False


def raise_tail_ret(g: Gen, fr: Frame, body: tuple, ret):
    body, ret = raise_tail(g, fr, body, ret)
    return body, g.pick(["U", "(U, V)", "V.sum()", "U[0]", ret])


# weight 0: it needs its own arguments (PARAMS), which only `--family NAME` gives a program
FAMILIES = {"raise_loop": (raise_loop, 0)}
PARAMS = {"raise_loop": raise_params}
TAILS = {"raise_loop": raise_tail_ret}
TAIL_CHANCE = {"raise_loop": 85}
