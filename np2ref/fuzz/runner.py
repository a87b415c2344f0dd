"""One fuzzed program through NumPy and through np2ref: exact, refused, invalid or failed.

The program (module source with `f` and `make_args`) is written to a real file and imported,
because np2ref.compile reads its source. Then:

1. NumPy runs `f(*make_args())` strictly (shadow.strict). If it raises, the compiled call must
   raise the same (raises.py: the type, the message where np2ref promises NumPy's, the arguments
   as they were), unless the program is *invalid* (a NameError: the generator's mistake) or
   *excluded* (the strict run's own FloatingPointError or warning), which nothing is checked on.
2. `np2ref.compile(f)` runs on fresh arguments. An `Np2RefError` is a *refusal* (its first
   code is recorded), provided the failed call left every argument as it was. A program whose
   f reads the clock (api_families.host_step) is host code to compile (NPR021): the converted
   module's f runs instead (converted.py: convert's graph breaks), compared as in step 3.
3. The result and every array or container argument must agree with NumPy
   (compare.first_difference, which np2ref.verify shares: the same types of containers, Python
   numbers, NumPy scalars and arrays, dtypes and shapes equal, integers and booleans exactly,
   floats to a tight tolerance with a zero's sign as NumPy's and NaN equal to NaN), a
   returned argument must be the caller's own array, and what the call prints must be what
   NumPy's run printed (what the later runs print is dropped). A second and a third call on fresh
   arguments (the per-signature plan, no new trace: the straight-line call of numpycall.py in
   its first form, then in the form that writes back inline) must agree the same way.
4. `jax.jit(jax.vmap(compiled.pure))` on a batch of two argument sets (the second perturbed)
   must give NumPy's results and final arguments for each; `.pure` must report every
   argument NumPy changed. Skipped when arguments share memory (a batch cannot keep that).

5. Where float arguments exist, `.pure`'s gradient must be exact (gradients.py): reverse mode
   agrees with forward mode on random directions (the dot-product test: <c, J t> = <J^T c, t>,
   J the Jacobian of every float output and final argument with respect to the float
   arguments), jacfwd's and jacrev's Jacobians with both, and where the program is
   differentiable at the point (float64 differences at two steps and from both sides agree),
   both modes are finite and NumPy's derivative (a NaN gradient there is a failure).

Anything else, a mismatch or an exception of any other kind, is a *failure*.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import importlib.util
import inspect
import itertools
import linecache
import os
import signal
import sys
import tempfile
import threading
from pathlib import Path

import numpy as np

import np2ref
from ..compare import first_difference
from . import converted, raises, world
from .shadow import strict
from .fission import fission_bits, fission_forced
from .gradients import check_grad
from .whole_families import FISSION_MARK
from .differences import (
    _caller_types, _compare_args, _compare_batched, _holds_text, _identity, _numpy_args, _perturb,
    _printed_difference, _same, _shares_memory)
from .verdicts import Outcome, SEED as _SEED, crash as _crash, first_line as _first_line, refused as _refused, \
    seed as _seed, x64_of as _x64_of

_counter = itertools.count()
# a line that checks what only the compiled call promises (plane_families.py's bitwise probe of
# a sum over a leading axis; under vmap the axis is not leading): no vmap check for the program
COMPILED_CALL_ONLY = "# np2ref-fuzz: compiled call only"
# on a loop header (seq_families.pallas_nest): the program is compiled with loops="pallas"
PALLAS_MARK = "# np2ref-fuzz: loops=pallas"


class ProgramTimeout(BaseException):  # not caught by the `except Exception` around each stage
    pass


class Runner:
    """Checks program sources; `vmap` turns the batched `.pure` check on or off."""

    def __init__(self, vmap: bool = True, timeout_s: float = 60.0, workdir: str | None = None,
                 grad: bool = True):
        self.vmap = vmap
        self.grad = grad
        self.timeout_s = timeout_s
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="np2ref_fuzz_"))
        world.write_lib(self.workdir)  # the sibling module the `imported` family's programs import
        # np2ref's own bug in fencing XLA's rewrites raises, as under the test suite, not a warning
        # and the program run unfenced (fuzz11: a crash there went by as 59 warnings in a run)
        os.environ.setdefault("NP2REF_STRICT_REWRITES", "1")

    def check(self, source: str) -> Outcome:
        name = f"np2ref_fuzz_{os.getpid()}_{next(_counter)}"
        path = self.workdir / f"{name}.py"
        path.write_text(source)
        try:
            module = _import(path, name)
        except SyntaxError as exc:  # a shrunk candidate that is no program (a `break` left outside its loop)
            return Outcome("invalid", "SyntaxError", "numpy", _first_line(exc))
        try:
            with _deadline(self.timeout_s), contextlib.redirect_stdout(io.StringIO()):
                return self._check(module, COMPILED_CALL_ONLY not in source)
        except ProgramTimeout:
            return Outcome("failed", "timeout", "run", f"no answer within {self.timeout_s:.0f} s")
        finally:
            sys.modules.pop(name, None)
            linecache.cache.pop(str(path), None)
            path.unlink(missing_ok=True)

    def _check(self, module, vmap: bool = True) -> Outcome:
        names = list(inspect.signature(module.f).parameters)
        try:
            args_np = _numpy_args(module.make_args())
        except Exception as exc:  # noqa: BLE001 - set-up code that fails: no program
            return Outcome("invalid", type(exc).__name__, "numpy", _first_line(exc))
        try:
            _seed()  # every run draws NumPy's global stream from the same state
            with strict(), contextlib.redirect_stdout(io.StringIO()) as shown:
                expected = module.f(*args_np)
        except Exception as exc:  # noqa: BLE001 - np2ref must raise it too, unless the program is none
            verdict = raises.numpy_verdict(exc, Path(module.__file__))
            if verdict != "compared":
                return Outcome(verdict, type(exc).__name__, "numpy", _first_line(exc))
            return raises.check_raised(module, names, exc, args_np, _compile, shown.getvalue())
        forced = FISSION_MARK in Path(module.__file__).read_text()
        try:
            compiled = _compile(module)
        except np2ref.Np2RefError as exc:
            refused = _refused(exc, "compile")
            source = Path(module.__file__).read_text()
            if converted.wants_convert(source, refused.code):  # a host loop: convert's graph breaks
                return self._check_converted(module, names, expected, args_np, shown.getvalue())
            return refused
        except Exception as exc:  # noqa: BLE001
            return _crash(exc, "compile")
        self._first_trace = ""
        with fission_forced(forced):
            outcome = self._check_compiled(module, compiled, names, expected, args_np, shown.getvalue(), vmap)
        if forced and outcome.kind == "exact":
            outcome = fission_bits(module, outcome)
        if PALLAS_MARK in Path(module.__file__).read_text() and outcome.kind == "exact":
            # what the first call's trace ran (the vmap and grad checks' traces run the lax loop)
            outcome = dataclasses.replace(outcome, kernel="kernel" if "one Pallas kernel" in self._first_trace else "lax")
        return outcome

    def _check_compiled(self, module, compiled, names, expected, args_np, shown: str, vmap: bool) -> Outcome:
        after_numpy = np.random.random()
        args_c = module.make_args()
        _seed()
        try:
            with contextlib.redirect_stdout(io.StringIO()) as printed, _x64_of(args_c):
                got = compiled(*args_c)
        except np2ref.Np2RefError as exc:
            changed = _compare_args(names, module.make_args(), args_c)
            if changed:
                return Outcome("failed", "refusal changed arguments", "call", changed)
            return _refused(exc, "call")
        except Exception as exc:  # noqa: BLE001
            return _crash(exc, "call")
        self._first_trace = compiled.explain() if PALLAS_MARK in Path(module.__file__).read_text() else ""
        diff = first_difference(expected, got, "result") \
            or _caller_types(expected, got, args_c) \
            or _identity(expected, got, args_np, args_c, names) or _compare_args(names, args_np, args_c)
        if not diff:
            diff = _printed_difference(printed.getvalue(), shown)
        if not diff and np.random.random() != after_numpy:
            diff = "NumPy's global random state: np2ref drew a different amount or order of numbers"
        if diff:
            return Outcome("failed", "mismatch", "call", diff)
        # The second call runs the plan's straight-line call (numpycall.py) in its first form,
        # the third the form that writes results back inline.
        for stage in ("second call", "third call"):
            args_again = module.make_args()
            _seed()
            try:
                with _x64_of(args_again):
                    again = compiled(*args_again)
            except Exception as exc:  # noqa: BLE001
                return _crash(exc, stage)
            diff = first_difference(expected, again, "result") \
                or _caller_types(expected, again, args_again) or _identity(expected, again, args_np, args_again, names) or _compare_args(names, args_np, args_again)
            if diff:
                return Outcome("failed", "mismatch", stage, diff)
        outcome = _check_vmap(module, compiled, names, expected, args_np) if self.vmap and vmap else Outcome("exact")
        if self.grad and outcome.kind == "exact":
            graded = check_grad(module, compiled, _trace_gap, _crash)
            if graded.kind != "exact":
                return graded
            return dataclasses.replace(outcome, graded=graded.graded)
        return outcome


    def _check_converted(self, module, names, expected, args_np, shown: str) -> Outcome:
        """The converted module's f against NumPy's run (converted.py): result, arguments, prints."""
        failed, got, args_c, printed = converted.run_converted(Path(module.__file__), _SEED, module.make_args)
        if failed and failed[:2] == ("failed", "TypeError") and _raises_on_jax_args(module):
            return Outcome("exact")  # host code writing a jax.Array it made: the original raises so too
        if failed:
            return Outcome(failed[0], failed[1], "convert", failed[2])
        diff = first_difference(expected, got, "result") \
            or _compare_args(names, args_np, args_c) or _printed_difference(printed, shown)
        return Outcome("failed", "mismatch", "convert", diff) if diff else Outcome("exact")

def _raises_on_jax_args(module) -> bool:
    """Whether the program's f handed its jax.Array arguments themselves (not NumPy's values of
    them, as NumPy's run is) raises TypeError: host code computing on a jax.Array makes jax.Arrays
    (`np.zeros(n) + j`), which JAX cannot write in place, in the original as in the converted f."""
    args = module.make_args()
    if not any(type(v).__module__.startswith("jax") for v in args):
        return False
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            module.f(*args)
    except TypeError:
        return True
    except Exception:  # noqa: BLE001
        return False
    return False


def _compile(module):
    """np2ref.compile of the program's f: with loops="pallas" where a loop header asks for it."""
    pallas = PALLAS_MARK in Path(module.__file__).read_text()
    return np2ref.compile(module.f, host_below=0, **({"loops": "pallas"} if pallas else {}))


def _import(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # np2ref.compile finds the helpers through the module
    spec.loader.exec_module(module)
    return module


# -- vmap -----------------------------------------------------------------------------------
def _check_vmap(module, compiled, names, expected0, final0) -> Outcome:
    import jax

    base = module.make_args()
    arrays = [i for i, v in enumerate(base) if isinstance(v, np.ndarray)]
    if not arrays or _shares_memory([base[i] for i in arrays]) or _holds_text(expected0):
        return Outcome("exact")  # (a str among the results, `type(Z).__name__`, is no JAX type to batch)
    variant = _numpy_args(module.make_args())
    for i in arrays:
        _perturb(variant[i])
    inputs1 = [v.copy() if isinstance(v, np.ndarray) else v for v in variant]
    try:
        _seed()  # a vmapped draw is made once for the batch: each NumPy run draws the same
        with strict():
            expected1 = module.f(*variant)  # `variant` now holds NumPy's final arguments
    except Exception:  # noqa: BLE001 - the perturbed inputs are not valid NumPy: no vmap check
        return Outcome("exact")
    floats = [i for i, v in enumerate(base) if type(v) is float]
    batch = [np.stack([base[i], inputs1[i]]) for i in arrays]

    def one(*dynamic):
        full = list(base)
        for i, v in zip(arrays + floats, dynamic):
            full[i] = v
        return compiled.pure(*full)

    try:
        _seed()
        with jax.enable_x64(True):
            in_axes = (0,) * len(arrays) + (None,) * len(floats)
            result, finals = jax.jit(jax.vmap(one, in_axes=in_axes))(*batch, *[base[i] for i in floats])
            result, finals = jax.tree_util.tree_map(np.asarray, (result, finals))
    except Exception as exc:  # noqa: BLE001
        code = _trace_gap(exc)
        if code:
            return Outcome("refused", code, "vmap", _first_line(exc))
        return _crash(exc, "vmap")
    diff = _compare_batched(expected0, expected1, result, "vmap result")
    for i in arrays:
        name = names[i]
        changed = not (_same(final0[i], base[i]) and _same(variant[i], inputs1[i]))
        if name not in finals:
            if changed:
                return Outcome("failed", "mismatch", "vmap", f".pure does not report argument `{name}`, "
                               "which NumPy changes")
            continue
        diff = diff or first_difference(np.stack([final0[i], variant[i]]), finals[name], f"vmap argument `{name}`")
    return Outcome("failed", "mismatch", "vmap", diff) if diff else Outcome("exact", vmapped=True)


def _trace_gap(exc: BaseException) -> str | None:
    """The code np2ref gives a trace-time gap (as `compiled(...)` reports it), or None."""
    if isinstance(exc, np2ref.Np2RefError):
        return exc.diagnostics[0].code if exc.diagnostics else "NPR???"
    from ..rt.compile_api import NPR_TRACE_GAPS as gaps
    if type(exc).__name__ in gaps:
        return gaps[type(exc).__name__][0]
    from ..rt.core import NprError
    return exc.code if isinstance(exc, NprError) else None


class _deadline:
    """Raise ProgramTimeout after `seconds` (main thread only; elsewhere no limit)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.active = threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGALRM")

    def __enter__(self):
        if self.active:
            self.previous = signal.signal(signal.SIGALRM, self._fire)
            # and again every second after: a signal that lands in a gc callback is swallowed
            signal.setitimer(signal.ITIMER_REAL, self.seconds, 1.0)

    def __exit__(self, *exc):
        if self.active:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)

    @staticmethod
    def _fire(signum, frame):
        raise ProgramTimeout()
