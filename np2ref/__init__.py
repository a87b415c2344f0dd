"""np2ref: translate mutating NumPy code into exact JAX programs built on mutable array refs."""

from .diagnostics import Diagnostic, Np2RefError
from .pipeline import ConversionResult, convert_file, convert_source
from .runtime.compile import Compiled, compile
from .verify import verify

__all__ = [
    "Compiled", "ConversionResult", "Diagnostic", "Np2RefError", "compile", "convert_file",
    "convert_source", "verify",
]
__version__ = "0.1.0"
