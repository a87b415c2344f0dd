"""`@np2ref.compile`: NumPy in, NumPy out, the converted ref program jitted in between."""

from __future__ import annotations

import builtins
import inspect
import linecache
import time

import numpy as np

from ..analysis import containers
from ..compare import compare_outputs, run_on_copies
from ..diagnostics import Np2RefError
from ..pipeline import ConversionResult, convert_source
from ..rewrite.pallas_loops import pallas_loops
from ..rewrite.sum_reorder import sums_mode
from ..rewrite.rules.list_items import item_params
from ..rewrite.rules.zero_d import params0_recorded
from ..policy import DtypePolicy
from ..rt import compile_api as rt  # (imports jax, keeping NumPy's global random state as it was)
from .bitwise import BITWISE_OPTIONS, with_bitwise_options  # noqa: F401 (BITWISE_OPTIONS: public)
from .choice import HOST, JIT, Choice, choose, closed_because
from .host_function import host_compiled, takes_host_route
from .hostcall import HOST_BELOW, HOST_ENV, MISS, host_allowed, host_below_of, host_call, host_key, no_fast_call, shares, signature_text  # noqa: F401 (HOST_*, shares: public)
from .refusals import host_hint, host_line, located, source_line, trace_refusal, traced_in
from .routes import HOST_EQUATIONS, estimate_or_none, program_size
from .source import ClosureScope, closure_values, refuse, source_of
from .zero_d_variant import ZeroDVariant, programs

_RUNTIME: dict | None = None


def runtime_namespace() -> dict:
    """What converted functions see besides their module's globals: jax, jnp, lax, np and the
    public helpers of np2ref.rt (the objects a converted file imports)."""
    global _RUNTIME
    if _RUNTIME is None:
        from .. import rt as package
        import jax
        import jax.numpy as jnp
        from jax import lax
        _RUNTIME = {"jax": jax, "jnp": jnp, "lax": lax, "np": np, **{n: getattr(package, n) for n in package.__all__}}
    return _RUNTIME


_MISSING = object()


class Compiled:
    """The callable returned by `np2ref.compile` (docs/design.md: the public interface)."""

    def __init__(self, fn, *, static_argnames=None, dtype_policy="preserve", verify=False,
                 in_shardings=None, out_shardings=None, mesh=None, bitwise=False, bounds="checked",
                 host_below=None, trace_budget="default", loops="xla", sums="exact"):
        self.dtype_policy, self.loops, self.sums = DtypePolicy.of(dtype_policy), loops, sums
        if bounds not in ("checked", "unchecked"):
            raise ValueError(f"bounds must be 'checked' or 'unchecked', not {bounds!r}")
        text, filename = source_of(fn)
        name = fn.__name__
        known = frozenset(fn.__code__.co_freevars)  # (kernels beside loops; sums reordered; 0-d params noted)
        with pallas_loops(loops), sums_mode(sums), params0_recorded(entry=name) as params0:
            result = convert_source(text, filename, only={name}, seeds=True, known=known)
        if name in result.host:
            error = refuse("NPR021", f"{name}() does host work ({result.host[name]}{host_line(result, name)}); it stays NumPy code",
                           fn, hint=host_hint(result, name) or "move I/O (files, print(file=)), timing and random set-up "
                           "out of the compiled function; pass the result of a call np2ref cannot see into in as an argument")
            error.host_route = takes_host_route(result, name)  # a `try` or a class: compile() runs it as convert writes it
            raise error
        result.raise_for_errors()
        if name not in result.functions:
            raise refuse("NPR020", f"{name}() is not a module-level function np2ref can find", fn)
        self.original = fn
        self.conversion: ConversionResult = result
        self.mutated: tuple[str, ...] = tuple(result.functions[name].mutated_params)
        self.verify = verify
        self._verified = False
        namespace = dict(fn.__globals__)
        if fn.__closure__:
            namespace.update(closure_values(fn))  # read again at each call (ClosureScope)
        runtime = runtime_namespace()
        namespace.update({k: v for k, v in runtime.items() if not k.startswith("__")})
        self._exec_name = f"<np2ref: {filename}>"
        linecache.cache[self._exec_name] = (len(result.exec_source), None,
                                            result.exec_source.splitlines(True), self._exec_name)
        namespace["__npr_sources__"] = {self._exec_name: result.exec_source}  # (variants read it: rt/promotion.py)
        exec(builtins.compile(result.exec_source, self._exec_name, "exec"), namespace)
        self._introspects = any(f"{name}(" in result.exec_source for name in rt.NPR_ASKING)  # (a 0-d argument)
        entry_type = runtime["NprFunction"]
        for other, facts in result.functions.items():
            namespace[other] = entry_type(namespace[other], facts.mutated_params, lists=result.lists.get(other, ()),
                                          copied=facts.copied_params, items=item_params(facts),
                                          rebound=facts.rebound_params,
                                          changed=containers.changed_param_names(facts, result.functions))
        own = namespace[name]
        self._entry = entry_type(own.fn, self.mutated, static_argnames, self.dtype_policy.name, bounds,
                                 python_scalars=name in result.plain, lists=own.lists, copied=own.copied,
                                 changed=own.changed, trace_budget=trace_budget, items=own.items, rebound=own.rebound)
        # a rebinding in the module (or the enclosing function's cells) reaches the copy
        self._entry.globals_source = ClosureScope(fn) if fn.__closure__ else fn.__globals__
        namespace[name] = self._entry  # recursion and callers inside the module use the same entry
        self._entry.asks0 = self._introspects  # (a plain function given a 0-d array: not NPR041 unless it asks)
        if params0.found.get(name):  # a 0-d argument's copy, astype, zeros_like, np.where: zero_d_variant.py
            self._entry.variant0 = ZeroDVariant(text, filename, name, known, (loops, sums), namespace,
                                                params0.found[name])
        self.in_shardings: dict = {}  # by argument name: device_put inputs for .pure with them
        if any(v is not None for v in (in_shardings, out_shardings, mesh)):
            from .sharding import ShardingPlan  # imports jax: only when asked for
            plan = ShardingPlan(fn, self.mutated, in_shardings=in_shardings,
                                out_shardings=out_shardings, mesh=mesh)
            self.in_shardings = plan.in_shardings
            self._entry.jit_options = plan.jit_options if plan.active else None
        self.bitwise = bool(bitwise)
        if self.bitwise:  # this function's compiles only: the rest of the process keeps XLA's defaults
            self._entry.jit_options = with_bitwise_options(self._entry.jit_options)
        self.__name__ = name
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        # the host route: {host_key: False (the jitted program) or the (written, other array)
        # position pairs that must not share memory}; None: every call is jitted
        self.host_below = host_below_of(host_below)
        eligible = (self.host_below > 0 and rt.npr_positional(self._entry) is not None and static_argnames is None
                    and self.dtype_policy == DtypePolicy() and bounds == "checked"
                    and all(v is None for v in (in_shardings, out_shardings, mesh)))
        self._host_routes = {} if eligible else None
        self._hosted = None if verify else self._host_routes  # after the verified first call
        self._last = (_MISSING, False)  # the last host-route signature and its route
        self._device_kind = None  # jax's default backend ("cpu", "tpu", "gpu"): asked on the first route
        self._clock = time.perf_counter  # what a measured call is timed with (choice.py); tests fake it
        self._choices = {}  # host_key: its Choice (the route, why, the times): explain()
        self._closed = None if eligible else closed_because(self.host_below, rt.npr_positional(self._entry), static_argnames,
                                                            self.dtype_policy.name, bounds, (in_shardings, out_shardings, mesh))
        self._host_fast = no_fast_call  # the last host-route signature's straight-line call
        if self._host_routes is not None:  # a class of its own: its __call__ is the last host route's
            self.__class__ = type("Compiled", (Compiled,), {"__module__": Compiled.__module__,
                                                             "__doc__": Compiled.__doc__})
        self._host_fasts = {}  # host_key: that call, for each host-route signature met
        self._estimates = {}  # host_key: routes.py's (NumPy's, the jitted call's) µs, on a CPU
        # the entry's flat jitted runs by argument types, for calls of jax.Arrays (and Python
        # floats) like one before (rt/fastpath.py); under verify=True, after the verified call
        self._fast = {} if verify else rt.npr_flat_runs(self._entry)
        self._numpy_call = self._entry if name in result.plain else self._entry.call_numpy  # (no array work: as written)
        self._types, self._moved = rt.npr_arg_types, rt.npr_globals_moved

    @property
    def source(self) -> str:
        """The converted module without its header (made when first read: most calls never do)."""
        return self.conversion.body

    def __call__(self, *args, **kwargs):
        if self._introspects and rt.npr_zero_d_args(args, kwargs):  # NumPy's type/repr of it: the original's
            return self.original(*args, **kwargs)
        try:
            return rt.npr_settled(self._call_compiled(*args, **kwargs))  # (its prints done: rt/host_words.py)
        except Exception as exc:
            if not isinstance(exc, rt.NprFirstCall):
                error = rt.npr_host_raised(exc)
                if error is None:
                    raise
                raise error from None
        # an unseen call of an object np2ref cannot see into (rt/opaque.py): the original's notes its result
        return rt.npr_first_call(self.original, args, kwargs)

    def _call_compiled(self, *args, **kwargs):
        if not kwargs:
            try:  # the last host-route signature's call (hostcall.py), or the jitted one's (numpycall.py)
                out = self._host_fast(args)
            except Exception as exc:
                self._fast_call_failed(exc, args)
            if out is not MISS:
                return out
        if self._fast and not kwargs:  # jax.Arrays: never the host route; to the flat jitted run
            flat = self._fast.get(self._types(args))
            if flat is not None and not self._moved(self._entry):
                try:
                    return flat.call(args)  # NumPy's results (rt/fastpath.py); the others: call_numpy's
                except Exception as exc:
                    return self._flat_failed(exc, flat, args, self._entry.call_numpy)
        if self._hosted is not None and not kwargs:
            key = host_key(args)
            last = self._last  # (key, route) of the last call: one tuple, so threads see a matching pair
            if key == last[0]:
                route = last[1]
            else:
                route = self._hosted.get(key, _MISSING)
                if route is _MISSING:
                    route = self._host_route(key, args)
                self._last = (key, route)
                if route is not False and type(route) is not Choice:
                    fast = self._host_fasts.get(key)
                    if fast is None:
                        fast = self._host_fasts[key] = host_call(args, route, self.original, Compiled.__call__)
                    self._use_fast(fast)
            if route is True:  # the original NumPy function: NumPy's results, exactly
                return self.original(*args)
            if type(route) is Choice:  # both routes still being timed on this signature
                return self._measured_call(key, route, args)
            if route is not False and host_allowed(route, args):  # (pairs apart, arrays C-contiguous)
                return self.original(*args)
        if self.verify and not self._verified:
            return self._verified_call(args, kwargs)
        try:  # self._call, inlined: one Python call less on a jitted or jax.Array call
            out = self._numpy_call(*args, **kwargs)
        except Exception as exc:
            refusal = self._refusal(exc, self._traced_scalars(args, kwargs))
            if refusal is None:
                raise
            raise refusal from None
        if rt.npr_numpy_runs(self._entry) and not kwargs:  # NumPy arrays jitted: straight-line from now on
            self._keep_numpy_fast(args)
        return out

    def _use_fast(self, fast):
        """Make `fast` the first thing a call tries; a host-route call with a `method`
        (hostcall.py) is this object's `__call__` itself (its class is its own: __init__)."""
        self._host_fast = fast
        if type(self) is not Compiled:  # (one made with host routes: its own class)
            type(self).__call__ = getattr(fast, "method", None) or Compiled.__call__

    def _fast_call_failed(self, exc, args):
        """An exception from _host_fast: the original NumPy function's own, as it came; the
        jitted call's (a run-time check), as _call raises it (a refusal where it is one)."""
        fast = self._host_fast
        if not (hasattr(fast, "flat") or hasattr(fast, "inner")):
            raise exc
        refusal = self._refusal(exc, self._traced_scalars(args, {}))
        if refusal is None:
            raise exc
        raise refusal from None

    def _keep_numpy_fast(self, args):
        """Make the jitted call's straight-line run for these argument types (rt/numpycall.py,
        where the entry made one) the first thing __call__ tries: as it is when every call is
        jitted; behind this signature's exact test when routes are chosen per signature."""
        fast = rt.npr_numpy_runs(self._entry).get(self._types(args))
        if fast is None:
            return
        if self._hosted is None:
            self._use_fast(fast)
            return
        key = self._last[0]
        if self._last[1] is False and key is not _MISSING and key is not None:
            kept = self._host_fasts.get(key)
            if kept is None or kept.inner is not fast:
                kept = self._host_fasts[key] = host_call(args, True, lambda *a: fast(a))
                kept.inner = fast
            self._use_fast(kept)

    def _flat_failed(self, exc, flat, args, call):
        """A flat run's exception: the general path when its trace was refused (a new result
        shape: rt/fastpath.py), else the refusal or the error itself, as _call raises them."""
        if isinstance(exc, rt.NprNotFlat):
            rt.npr_forget_flat(self._entry, flat)
            return self._call(args, {}, call)
        refusal = self._refusal(exc, self._traced_scalars(args, {}))
        if refusal is None:
            raise  # the exception being handled, as it came
        raise refusal from None

    def call_jit(self, *args, **kwargs):
        """The call through the jitted translation whatever the arguments' size (never the host
        route): what np2ref's differential checks run."""
        if self.verify and not self._verified:
            return self._verified_call(args, kwargs)
        return self._call(args, kwargs)

    def _host_route(self, key, args):
        """The route of a new signature, kept in self._hosted: False (the jitted program), the
        host route's per-call condition (True, or the pairs and positions host_allowed tests),
        or a Choice whose calls time both routes until it decides (choice.py); the Choice, with
        why, in self._choices. The call's translation is traced (not compiled), so that it
        refuses what the jitted call refuses, and routes.py estimates both routes from it."""
        if key is None or len(args) != len(rt.npr_positional(self._entry)):
            self._hosted[key] = False  # a jax.Array, a container, a keyword: the jitted call's
            return False
        try:
            jaxpr, rewrites, lanes = self._traced_for_route(args)
        except Exception as exc:  # NumPy's error: the draws NumPy made before it made (NPR023: rt/bounds.py)
            refusal = self._refusal(rt.npr_effects_made(exc), self._traced_scalars(args, {}))
            if refusal is None:
                raise
            raise refusal from None
        arrays = [i for i, a in enumerate(args) if type(a) is np.ndarray]
        written = [i for i, n in enumerate(rt.npr_positional(self._entry)) if n in self.mutated and i in arrays]
        platform = self._platform()
        both = self._estimates[key] = estimate_or_none(jaxpr, args, written, rewrites, platform, lanes)
        equations, largest, loop = program_size(jaxpr)
        small = None
        if not loop and equations <= HOST_EQUATIONS and largest < self.host_below:
            small = f"no loop, {equations} equations, every array under host_below={self.host_below} elements"
        # what the jitted route checks on every call: a written array shares no memory with
        # another argument; C-contiguous where the function reshapes (NPR206)
        host = (tuple((i, j) for i in written for j in arrays if j != i),
                tuple(i for i in written if args[i].size > 1) if rt.npr_reads_layout(self._entry) else ())
        choice = choose(signature_text(self.__name__, args), host if host != ((), ()) else True, small, both, platform)
        self._choices[key] = choice
        route = self._hosted[key] = choice.host if choice.route == HOST else False if choice.route == JIT else choice
        return route

    def _measured_call(self, key, choice, args):
        """A call of a signature whose route is being measured: the route choice.py names next,
        timed end to end (the transfers and the write-back in the jitted call's time); once
        that decides, the route is kept as a decided one is (its straight-line call next)."""
        clock = self._clock
        if choice.next_route() == HOST and host_allowed(choice.host, args):
            route, start = HOST, clock()
            out = self.original(*args)
        else:
            route, start = JIT, clock()
            out = self._call(args, {})
        if choice.record(route, clock() - start):
            self._hosted[key] = choice.host if choice.route == HOST else False
            self._last = (_MISSING, False)  # the next call looks the decision up, and keeps its fast call
        return out

    def explain(self) -> str:
        """What np2ref made of the function, in words, one line each: per loop, vectorised
        (npr_vfor) or kept a lax or Python loop and why (report/loops.py); its notes as `check`
        prints them (loops that stay Python, host calls in every iteration of a loop, graph
        breaks); which route each call signature met so far takes and why, with the estimates
        and the measured times (docs/guide.md, "Which route a call takes")."""
        from ..report.loops import loop_lines
        notes = [d for d in self.conversion.diagnostics if not d.is_error]
        lines = loop_lines(self.conversion, self.__name__)
        lines += [f"{d.filename}:{d.line}:{d.col}: {d.code} {d.message}" for d in notes] or \
            [f"{self.__name__}(): compiled whole, no host calls inside its loops"]
        return "\n".join(lines + self._kernels_explained() + self._routes_explained())

    def _kernels_explained(self) -> list[str]:
        """loops="pallas": what each traced nest became when it was traced (rt/pallas.py)."""
        if self.loops != "pallas":
            return []
        mine = {line for line, _, name, _, _ in self.conversion.loops if name == self.__name__}
        return [f"{self.conversion.filename}:{line}: when traced: {what}"
                for (file, line), what in sorted(rt.NPR_PALLAS_NOTES.items())
                if file in {n for _, n in programs(self._entry, self.conversion, self._exec_name)} and line in mine]

    def _routes_explained(self) -> list[str]:
        lines = [f"{self.__name__}: calls with jax.Arrays, .device and .pure run the jitted translation"]
        if self._closed:
            lines.append(f"calls with NumPy arrays run the jitted translation too: {self._closed}")
        elif self._hosted is None:
            lines.append("the first call is verified (verify=True) on the jitted translation; routes are chosen after it")
        elif not self._choices:
            lines.append("no call with NumPy arrays yet: each signature's route is chosen at its first call")
        return lines + [c.describe() for c in list(self._choices.values())]

    def route(self, *args) -> str | None:
        """The route a call with these arguments takes now: "host" (the original NumPy function),
        "jit" (the translation), "measuring" (both being timed), or None (a signature not met yet)."""
        key = host_key(args)
        if self._hosted is None or key is None:
            return JIT if self._closed or key is None else None
        choice = self._choices.get(key)
        if choice is None:
            return JIT if key in self._hosted else None
        return choice.route or "measuring"

    def _traced_for_route(self, args):
        """The call's jaxpr, the (traced, rewritten) programs its peepholes made while it was
        traced and the Python trips of its loops made lanes (none of either when JAX had the
        trace cached: NumPy's time is then estimated on the rewritten program alone)."""
        with rt.npr_rewrites_recorded() as rewrites, rt.npr_trips_recorded() as lanes:
            jaxpr = self._entry.trace_numpy(*args).jaxpr
        return jaxpr, rewrites, lanes

    def _platform(self) -> str:
        """JAX's default backend, where the jitted program runs ("cpu", "tpu", "gpu"); set
        `_device_kind` to try the decision for another."""
        if self._device_kind is None:
            import jax  # the runtime namespace has imported it by now
            self._device_kind = jax.default_backend()
        return self._device_kind

    def device(self, *args, **kwargs):
        """`(result, {name: final value})` for the written arguments, all `jax.Array`s, nothing
        written back: the call for arrays that stay on the device across calls (a time loop:
        `u = step.device(u, c)[1]["u"]`). jax.Array arguments are taken as they are (never
        copied, donated or changed); NumPy arrays are copied in. See docs/guide.md."""
        entry = self._entry
        if rt.npr_flat_runs(entry, device=True) and not kwargs:  # as in __call__; a written jax.Array passed twice: general
            flat = rt.npr_flat_runs(entry, device=True).get(self._types(args))
            if flat is not None and (not flat.apart or flat.admits(args)) and \
                    not self._moved(entry):
                try:
                    return rt.npr_settled(flat.call(args))
                except Exception as exc:
                    return self._flat_failed(exc, flat, args, entry.device)
        return self._call(args, kwargs, entry.device)

    def _call(self, args, kwargs, call=None):
        try:
            return (call or self._entry.call_numpy)(*args, **kwargs)
        except Exception as exc:
            refusal = self._refusal(exc, self._traced_scalars(args, kwargs))
            if refusal is None:
                raise  # NumPy's own errors (IndexError, broadcasting, casting) pass through
            raise refusal from None

    def _traced_scalars(self, args, kwargs) -> list[str]:
        """The parameters bound to a Python float or complex (defaults included) that are not in
        static_argnames: traced, like array data, so they cannot size an array."""
        try:
            bound = inspect.signature(self.original).bind(*args, **kwargs)
        except TypeError:
            return []
        bound.apply_defaults()
        static = self._entry.static_argnames or frozenset()
        return [n for n, v in bound.arguments.items() if type(v) in (float, complex) and n not in static]

    def _refusal(self, exc: Exception, traced_scalars=()) -> Np2RefError | None:
        runtime = runtime_namespace()
        conversion, exec_name = traced_in(exc, programs(self._entry, self.conversion, self._exec_name))
        if isinstance(exc, runtime["NprError"]) and not isinstance(exc, runtime["NprUnsupported"]):
            # refused at call time, or by a helper while tracing
            if source_line(exc, conversion, exec_name):  # raised by a line of the function
                return located(exc.code, exc.message, exc.hint, exc, conversion, exec_name, exc.call)
            return refuse(exc.code, exc.message, self.original, exc.hint)
        return trace_refusal(exc, conversion, exec_name, traced_scalars)

    def pure(self, *args, **kwargs):
        return self._entry.pure(*args, **kwargs)

    def lower(self, *args, **kwargs):
        return self._entry.lower(*args, **kwargs)

    def _verified_call(self, args, kwargs):
        """The first call under verify=True: the original and the translation run on copies of
        the actual inputs and are compared (the result and the final state of every array
        argument, dtypes included) before the real call writes anything back."""
        signature = inspect.signature(self.original)
        try:
            arguments = dict(signature.bind(*args, **kwargs).arguments)
        except TypeError:
            return self._call(args, kwargs)  # the call itself raises the TypeError
        expected, final_expected = run_on_copies(self.original, signature, arguments)
        try:  # the original returned, so the translation must too
            got, final_got = run_on_copies(lambda *a, **k: self._call(a, k), signature, arguments,
                                           module_of=self.original)
        except Np2RefError:
            raise
        except Exception as exc:
            raise refuse("NPR301", f"verification failed on the first call: the translation raised "
                          f"{type(exc).__name__} ({exc}) where NumPy returned", self.original,
                          hint="report this translation: np2ref computed something different from "
                          "NumPy") from None
        cmp = compare_outputs(expected, got, final_expected, final_got, arguments, self.mutated,
                              self.dtype_policy.rtol)
        if cmp.difference:
            raise refuse("NPR301", f"verification failed on the first call: {cmp.difference} "
                          f"(largest error {cmp.worst_error:.3g})", self.original,
                          hint="report this translation: np2ref computed something different from NumPy")
        self._verified = True
        if hasattr(self, "_entry"):  # (a host function's has none: host_function.py)
            self._hosted, self._fast = self._host_routes, rt.npr_flat_runs(self._entry)
        return self._call(args, kwargs)


def compile(fn=None, *, static_argnames=None, dtype_policy="preserve", verify=False,  # noqa: A001
            in_shardings=None, out_shardings=None, mesh=None, bitwise=False, bounds="checked",
            host_below=None, trace_budget="default", loops="xla", sums="exact"):
    """Decorator: translate `fn` (and the module functions it calls) into a jitted ref program.

    Returns a `Compiled` with NumPy semantics (results out, mutated arguments written back),
    `.pure`, `.source`, `.mutated` and `.lower`. `in_shardings` ({argument name: sharding}),
    `out_shardings` (of the result) and `mesh` (a Mesh, or `(mesh, {argument: axis})`: the
    leading axis of those arguments is split) pass through to `jax.jit`: see docs/scaling.md.
    `bitwise=True` compiles with XLA options that keep elementwise float arithmetic rounded as
    NumPy rounds it (no fused multiply-add, no division turned into a multiplication), so the
    result can be checked bit for bit against NumPy: see docs/semantics.md, Floating point.
    `bounds="unchecked"` drops the run-time check of integer indices known only when the
    program runs: out-of-range ones then clamp (reads) or are dropped (stores), as in JAX, where
    NumPy raises IndexError (not NumPy's semantics; see docs/semantics.md).
    `host_below` (default HOST_BELOW, or $NP2REF_HOST_BELOW): a NumPy-array call whose traced
    program has no loop, at most HOST_EQUATIONS equations and no array of `host_below`
    elements or more runs the original NumPy function; for a call of any other size both
    routes are estimated (compiled/routes.py, the transfers counted off the CPU) and, unless
    one is far the cheaper, timed on the signature's first calls, the faster kept
    (compiled/choice.py; `.explain()` says which and why); 0: every call runs the jitted
    translation (docs/guide.md, "Which route a call takes").
    `trace_budget`: the equations a first call's trace may record before it stops with NPR037,
    naming the loop or comprehension it unrolls (default NPR_TRACE_EQUATIONS, or
    $NP2REF_TRACE_BUDGET; None: no limit; $NP2REF_TRACE_SECONDS bounds the time: rt/budget.py).
    `loops="pallas"`: a top-level loop nest of element reads and writes runs as one Pallas kernel
    (rewrite/pallas_loops.py, rt/pallas.py; interpret mode off a TPU), the lax loop where it
    cannot; `.explain()` says which and why (docs/loops.md, "Sequential loops").
    `sums="reorder"`: a loop that only accumulates `R[P] += value` sums as one contraction (NOT NumPy's
    bits: docs/semantics.md, "Reordered sums"; rewrite/sum_reorder.py); `.explain()` names those loops.
    """
    def wrap(f):
        options = dict(static_argnames=static_argnames, dtype_policy=dtype_policy, verify=verify,
                       in_shardings=in_shardings, out_shardings=out_shardings, mesh=mesh, bitwise=bitwise,
                       bounds=bounds, host_below=host_below, trace_budget=trace_budget, loops=loops, sums=sums)
        try:
            return Compiled(f, **options)
        except Np2RefError as refusal:  # a function holding a `try` or using a class: host code, loops compiled
            if not getattr(refusal, "host_route", False):
                raise
            return host_compiled(f, refusal, options, Compiled)
    return wrap(fn) if fn is not None else wrap
