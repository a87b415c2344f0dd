"""A loop's draws made in one host call before it: npr_draws, npr_site.

`for i in range(n): ... rng.normal(0.0, 0.1, size=x.shape) ... rng.random()` made one ordered
host callback per draw (npr_random), ~10x slower than NumPy. When the rewrite proved (rewrite/
rules/loop_draws.py) that every draw of the body runs once per iteration, unconditionally, with
parameters the loop does not change, and that nothing else in the body touches a generator, the
draws of the whole loop are made before it in one ordered host callback and each iteration reads
its row:

    _draws_i = npr_draws(_range_i, npr_site(rng, 'normal', 0.0, 0.1, size=x.shape), npr_site(rng, 'random'))
    def _loop_i(i, carry):
        prop = x[...] + _draws_i.take(0, i)
        u = _draws_i.take(1, i)

Exact by construction: on the host the callback makes the very calls NumPy's loop makes, in its
order (iteration by iteration, site by site, per bit generator), so the values, their types and
every generator's state afterwards are NumPy's. Where the draws of one bit generator come from
one site, it makes them in ONE NumPy call of the total size instead, but only for the (generator
kind, method, dtype) pairs of VECTORISED, each proved to give the same stream drawn one by one or
at once (tests/loops/test_loop_draws.py draws both ways on many seeds and sizes: float32 draws and
8-bit/bool integers are not, their bit buffers are local to one call). A trip count known only at
run time, a draw under vmap or differentiation, or more than NPR_DRAWS_BYTES of draws: each draw
stays its own host call (npr_random), as before.

A run-time check failing inside the loop (an index, an assert, a `raise`): NumPy stopped there,
having made only the draws before it; _NprReplay puts the generators back and makes those again.
"""

import functools

import numpy as np
import jax
from jax import lax
import jax.numpy as jnp
from jax.experimental import io_callback as _npr_io_callback

from .bounds import _npr_note_effect, npr_bounds_ok
from .core import _npr_state, npr_load, NprError
from .host_words import _npr_note_callback, _npr_wide, NprWords
from .host import (
    _npr_eager_values, _npr_generator_now, _npr_host_operands, _npr_random_shape, _npr_unless_failed,
    _NPR_RANDOM_STATEFUL, npr_py_draw, npr_random, NprMadeGenerator)
from .loops import _npr_is_concrete
from .refs import _npr_batched, _npr_differentiated
from .views import _npr_is_ref

NPR_DRAWS_BYTES = 1 << 26  # draws of one loop made in advance, at most (64 MiB on the host)
NPR_DRAWS_IN_ADVANCE = True  # False: every draw its own host call (benchmarks/loop_draws.py's "before")
NPR_DRAWS_REPLAY = True  # False: the draws taken not counted, none put back after a failed check (its "uncounted")

# method -> its parameters before `size`, Generator's and RandomState's alike; a (kind, method)
# here draws the same stream one by one as in one call of the total size (tests/loops/test_loop_draws.py)
_NPR_BEFORE_SIZE = {
    "random": (), "random_sample": (), "standard_normal": (), "standard_exponential": (),
    "normal": ("loc", "scale"), "uniform": ("low", "high"), "exponential": ("scale",),
    "integers": ("low", "high"), "randint": ("low", "high"), "poisson": ("lam",),
    "binomial": ("n", "p"), "gamma": ("shape", "scale"), "standard_gamma": ("shape",),
    "beta": ("a", "b"), "geometric": ("p",),
}
VECTORISED = frozenset(
    [("Generator", m) for m in _NPR_BEFORE_SIZE if m not in ("random_sample", "randint")]
    + [("RandomState", m) for m in _NPR_BEFORE_SIZE if m != "integers"]
    + [("RandomState", "rand"), ("RandomState", "randn")])
_NPR_KEYWORDS_OK = frozenset({"size", "endpoint"})  # others (dtype=, out=, method=): one by one


def npr_site(generator, method, *args, **kwargs):
    """One draw site of a loop, as the loop's body calls it: npr_random(generator, method, ...)."""
    return (generator, method, args, kwargs)


def npr_draws(rng, *sites):
    """The draws `sites` make over the iterations of `rng` (an NprRange), made before the loop in
    one ordered host callback (NprDraws.take reads them), or, where that cannot be done, left to
    npr_random in each iteration (see the module docstring)."""
    draws = NprDraws(rng, sites)
    static = all(_npr_is_concrete(v) for v in (rng.start, rng.stop, rng.step))
    if not (static and NPR_DRAWS_IN_ADVANCE):
        return draws
    trips = len(range(int(rng.start), int(rng.stop), int(rng.step)))
    planned = [_npr_draw_plan(*site) for site in sites]
    if trips == 0 or any(p is None for p in planned):
        return draws
    if sum(trips * p.sample.size * p.sample.dtype.itemsize for p in planned) > NPR_DRAWS_BYTES:
        return draws
    sent, received = _npr_host_operands([o for p in planned for o in p.operands.values()])
    counts = [len(p.operands) for p in planned]
    draws.replay = _NprReplay(planned, trips) if NPR_DRAWS_REPLAY and _npr_state.get("bounds") is not None else None
    noted = _npr_state.get("effects")
    at = None if noted is None else len(noted)  # (where npr_draws notes the loop's draws, below)
    rng.after = functools.partial(_npr_loop_traced, draws, planned, trips, sent, at)  # (npr_for: the loop traced)

    def run(*values):
        values = received(values)
        parts, k = [], 0
        for c in counts:
            parts.append(values[k:k + c])
            k += c
        if draws.replay is not None:
            draws.replay.save(parts)
        return _npr_draw_all(planned, parts, trips)

    _npr_note_effect(None)  # (NumPy's error while tracing the body made only some of them: _npr_loop_traced)
    shapes = [((trips,) + p.sample.shape, p.dtype) for p in planned]
    # none made after a run-time check failed before the loop (host.py); one failing in the loop:
    # the generators put back where NumPy's loop left them, after it (_NprReplay)
    run, sent = _npr_unless_failed(run, sent, lambda: tuple(np.zeros(s, dt) for s, dt in shapes))
    draws.batches = _npr_host_results(run, shapes, sent)
    draws.pytypes = [p.pytype for p in planned]
    return draws


def _npr_loop_traced(draws, planned, trips, operands, at):
    """After the loop is traced: NumPy's error raised while tracing what follows it (an index
    known then) comes after every trip's draws, which the call makes on that error, as the draws
    before it (bounds.py _npr_effects_made), where they can be made again (no operand from the
    program, the loop in the call's own trace: else the note stays None, NPR023); the draws the
    body takes are settled (_NprReplay)."""
    noted = _npr_state.get("effects")
    if at is not None and noted is not None and len(noted) > at:  # (noted[at]: the loop's, by npr_draws)
        _npr_note_effect(lambda: _npr_draw_all(planned, [[] for _ in planned], trips), operands)
        noted[at] = noted.pop()
    if draws.replay is not None:
        draws.replay.settle()


class NprDraws:
    """A loop's draws: `batches[k][j]` is site k's draw in the loop's j-th iteration (None: each
    draw is made in its iteration, by npr_random)."""

    def __init__(self, rng, sites):
        self.rng, self.sites, self.batches, self.pytypes, self.replay = rng, sites, None, None, None

    def take(self, k, i):
        """Site k's draw in the iteration whose loop value is i."""
        if self.batches is None:
            generator, method, args, kwargs = self.sites[k]
            return npr_random(generator, method, *args, **kwargs)
        if self.replay is not None:
            self.replay.taken()
        out = self.batches[k][(i - self.rng.start) // self.rng.step]
        return npr_py_draw(out, self.pytypes[k]) if self.pytypes[k] else out


class _NprDrawPlan:
    """One site's draw as npr_random plans it: its leaves, the traced ones (operands), a sample
    (shape, dtype) and the Python type NumPy returns (float for `rng.random()`), or None."""

    def __init__(self, generator, method, leaves, tree, operands, drawn):
        self.generator, self.method, self.leaves, self.tree, self.operands = generator, method, leaves, tree, operands
        self.sample = np.asarray(drawn)
        self.dtype = jax.dtypes.canonicalize_dtype(self.sample.dtype)
        self.pytype = {int: "int", float: "float"}.get(type(drawn))

    def call(self, values, gen):
        """(gen's method, args, kwargs) with the operands' host values in their places."""
        return (getattr(gen, self.method), *_npr_host_args(self.leaves, self.tree, self.operands, values))


def _npr_host_args(leaves, tree, operands, values):
    host = list(leaves)
    for i, v in zip(operands, values):
        host[i] = np.asarray(v)
    return jax.tree_util.tree_unflatten(tree, host)


def _npr_draw_plan(generator, method, args, kwargs):
    """_NprDrawPlan of a site that can be drawn in advance, else None (npr_random decides: host
    code run eagerly, vmap, differentiation, complex values, a stateful method)."""
    if method in _NPR_RANDOM_STATEFUL or not isinstance(generator, (np.random.Generator, np.random.RandomState,
                                                                     NprMadeGenerator)) and generator is not np.random:
        return None
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs))
    leaves = [npr_load(leaf) if _npr_is_ref(leaf) else leaf for leaf in leaves]
    if _npr_eager_values(leaves):
        return None
    operands = {i: jax.numpy.asarray(leaf) for i, leaf in enumerate(leaves) if isinstance(leaf, jax.Array)}
    ops = list(operands.values())
    if _npr_differentiated(ops) or _npr_batched(ops):
        return None
    def host_call(values, draw):
        a, k = _npr_host_args(leaves, tree, operands, values)
        return draw(*a, **k)
    try:
        drawn = _npr_random_shape(generator, method, host_call, ops)
    except NprError:
        return None
    if np.asarray(drawn).dtype.kind not in "biuf":
        return None
    return _NprDrawPlan(generator, method, leaves, tree, operands, drawn)


def _npr_draw_all(planned, parts, trips):
    """On the host: every site's draws over `trips` iterations, in NumPy's order per bit
    generator (sites of different bit generators draw from independent streams)."""
    calls = [p.call(v, _npr_generator_now(p.generator)) for p, v in zip(planned, parts)]
    out = [None] * len(planned)
    for group in _npr_by_bit_generator([fn for fn, _, _ in calls]):
        if len(group) == 1 and _npr_vectorised(planned[group[0]], calls[group[0]]):
            k = group[0]
            out[k] = _npr_in_one_call(planned[k], calls[k], trips)
            continue
        rows = {k: [] for k in group}
        for _ in range(trips):
            for k in group:
                fn, a, kw = calls[k]
                rows[k].append(np.asarray(fn(*a, **kw)))
        for k in group:
            out[k] = np.stack(rows[k]) if rows[k] else np.zeros((0,) + planned[k].sample.shape)
    return [np.asarray(o, dtype=p.dtype) for o, p in zip(out, planned)]


def _npr_by_bit_generator(fns):
    """The sites' indices grouped by the bit generator their draws consume (two Generators, or
    a RandomState and a Generator, may share one); one group when one cannot be named."""
    groups: dict = {}
    for k, fn in enumerate(fns):
        owner = getattr(fn, "__self__", None)
        bit = getattr(owner, "bit_generator", None) if isinstance(owner, np.random.Generator) else \
            getattr(owner, "_bit_generator", None)
        if bit is None:
            return [list(range(len(fns)))]
        groups.setdefault(id(bit), []).append(k)
    return list(groups.values())


def _npr_vectorised(plan, call):
    """Whether the site's draws over the loop are one NumPy call of the total size: its (kind,
    method) proved so (VECTORISED), scalar parameters only (no broadcasting order to match), no
    keyword that changes the bits a value takes (dtype=, out=)."""
    fn, a, kw = call
    kind = "Generator" if isinstance(fn.__self__, np.random.Generator) else "RandomState"
    if (kind, plan.method) not in VECTORISED or not set(kw) <= _NPR_KEYWORDS_OK:
        return False
    if plan.method in ("rand", "randn"):
        return not kw and all(isinstance(v, (int, np.integer)) for v in a)
    names = _NPR_BEFORE_SIZE[plan.method]
    if len(a) > len(names) + 1:
        return False
    return all(np.ndim(v) == 0 for v in list(a[:len(names)]) + [v for k, v in kw.items() if k != "size"])


def _npr_in_one_call(plan, call, trips):
    """The site's draws over `trips` iterations as one call of size (trips,) + one draw's shape."""
    fn, a, kw = call
    shape = (trips,) + plan.sample.shape
    if plan.method in ("rand", "randn"):
        return fn(*shape)
    names = _NPR_BEFORE_SIZE[plan.method]
    kw = dict(kw, **dict(zip(names, a[:len(names)])), size=shape)
    return fn(**kw)


def _npr_host_results(run, shapes, operands):
    """An ordered io_callback of run(*operands) -> arrays of `shapes` ((shape, dtype) pairs),
    64-bit ones crossing as words (host_words.py says why)."""
    wide = [_npr_wide(dt) for _, dt in shapes]
    words = NprWords()
    specs = [words.spec(s, dt) if w else jax.ShapeDtypeStruct(s, dt) for (s, dt), w in zip(shapes, wide)]

    def as_words(*values):
        return tuple(words.returned(v, s, dt) if w else v for v, (s, dt), w in zip(run(*values), shapes, wide))
    _npr_note_callback()
    out = _npr_io_callback(as_words, tuple(specs), *operands, ordered=True)
    return [words.take(o, dt) if w else o for o, (_, dt), w in zip(out, shapes, wide)]


class _NprReplay:
    """A loop's draws made in advance when a run-time check fails in it: NumPy's loop stopped at
    the failing statement, having made the draws of the trips before it and those of the failing
    trip before the check; the host call made every trip's. Counted in the program: each draw the
    body takes while no check has failed (`made`, one scalar Ref update a draw). After the loop,
    where a check failed in it, the host puts every generator the loop draws from back where it
    was before the draws (their states saved by the host call) and makes the first `made` draws
    again, the very calls NumPy's loop made in its order: exact for every draw the advance makes.
    (One record per traced loop: two threads running the same compiled function at once, each
    failing a check in it, would share it.)"""

    def __init__(self, planned, trips):
        self.planned, self.trips, self.saved = planned, trips, None
        self.made = jax.new_ref(jnp.zeros((), jnp.int32))
        self.ok = npr_bounds_ok()  # no check failed before the loop: the host call made its draws

    def save(self, parts):
        """On the host, before the draws: the generators' states and the sites' parameters."""
        gens = {id(g): g for g in (_npr_generator_now(p.generator) for p in self.planned)}
        self.saved = ([(g, _npr_generator_state(g)) for g in gens.values()], parts)

    def taken(self):
        """A draw the body takes (traced): counted while no check has failed."""
        self.made[...] = self.made[...] + jnp.asarray(npr_bounds_ok(), jnp.int32)

    def settle(self):
        """After the loop (traced): the draws NumPy made, made again, where a check failed in it."""
        failed = self.ok & ~jnp.asarray(npr_bounds_ok())
        _npr_note_callback()
        lax.cond(failed, lambda m: _npr_io_callback(self.replayed, None, m, ordered=True), lambda m: None,
                 self.made[...])

    def replayed(self, made):
        """On the host: the generators as NumPy's loop left them after its first `made` draws."""
        made, states, parts = int(made), *self.saved
        if made == self.trips * len(self.planned):
            return  # (the check failed after the loop's last draw: every draw was NumPy's)
        for g, state in states:
            _npr_generator_state(g, state)
        calls = [p.call(v, _npr_generator_now(p.generator)) for p, v in zip(self.planned, parts)]
        for n in range(made):
            fn, a, kw = calls[n % len(calls)]
            fn(*a, **kw)


def _npr_generator_state(g, state=None):
    """The state of g (a Generator, a RandomState or NumPy's global one: `np.random`), or set it
    to `state`. A RandomState's includes its cached normal (legacy Box-Muller pairs)."""
    if isinstance(g, np.random.Generator):
        if state is None:
            return g.bit_generator.state
        g.bit_generator.state = state
    elif state is None:
        return g.get_state(legacy=False)
    else:
        g.set_state(state)
