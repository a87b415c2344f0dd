"""The graph-break scripts of breaks6 (benchmarks/graph_break_scripts/, small scripts in the
patterns scripts break on: prints, seeds and draws beside a loop, histories read back, views
helpers return, cell-list gathers, while-loop histories) through np2ref.compile against NumPy:
results, every argument, dtypes and the printed text (rtol 1e-9; `--exact`: bit for bit, compiled with bitwise=True).

    python benchmarks/graph_break_scripts/compare.py [--exact] benchmarks/graph_break_scripts/own_*.py
    python benchmarks/graph_breaks.py --run benchmarks/graph_break_scripts   (the census)
"""
import contextlib
import copy
import importlib.util
import inspect
import io
import os
import sys
import warnings

os.environ["NP2REF_HOST_BELOW"] = "0"
import numpy as np  # noqa: E402
import np2ref  # noqa: E402

EXACT = "--exact" in sys.argv


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def same(a, b) -> bool:
    """Equal values, dtypes, shapes and scalar types (a Generator: the same state)."""
    if isinstance(a, np.random.Generator):
        return isinstance(b, np.random.Generator) and a.bit_generator.state == b.bit_generator.state
    if isinstance(a, (tuple, list)):
        return type(a) == type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if EXACT:
            return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
        return a.dtype == b.dtype and a.shape == b.shape and np.allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True)
    if EXACT:
        return type(a) == type(b) and repr(a) == repr(b)
    return type(a) == type(b) and (a == b or np.allclose(a, b, rtol=1e-9))


def one(path):
    sys.path.insert(0, os.path.dirname(path))
    m = load(path)
    checks = getattr(m, "CHECKS", None) or {m.ENTRY: lambda: m.make_inputs("small")}
    out = []
    for name, make in checks.items():
        fn = getattr(m, name.split("#")[0])
        inp = make()
        args, kwargs = (inp, {}) if isinstance(inp, tuple) else ((), inp)
        a0, a1 = copy.deepcopy((args, kwargs)), copy.deepcopy((args, kwargs))
        with contextlib.redirect_stdout(io.StringIO()) as want_out:
            want = fn(*a0[0], **a0[1])
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()) as got_out:
                warnings.simplefilter("ignore")
                got = np2ref.compile(fn, host_below=0, **({"bitwise": True} if EXACT else {}))(*a1[0], **a1[1])
        except Exception as e:
            code = getattr(e, "code", None) or "/".join(d.code for d in getattr(e, "diagnostics", ()))
            out.append(f"{name}: refused {code or type(e).__name__}")
            continue
        b0 = inspect.signature(fn).bind(*a0[0], **a0[1]).arguments
        b1 = inspect.signature(fn).bind(*a1[0], **a1[1]).arguments
        ok = same(want, got) and all(same(b0[k], b1[k]) for k in b0)
        printed = "same print" if want_out.getvalue() == got_out.getvalue() else "print differs"
        out.append(f"{name}: {'exact' if ok else 'WRONG'} ({printed})")
    return out

for p in [a for a in sys.argv[1:] if a != "--exact"]:
    try:
        print(os.path.basename(p), "|", "; ".join(one(p)), flush=True)
    except Exception as e:
        print(os.path.basename(p), "| CRASH", type(e).__name__, str(e)[:200], flush=True)
