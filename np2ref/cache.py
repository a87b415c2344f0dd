"""A content cache for `np2ref check` and `np2ref convert`: an unchanged file is not analysed again.

Key: the SHA-256 of the file's bytes, its path (diagnostics name it), np2ref's own code (a hash
of the package's source files, so an upgrade or a local edit of np2ref never reads a stale entry),
the bytes of the sibling modules the file imports (frontend/imported.py copies their higher-order
helpers in, so an edit there changes the file's conversion), and what the command adds: `check`
caches every diagnostic of the file (the config filters them afterwards: `[tool.np2ref]`
select/ignore, `# np2ref: ignore`); `convert` caches its output and diagnostics under the config
that shapes the output (the runtime module, the dtype policy, the entry options).

Where: $NP2REF_CACHE_DIR, else $XDG_CACHE_HOME/np2ref, else ~/.cache/np2ref. Entries are JSON
files written to a temporary name and renamed into place, so concurrent runs (pre-commit in two
terminals, `--jobs` workers) never read half an entry; an unreadable entry is a miss.
NP2REF_NO_CACHE=1 (or `--no-cache`) bypasses it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

from .diagnostics import Diagnostic, Note, Span

_FORMAT = 1  # bump when the entry's layout changes


def enabled() -> bool:
    return os.environ.get("NP2REF_NO_CACHE", "") in ("", "0")


def folder() -> Path:
    if os.environ.get("NP2REF_CACHE_DIR"):
        return Path(os.environ["NP2REF_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "np2ref"


@functools.cache
def code_fingerprint() -> str:
    """A hash of np2ref's own source files: entries made by other code are never read."""
    digest = hashlib.sha256(str(_FORMAT).encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def key(path: str, data: bytes, *extra: str) -> str:
    """The entry of the file at `path` holding `data`, for the command and config `extra` names."""
    digest = hashlib.sha256(code_fingerprint().encode())
    for part in (os.fsencode(path), data, *(x.encode() for x in extra)):
        digest.update(b"%d\0" % len(part))  # (lengths first: no two lists of parts hash alike)
        digest.update(part)
    return digest.hexdigest()


def load(entry: str) -> list[Diagnostic] | None:
    """The diagnostics stored under `entry`, or None (a miss, or an entry that cannot be read)."""
    try:
        return diagnostics_of(load_json(entry))
    except (ValueError, KeyError, TypeError):
        return None


def store(entry: str, diagnostics: list[Diagnostic]) -> None:
    """Store the diagnostics under `entry` (store_json)."""
    store_json(entry, diagnostics_json(diagnostics))


def diagnostics_json(diagnostics: list[Diagnostic]) -> list[dict]:
    return [dataclasses.asdict(d) for d in diagnostics]


def diagnostics_of(items: list[dict]) -> list[Diagnostic]:
    """diagnostics_json's list read back (KeyError/TypeError when it is not one)."""
    return [_diagnostic(d) for d in items]


def load_json(entry: str):
    """The value stored under `entry`, or None (a miss, or an entry that cannot be read)."""
    try:
        return json.loads((folder() / entry[:2] / f"{entry}.json").read_text())
    except (OSError, ValueError):
        return None


def store_json(entry: str, value) -> None:
    """Store `value` under `entry`, atomically (a temporary file renamed into place: a concurrent
    reader finds the old entry, the new one or none, never half of one); a cache that cannot be
    written is skipped."""
    target = folder() / entry[:2] / f"{entry}.json"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=target.parent, delete=False, suffix=".tmp") as f:
            json.dump(value, f)
        os.replace(f.name, target)
    except OSError:
        try:
            os.unlink(f.name)
        except (OSError, UnboundLocalError):
            pass


def _span(d) -> Span | None:
    return Span(**d) if d is not None else None


def _diagnostic(d: dict) -> Diagnostic:
    notes = tuple(Note(n["message"], _span(n["span"])) for n in d["notes"])
    return Diagnostic(d["code"], d["message"], d["filename"], _span(d["span"]), d["hint"], notes, d["severity"])
