"""Reading and rewriting a jaxpr: the named functions through which the runtime's program
rewrites (divisions.py, peepholes.py, dots.py, fission.py, accurate64.py), its store peepholes
(lowering.py) and the host's cost model (compiled/routes.py, through compile_api.py) read JAX's
jaxpr types. With compat.py and compat_messages.py, the only modules that touch JAX internals
(tests/rt/test_jax_internals.py): an equation's primitive, parameters, operands and results, a
jaxpr's equations and variables, a variable's abstract value, a literal's value.

Each reader is one attribute of JAX's own types (jax 0.10.2 and 0.11.x: `JaxprEqn`, `Jaxpr`,
`Var`, `Literal`, a trace's equations); where a JAX release renames one, the rewrites that read
it raise AttributeError, which each catches to keep the program as traced (compat.py's table:
slower, never different).
"""

import jax

# JAX's core types (Jaxpr, ClosedJaxpr, Literal) and its evaluator; None: nothing is rewritten
try:
    from jax._src import core as _npr_core
except ImportError:  # pragma: no cover
    _npr_core = None


# ---- reading an equation, a jaxpr, a variable -----------------------------------------------

def _npr_eqns(jaxpr):
    """A Jaxpr's equations, in program order."""
    return jaxpr.eqns


def _npr_eqn_name(eqn):
    """The name of an equation's primitive (`"div"`, `"scan"`, `"swap"`): a jaxpr's equation or
    one a trace records."""
    return eqn.primitive.name


def _npr_params(eqn):
    """An equation's parameters (a dict: a loop's body, a slice's bounds, a cast's dtype)."""
    return eqn.params


def _npr_bind(eqn, *operands):
    """eqn's primitive applied, with eqn's parameters, to `operands` (traced values)."""
    return eqn.primitive.bind(*operands, **eqn.params)


def _npr_invars(node):
    """The operands of an equation, or the inputs of a Jaxpr (vars and literals)."""
    return node.invars


def _npr_outvars(node):
    """The results of an equation, or the outputs of a Jaxpr."""
    return node.outvars


def _npr_constvars(jaxpr):
    """A Jaxpr's closed-over constants' vars."""
    return jaxpr.constvars


def _npr_effects(node):
    """An equation's (or a ClosedJaxpr's) effect records: empty for a pure equation."""
    return node.effects


def _npr_aval(v):
    """The abstract value (shape, dtype, a Ref's type) of a jaxpr var, a literal or a traced
    value; None for what has none (a Python number)."""
    return getattr(v, "aval", None)


def _npr_value_aval(v):
    """The abstract value of what v holds: a Ref's value's, else v's own (None as _npr_aval)."""
    aval = _npr_aval(v)
    return getattr(aval, "inner_aval", aval)


def _npr_struct(v):
    """A jax.ShapeDtypeStruct of the value v holds (to trace a function on it with make_jaxpr)."""
    aval = _npr_value_aval(v)
    return jax.ShapeDtypeStruct(aval.shape, aval.dtype)


def _npr_literal_value(v):
    """The constant a literal operand stands for (v a literal: _npr_is_literal)."""
    return v.val


def _npr_inner_jaxprs(eqn):
    """The Jaxprs in an equation's parameters (a loop's or a call's body, cond's branches; a
    ClosedJaxpr's own Jaxpr), in parameter order: what a walk of every equation descends into."""
    found = []
    for param in eqn.params.values():
        for sub in param if isinstance(param, (tuple, list)) else (param,):
            inner = getattr(sub, "jaxpr", sub)
            if hasattr(inner, "eqns"):
                found.append(inner)
    return found


# ---- JAX's core types: rewriting a jaxpr ------------------------------------------------------

def _npr_rewritable():
    """Whether traced programs can be rewritten here (JAX's core types were found)."""
    return _npr_core is not None


def _npr_is_literal(v):
    """Whether an equation's operand is a literal (a constant written into the equation)."""
    return isinstance(v, _npr_core.Literal)


def _npr_open(p):
    """A body's Jaxpr (a ClosedJaxpr's, or p itself)."""
    return p.jaxpr if isinstance(p, _npr_core.ClosedJaxpr) else p


def _npr_replace(node, **fields):
    """An equation, Jaxpr or ClosedJaxpr with `fields` replaced (JAX's own `.replace`)."""
    return node.replace(**fields)


def _npr_run_jaxpr(jaxpr, consts, *args):
    """The values of a (rewritten) Jaxpr run on `args`, traced into the current trace."""
    return _npr_core.eval_jaxpr(jaxpr, consts, *args)


def _npr_effects_moved(eqn, old, new):
    """eqn's effects with those on its input `old` (a Ref's read, JAX's JaxprInputEffect, which
    names the jaxpr input it reads) made on `new`: an equation spliced into another jaxpr."""
    moved = set()
    for eff in eqn.effects:
        if getattr(eff, "input", None) is old:
            eff = type(eff)(new)
        moved.add(eff)
    return eqn.replace(effects=moved)


def _npr_is_body(p):
    """Whether an equation's parameter is a body (a Jaxpr or ClosedJaxpr: a loop's, a call's)."""
    return isinstance(p, (_npr_core.Jaxpr, _npr_core.ClosedJaxpr))


def _npr_body_name(p) -> str:
    """The name of the Python function a body was traced from (a scan's step: fold.py's
    `_npr_fold_step`), "" where JAX records none."""
    return getattr(getattr(_npr_open(p), "debug_info", None), "func_name", "") or ""


def _npr_holds_body(p):
    """Whether an equation's parameter is or holds a body (a tuple of them: cond's branches).
    Not _npr_is_body: divisions.py walks a tuple's bodies one by one (a tuple taken for a body
    there left a quotient that decides unfenced: a particle's cell 3 for NumPy's 2)."""
    return _npr_is_body(p) or isinstance(p, tuple) and any(_npr_is_body(q) for q in p)


def _npr_rewrite_body(p, rewrite):
    """An equation's body (a Jaxpr, a ClosedJaxpr, or a tuple of them: cond's branches) with
    `rewrite(jaxpr) -> jaxpr` applied to each jaxpr in it; p itself where every rewrite gave
    back its argument (divisions.py and peepholes.py walk loop and branch bodies with it)."""
    if isinstance(p, _npr_core.ClosedJaxpr):
        inner = rewrite(p.jaxpr)
        return p if inner is p.jaxpr else _npr_core.ClosedJaxpr(inner, p.consts)
    if isinstance(p, _npr_core.Jaxpr):
        return rewrite(p)
    if isinstance(p, tuple) and any(isinstance(q, (_npr_core.Jaxpr, _npr_core.ClosedJaxpr)) for q in p):
        q = [_npr_rewrite_body(b, rewrite) for b in p]
        if all(a is b for a, b in zip(p, q)):
            return p
        # (a named tuple keeps its type: custom_linear_solve's `jaxprs` is read as `.solve`, and a
        # plain tuple there failed np.linalg.solve on a TPU, where accurate64 rewrites every body)
        return type(p)(*q) if hasattr(p, "_fields") else tuple(q)
    return p
