"""np2ref: translate mutating NumPy code into exact JAX programs built on mutable array refs.

Importing np2ref does not import jax: `compile`, `Compiled` and `BITWISE_OPTIONS` load the runtime
on first use, so the `np2ref check` / `convert` commands start without it (about 3 s of CPU each);
nor libcst: the translator (`convert_source`, `convert_file`, `verify`) loads on first use too, so
`np2ref check` answering from its cache starts in a fraction of a second.
"""

from .diagnostics import Diagnostic, Np2RefError, PythonLoopWarning
from .verify import verify  # (light: the harness loads on first use; bound here, over the subpackage's name)

__all__ = [
    "BITWISE_OPTIONS", "Compiled", "ConversionResult", "Diagnostic", "Np2RefError", "PythonLoopWarning",
    "aligned", "aligned_empty", "aligned_zeros", "compile", "convert_file", "convert_source", "grad_into",
    "plain_lowering", "verify",
]
__version__ = "0.1.0"


def __getattr__(name):
    if name in ("ConversionResult", "convert_file", "convert_source"):  # the translator imports libcst
        from . import pipeline

        globals()[name] = value = getattr(pipeline, name)
        return value
    if name in ("BITWISE_OPTIONS", "Compiled", "compile"):  # the runtime imports jax
        from .compiled import compile as runtime

        globals()[name] = value = getattr(runtime, name)
        return value
    if name == "grad_into":  # imports jax, so only when asked for
        from .compiled.grad import grad_into
        return grad_into
    if name == "plain_lowering":  # the runtime's store lowering without its peepholes
        from .rt.compile_api import npr_plain_lowering
        return npr_plain_lowering
    if name in ("aligned", "aligned_empty", "aligned_zeros"):  # np2ref.rt imports jax
        from .rt import buffers
        return getattr(buffers, "npr_" + name)
    raise AttributeError(f"module 'np2ref' has no attribute {name!r}")


def load_ipython_extension(ipython):
    """`%load_ext np2ref`: registers the `%%np2ref` cell magic (IPython is imported only here)."""
    from .magic import load_ipython_extension as load

    load(ipython)
