"""`np2ref verify FILE.py::FUNC`: load the function and its example, verify, print the table.

Exit codes: 0 verified; 1 a mismatch, a transform that compared nothing, or np2ref refused the
function (its diagnostics are printed); 2 a usage error (no such file or function, a bad
example). Never a traceback.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
import zlib
from pathlib import Path

import numpy as np

from ..diagnostics import Np2RefError

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


def load_module(path: str):
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"{path}: no such file")
    mod_name = f"_np2ref_verify_{file.stem}_{zlib.crc32(str(file.resolve()).encode()):08x}"
    if mod_name in sys.modules:
        return sys.modules[mod_name]
    module_spec = importlib.util.spec_from_file_location(mod_name, file)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[mod_name] = module  # np2ref.compile reads the module's source through it
    sys.path.insert(0, str(file.resolve().parent))
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[mod_name]
        raise UsageError(f"{path}: importing it raised {type(exc).__name__}: {exc}") from None
    finally:
        sys.path.remove(str(file.resolve().parent))
    return module


def load_target(spec: str, default_module=None):
    """(module, object) for FILE.py::NAME (or NAME alone, looked up in `default_module`)."""
    path, sep, name = spec.rpartition("::")
    if not sep:
        if default_module is None:
            raise UsageError(f"expected FILE.py::NAME, got {spec!r}")
        module, name = default_module, spec
    else:
        module = load_module(path)
    if not name or not hasattr(module, name):
        raise UsageError(f"{path or module.__file__} has no function {name!r}")
    obj = getattr(module, name)
    if not callable(obj):
        raise UsageError(f"{name} in {path or module.__file__} is not callable")
    return module, obj


def example_arguments(module, example_spec: str | None, seed: int) -> tuple[tuple, dict]:
    """The example's (args, kwargs): from --example (given a Generator when it takes one
    parameter), else from the module's make_inputs("small")."""
    if example_spec:
        _, make = load_target(example_spec, module)
        params = [p for p in inspect.signature(make).parameters.values()
                  if p.default is inspect.Parameter.empty
                  and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        call = (lambda: make(np.random.default_rng(seed))) if len(params) == 1 else make
    elif hasattr(module, "make_inputs"):
        call = lambda: module.make_inputs("small")  # noqa: E731
    else:
        raise UsageError("give --example FILE.py::CALLABLE (the module has no make_inputs)")
    try:
        value = call()
    except Exception as exc:
        raise UsageError(f"the example raised {type(exc).__name__}: {exc}") from None
    if isinstance(value, dict):
        return (), value
    if isinstance(value, (tuple, list)):
        return tuple(value), {}
    raise UsageError(f"the example must return a tuple of arguments or a dict of keyword "
                     f"arguments, not {type(value).__name__}")


def run_verify(args) -> int:
    from ..compiled.compile import compile as np2ref_compile
    from .harness import CHECKS, run

    transforms = tuple(t.strip() for t in args.transforms.split(",") if t.strip())
    unknown = [t for t in transforms if t not in CHECKS]
    try:
        if unknown or not transforms:
            raise UsageError(f"--transforms takes a comma-separated list of {', '.join(CHECKS)}")
        if args.examples < 1:
            raise UsageError("--examples must be at least 1")
        module, fn = load_target(args.target)
        call_args, call_kwargs = example_arguments(module, args.example, args.seed)
    except UsageError as exc:
        print(f"np2ref: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        compiled = np2ref_compile(fn, host_below=0)
        report = run(compiled, call_args, call_kwargs, transforms=transforms, examples=args.examples,
                     seed=args.seed, vary_shapes=args.vary_shapes)
    except Np2RefError as exc:
        print(exc, file=sys.stderr)
        print(f"np2ref: {args.target} was not verified: np2ref refuses it", file=sys.stderr)
        return EXIT_ERROR
    except Exception as exc:  # the function or the harness failed in an unexpected way
        print(f"np2ref: verify stopped: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    report.function = args.target
    print(report)
    return EXIT_OK if report.ok else EXIT_ERROR
