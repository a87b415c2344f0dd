"""np2ref.compile of a function that stays NumPy host code for a `try` or a module class (NPR021):
the function runs as `np2ref convert` writes it, on the host, its loops before, after and around
the `try` (or the class's objects) compiled as `convert` compiles them (frontend/host_loops.py,
host_steps.py, carried_attrs.py). The `try` runs as NumPy runs it: nothing inside it, and no
function it reaches that writes arrays, is compiled (analysis/host_code.try_reached), so NumPy's
state at every exception it catches is NumPy's. An error raised in a compiled loop leaves that
loop's arguments as they were before it (docs/semantics.md, "State after the error"), as
np2ref.compile's whole program does.

What is executed: the converted module's imports and its functions (the classes, constants and
module-level statements are the user's module's own, read again at every call, so a class is the
user's class and a rebinding reaches the call). Refused, with the NPR021 the function had: a
module that does not convert whole (a refusal elsewhere in it), a function of it that rebinds a
module-level name (`global`: the copy would rebind its own), and the options of a jitted call
(static_argnames, shardings); `.pure`, `.device` and `.lower` (no one program to give)."""

from __future__ import annotations

import ast
import builtins
import linecache

from ..analysis.host_code import CLASS_USE, TRY_REASON
from ..diagnostics import Np2RefError
from ..pipeline import convert_source
from ..policy import DtypePolicy
from ..rewrite.pallas_loops import pallas_loops
from ..rewrite.sum_reorder import sums_mode
from .bitwise import with_bitwise_options
from .source import ClosureScope, closure_values, refuse

_MISSING = object()


def takes_host_route(result, name: str) -> bool:
    """Whether `name()` stays host code for a `try` or a module class (its culprits, host_lines):
    the function np2ref.compile runs as `convert` writes it. Other host work (a clock, a logger,
    a file) keeps its refusal and the rewrite its hint gives."""
    culprits = result.host_lines.get(name, ())
    return any(why == TRY_REASON or CLASS_USE in why for _, _, why in culprits)


def host_compiled(fn, refusal: Np2RefError, options: dict, base: type):
    """The Compiled (a subclass of `base`) that runs `fn` as host code with its loops compiled,
    or `refusal` raised where that is not exact (the module's `convert` is refused, a function
    rebinds a module-level name, an option of the jitted call)."""
    asked = [k for k in ("static_argnames", "in_shardings", "out_shardings", "mesh") if options.get(k) is not None]
    if asked:
        raise _with_note(refusal, f"{', '.join(asked)} name{'s' if len(asked) == 1 else ''} one jitted program; "
                         f"{fn.__name__}() runs on the host, its loops compiled") from None
    from .source import source_of
    text, filename = source_of(fn)
    policy = DtypePolicy.of(options.get("dtype_policy", "preserve"))
    with pallas_loops(options.get("loops", "xla")), sums_mode(options.get("sums", "exact")):
        result = convert_source(text, filename, only={fn.__name__}, known=frozenset(fn.__code__.co_freevars),
                                policy=policy, host_lifts=True)
    if not result.ok or fn.__name__ not in result.host:
        raise _with_note(refusal, "a function it calls is refused (np2ref.compile of it names why)") from None
    tree = ast.parse(result.code)
    kept = [s for s in tree.body if isinstance(s, ast.FunctionDef)
            or (isinstance(s, (ast.Import, ast.ImportFrom)) and getattr(s, "level", 0) == 0)]
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) for s in _reached(kept, fn.__name__) for n in ast.walk(s)):
        raise _with_note(refusal, "it, or a function it calls, rebinds a module-level name (`global`)") from None
    cls = type("Compiled", (base,), {"__module__": base.__module__, "__doc__": base.__doc__,
                                     "__init__": HostFunction.__init__, **HostFunction.methods()})
    return cls(fn, result, kept, options)


def _reached(kept: list, name: str) -> list:
    """The functions of `kept` that `name()` calls, or names, through the names it reads (itself too)."""
    defs = {s.name: s for s in kept if isinstance(s, ast.FunctionDef)}
    found, todo = {}, [name]
    while todo:
        n = todo.pop()
        if n in defs and n not in found:
            found[n] = defs[n]
            todo += [m.id for m in ast.walk(defs[n]) if isinstance(m, ast.Name)]
    return list(found.values())


def _with_note(refusal: Np2RefError, why: str) -> Np2RefError:
    d = refusal.diagnostics[0]
    hint = f"{d.hint}; np2ref.compile runs such a function with its loops compiled, but here {why}"
    return Np2RefError([type(d)(d.code, d.message, d.filename, d.span, hint)], refusal.source)


class HostFunction:
    """The methods of np2ref.compile's object for a host function (mixed into a Compiled subclass:
    `isinstance(c, np2ref.Compiled)` holds, `_verified_call` is Compiled's)."""

    def __init__(self, fn, result, kept, options):
        name = fn.__name__
        self.original, self.conversion, self.__name__ = fn, result, name
        self.__doc__, self.__wrapped__ = fn.__doc__, fn
        self.dtype_policy = DtypePolicy.of(options.get("dtype_policy", "preserve"))
        self.loops, self.sums = options.get("loops", "xla"), options.get("sums", "exact")
        self.verify, self._verified, self.bitwise = options.get("verify", False), False, bool(options.get("bitwise"))
        self.mutated = ()  # (not known of host code: verify compares every array argument)
        for stmt in kept:
            if isinstance(stmt, ast.FunctionDef) and stmt.name == name:
                stmt.decorator_list = []  # (@np2ref.compile itself, where the user wrote it)
        source = ast.unparse(ast.Module(kept, []))
        self._exec_name = f"<np2ref host: {result.filename}>"
        linecache.cache[self._exec_name] = (len(source), None, source.splitlines(True), self._exec_name)
        self._scope = ClosureScope(fn) if fn.__closure__ else fn.__globals__
        namespace = dict(fn.__globals__)
        if fn.__closure__:
            namespace.update(closure_values(fn))
        exec(builtins.compile(source, self._exec_name, "exec"), namespace)
        own = {s.name for s in kept if isinstance(s, ast.FunctionDef)}
        # the module's names the functions read, taken again at every call: its classes, constants
        self._reads = sorted(_names_read(namespace, own) - own)
        self._namespace, self._fn = namespace, namespace[name]
        compiled = [n for n in sorted(own) if hasattr(namespace[n], "jit_options")]
        # the compiled functions the host function calls itself (its loops, steps, helpers)
        self.compiled_loops = tuple(n for n in compiled if n in _names_read(namespace, {name}))
        for n in compiled:
            entry = namespace[n]
            entry.globals_source = self._scope
            entry.bounds = options.get("bounds", "checked")
            entry.trace_budget = options.get("trace_budget", "default")
            if self.bitwise:
                entry.jit_options = with_bitwise_options(entry.jit_options)

    @staticmethod
    def methods() -> dict:
        """What the subclass takes from this class: every method but __init__ and this one."""
        return {k: v for k, v in vars(HostFunction).items() if callable(v) and k not in ("__init__", "methods")}

    def __call__(self, *args, **kwargs):
        if self.verify and not self._verified:
            return self._verified_call(args, kwargs)
        return self._call(args, kwargs)

    def call_jit(self, *args, **kwargs):
        return self(*args, **kwargs)

    def _call(self, args, kwargs, call=None):
        namespace, scope = self._namespace, self._scope
        for name in self._reads:  # (the module's values now: a rebinding since reaches the call)
            value = scope.get(name, _MISSING)
            if value is not _MISSING:
                namespace[name] = value
        from ..rt import compile_api as rt
        try:
            return rt.npr_settled(self._fn(*args, **kwargs))
        except rt.NprError as exc:  # a compiled loop's refusal at run time: the coded diagnostic
            raise refuse(exc.code, exc.message, self.original, exc.hint) from None

    def pure(self, *args, **kwargs):
        raise self._no_program(".pure")

    def device(self, *args, **kwargs):
        raise self._no_program(".device")

    def lower(self, *args, **kwargs):
        raise self._no_program(".lower")

    def _no_program(self, what: str) -> Np2RefError:
        why = self.conversion.host[self.__name__]
        return refuse("NPR021", f"{self.__name__}() stays NumPy host code (it {why}): there is no one "
                      f"program for {what}; its loops are compiled each on its own", self.original,
                      hint="move the `try` (or the object) to the caller and compile the function it calls")

    def route(self, *args) -> str:
        return "host"

    def explain(self) -> str:
        notes = [f"{d.filename}:{d.line}:{d.col}: {d.code} {d.message}" for d in self.conversion.diagnostics
                 if not d.is_error]
        loops = ", ".join(f"{n}()" for n in self.compiled_loops) or "none"
        return "\n".join([f"{self.__name__}(): runs on the host as `np2ref convert` writes it "
                          f"(it {self.conversion.host[self.__name__]}); compiled: {loops}", *notes])


def _names_read(namespace: dict, own: set) -> set:
    """The global names the executed functions' code reads (their nested code's too)."""
    found, todo = set(), [namespace[n] for n in own]
    codes = []
    for obj in todo:
        fn = getattr(obj, "fn", obj)  # an NprFunction's own function
        code = getattr(fn, "__code__", None)
        if code is not None:
            codes.append(code)
    while codes:
        code = codes.pop()
        found.update(code.co_names)
        codes += [c for c in code.co_consts if hasattr(c, "co_names")]
    return found
