"""`np2ref verify FILE.py::FUNC`: run the original and the translation on the same inputs."""

from __future__ import annotations

import copy
import importlib.util
import inspect
import sys
from pathlib import Path

import numpy as np

from ..diagnostics import Np2RefError
from .compare import first_difference


def load_target(spec: str):
    path, _, name = spec.partition("::")
    if not name:
        raise ValueError(f"expected FILE.py::NAME, got {spec!r}")
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"{path}: no such file")
    mod_name = f"_np2ref_verify_{abs(hash(file.resolve()))}"
    module_spec = importlib.util.spec_from_file_location(mod_name, file)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[mod_name] = module
    module_spec.loader.exec_module(module)
    if not hasattr(module, name):
        raise ValueError(f"{path} has no function {name}")
    return module, getattr(module, name)


def example_arguments(module, example_spec: str | None, rng: np.random.Generator):
    if example_spec:
        _, make = load_target(example_spec)
    elif hasattr(module, "make_inputs"):
        make = module.make_inputs
    else:
        raise ValueError("give --example FILE.py::CALLABLE (the module has no make_inputs)")
    params = inspect.signature(make).parameters
    value = make(rng) if len(params) == 1 and "size" not in params else make()
    if isinstance(value, dict):
        return (), value
    return tuple(value), {}


def check_jit(fn, compiled, args, kwargs) -> str | None:
    """First difference between the original and the compiled function (result and arguments)."""
    a0, k0 = copy.deepcopy((args, kwargs))
    a1, k1 = copy.deepcopy((args, kwargs))
    expected = fn(*a0, **k0)
    got = compiled(*a1, **k1)
    diff = first_difference(expected, got, "result")
    if diff:
        return diff
    before = inspect.signature(fn).bind(*a0, **k0).arguments
    after = inspect.signature(fn).bind(*a1, **k1).arguments
    for name, value in before.items():
        if isinstance(value, np.ndarray):
            diff = first_difference(value, after[name], f"argument `{name}`")
            if diff:
                return diff
    return None


def run_verify(args) -> int:
    from ..runtime.compile import compile as np2ref_compile

    try:
        module, fn = load_target(args.target)
        compiled = np2ref_compile(fn)
    except Np2RefError as exc:
        print(exc, file=sys.stderr)
        return 1
    except (ValueError, OSError, SyntaxError) as exc:
        print(f"np2ref: error: {exc}", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    rows = []
    failures = 0
    for transform in [t.strip() for t in args.transforms.split(",") if t.strip()]:
        if transform != "jit":
            rows.append((transform, "skipped", "not implemented yet in this version"))
            continue
        tried = 0
        diff = None
        for _ in range(max(1, args.examples)):
            a, k = example_arguments(module, args.example, rng)
            tried += 1
            diff = check_jit(fn, compiled, a, k)
            if diff:
                break
        if diff:
            failures += 1
            rows.append(("jit", "MISMATCH", diff))
        else:
            rows.append(("jit", "ok", f"{tried} inputs agree (results and every array argument)"))
    width = max(len(r[0]) for r in rows)
    for t, status, detail in rows:
        print(f"{t:<{width}}  {status:<9} {detail}")
    return 1 if failures else 0
