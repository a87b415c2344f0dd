"""np2ref.runtime: the former name of np2ref.compiled, kept only so that imports written
against it (`from np2ref.runtime.sharding import device_mesh`, in docs/scaling.md until the
rename) still work. Each submodule is np2ref.compiled's own module object, not a copy."""

import importlib as _importlib
import sys as _sys

for _name in ("choice", "compile", "grad", "hostcall", "refusals", "routes", "sharding", "source"):
    _sys.modules[f"{__name__}.{_name}"] = _module = _importlib.import_module(f"np2ref.compiled.{_name}")
    globals()[_name] = _module
