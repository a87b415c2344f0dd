"""`np2ref convert --standalone`: the runtime package np2ref.rt copied beside the output.

The copy is np2ref/rt's modules as they are, their relative imports kept, in a package named
np2ref_rt: it imports only jax, numpy and the standard library, and is what `from np2ref_rt
import ...` in a standalone converted file reads. A marker file in it says np2ref wrote it, so a
later conversion refreshes the copy but never writes over a package of the user's.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

from . import RUNTIME_PACKAGE, STANDALONE_MODULE

FOLDER = STANDALONE_MODULE
MARKER = "NP2REF_RUNTIME"


def is_runtime(folder: Path) -> bool:
    """Whether `folder` is a runtime package np2ref wrote (its marker file is there)."""
    return (folder / MARKER).is_file()


def files() -> dict[str, bytes]:
    """The package's files by name: every module of np2ref/rt, then the marker (written last, so
    a copy cut short is not taken for a complete one)."""
    out = {path.name: path.read_bytes() for path in sorted(RUNTIME_PACKAGE.glob("*.py"))}
    try:
        version = importlib.metadata.version("np2ref")
    except importlib.metadata.PackageNotFoundError:
        version = "(source tree)"
    out[MARKER] = (f"np2ref {version}: np2ref's runtime (np2ref.rt), written by `np2ref convert "
                   "--standalone`. Generated: edit np2ref/rt/ instead.\n").encode()
    return out
