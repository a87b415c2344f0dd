"""Differential verification of translations against the original NumPy (docs/design.md: verification).

Importing np2ref does not import jax or hypothesis: `verify` loads the harness on first use.
"""

from __future__ import annotations


def verify(fn, *args, transforms=("jit", "vmap", "grad"), examples: int = 50, seed: int | None = None,
           vary_shapes: bool = False, **kwargs):
    """Check the translation of `fn` against `fn` itself on inputs generated from the example
    arguments `*args, **kwargs`, under each of `transforms` ("jit", "vmap", "grad").

    `fn` is a plain function (compiled here; `Np2RefError` is raised when np2ref refuses it)
    or an `np2ref.compile` result, whose `.original` is then the specification. `examples`
    bounds the generated inputs per transform; `seed` makes the run reproducible (None: a
    random seed, kept in the report); `vary_shapes` also moves array lengths by one.

    Returns a `VerifyReport`: per transform passed / failed / skipped / not verified, the
    worst error, the shrunk failing input, inputs tried and discarded. `report.ok` is False on
    any mismatch and whenever a requested transform compared nothing (fail closed); `print(report)`
    shows the table. The keyword names above are taken: verify a function with parameters of
    those names through `np2ref.verify.harness.run(fn, args, kwargs, ...)`."""
    from .harness import run

    return run(fn, args, kwargs, transforms=transforms, examples=examples, seed=seed,
               vary_shapes=vary_shapes)


def __getattr__(name):
    if name in ("VerifyReport", "TransformResult"):
        from . import report
        return getattr(report, name)
    raise AttributeError(name)


__all__ = ["TransformResult", "VerifyReport", "verify"]
