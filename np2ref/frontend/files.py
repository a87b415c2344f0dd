"""Which files a command reads: the paths given, and the `.py` files below the folders given.

A folder is walked for `*.py`, skipping below it: hidden folders and files (a name starting
with "."), virtual environments and installed packages (a folder holding `pyvenv.cfg` or
`conda-meta`, `site-packages`, `__pycache__`, `node_modules`), what `--exclude` / the config's
`exclude` name, and what the `.gitignore` of the walked folder or of the project root ignores.
Only the parts of a path *below* the folder given are looked at: `../src` or a project under
`~/.local` is walked like any other folder. A file named explicitly is always read.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import os
import re
import tempfile
from pathlib import Path
from typing import Iterable

MARKER = "# np2ref: converted"  # (emit/module.py's, which imports libcst: `check` from the cache never needs it)

SKIPPED_NAMES = frozenset({"site-packages", "dist-packages", "__pycache__", "node_modules"})
ENV_MARKERS = ("pyvenv.cfg", "conda-meta")


class PathError(Exception):
    """A path given on the command line that cannot be used (missing): a usage error, exit 2."""


@dataclasses.dataclass
class Walk:
    files: list[Path]
    empty_folders: list[Path]   # folders given explicitly that hold no Python file np2ref reads


def python_files(paths: Iterable[str | os.PathLike], exclude: Iterable[str] = (),
                 gitignore_roots: Iterable[Path] = ()) -> Walk:
    """The files to read, in order: each path as given, or the sorted `.py` files below it."""
    files: list[Path] = []
    empty: list[Path] = []
    patterns = tuple(exclude)
    for src in paths:
        path = Path(src)
        if not path.exists():
            raise PathError(f"{path}: no such file or folder")
        if not path.is_dir():
            files.append(path)
            continue
        ignore = Ignore.for_walk(path, gitignore_roots)
        found = sorted(_walk(path, patterns, ignore))
        if not found:
            empty.append(path)
        files += found
    return Walk(files, empty)


def _walk(root: Path, exclude: tuple[str, ...], ignore: "Ignore"):
    for folder, dirs, names in os.walk(root):
        here = Path(folder)
        rel = here.relative_to(root)
        dirs[:] = [d for d in dirs if not _skip_folder(here / d, rel / d, exclude, ignore)]
        for name in names:
            if name.endswith(".py") and not name.startswith(".") and not excluded(rel / name, exclude) \
                    and not ignore.ignored(here / name, is_dir=False):
                yield here / name


def _skip_folder(path: Path, rel: Path, exclude: tuple[str, ...], ignore: "Ignore") -> bool:
    name = path.name
    if name.startswith(".") or name in SKIPPED_NAMES or any((path / m).exists() for m in ENV_MARKERS):
        return True
    return excluded(rel, exclude) or ignore.ignored(path, is_dir=True)


def excluded(rel: Path, patterns: tuple[str, ...]) -> bool:
    """Whether a path (relative to the walked folder) matches an exclude glob: a glob without
    "/" matches any one part of the path (`build`, `*_ref.py`); one with "/" the path from the
    walked folder (`tests/data/*`, `**/legacy/*.py`)."""
    posix = rel.as_posix()
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        if "/" in pattern:
            if _glob(pattern.lstrip("/")).fullmatch(posix):
                return True
        elif any(fnmatch.fnmatchcase(part, pattern) for part in rel.parts):
            return True
    return False


@dataclasses.dataclass
class Ignore:
    """The rules of `.gitignore` files, each relative to its folder: blank lines and `#`
    comments skipped, `!` re-includes, a trailing `/` matches folders only, a `/` at the start
    or in the middle anchors the pattern to the file's folder, `*`, `?`, `[...]` and `**` as git
    reads them. The last matching rule wins. Nested `.gitignore` files below are not read."""

    rules: list[tuple[Path, re.Pattern, bool, bool]]  # (base folder, pattern, negated, folders only)

    @classmethod
    def for_walk(cls, root: Path, project_roots: Iterable[Path]) -> "Ignore":
        """The rules of the walked folder's `.gitignore` and of its parents' up to the project
        root (the first folder up holding `.git` or `pyproject.toml`), and of `project_roots`."""
        rules = []
        seen = set()
        for folder in [*project_roots, *_up_to_project_root(root.resolve()), root]:
            folder = folder.resolve()
            if folder in seen:
                continue
            seen.add(folder)
            rules += parse_gitignore(folder / ".gitignore", folder)
        return cls(rules)

    def ignored(self, path: Path, is_dir: bool) -> bool:
        if not self.rules:
            return False
        full = path.resolve()
        verdict = False
        for base, pattern, negated, dirs_only in self.rules:
            try:
                rel = full.relative_to(base).as_posix()
            except ValueError:
                continue
            if dirs_only and not is_dir:
                continue
            if pattern.fullmatch(rel):
                verdict = not negated
        return verdict


def _up_to_project_root(folder: Path) -> list[Path]:
    """`folder`'s parents up to the project root, outermost first; none when no parent is one."""
    chain = []
    for parent in folder.parents:
        chain.append(parent)
        if (parent / ".git").exists() or (parent / "pyproject.toml").is_file():
            return chain[::-1]
    return []


def parse_gitignore(path: Path, base: Path) -> list[tuple[Path, re.Pattern, bool, bool]]:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    rules = []
    for line in lines:
        line = line.rstrip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        line = line[1:] if negated else line
        dirs_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        rules.append((base, _glob(line if anchored else "**/" + line), negated, dirs_only))
    return rules


def _glob(pattern: str) -> re.Pattern:
    """A git-style glob as a regex over a relative posix path: `*` and `?` stay in one part,
    `**/` matches any number of folders, a trailing `/**` everything below."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == len(pattern):
            out.append("/.*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.find("]", i + 2)
            if end == -1:
                out.append(re.escape("["))
                i += 1
            else:
                body = pattern[i + 1:end]
                out.append("[" + ("^" + body[1:] if body[:1] == "!" else body) + "]")
                i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


# ---- writing: np2ref overwrites only what it wrote itself ---------------------------------------

STAMP = "# np2ref: sha256 "


def _digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:16]


def stamped(code: str, encoding: str) -> bytes:
    """The bytes np2ref writes: the converted text and a last line with a hash of it, by
    which np2ref later tells its own, unedited output from anything else."""
    newline = "\r\n" if "\r\n" in code else "\n"  # a CRLF source's lines came through as CRLF:
    code = code.replace("\r\n", "\n").replace("\n", newline)  # np2ref's own lines too
    body = (code if code.endswith("\n") else code + newline).encode(encoding)
    stamp = f"{STAMP}{_digest(body)} (np2ref overwrites this file only while it is unedited){newline}"
    return body + stamp.encode("ascii")


def ours(path: Path) -> bool:
    """Whether `path` is a file np2ref wrote (its `# np2ref: converted` marker at the top and
    its hash line at the end) and nobody edited since."""
    try:
        raw = path.read_bytes()
    except OSError:
        return False
    body, _, last = raw.rstrip(b"\n").rpartition(b"\n")
    body += b"\n"
    head = body[:2000].decode("utf-8", errors="replace")
    if MARKER not in head or not last.startswith(STAMP.encode()):
        return False
    return last[len(STAMP):].split(b" ")[0].decode("ascii", errors="replace") == _digest(body)


def _file_mode(path: Path) -> int:
    """The mode a written file gets: the one it has (overwritten), else 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file in the same folder, so a failure leaves nothing half-written."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, _file_mode(path))  # mkstemp makes 0600: a file of the user's, as `open` would
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


_IMPORT = re.compile(r"^(?:from[ \t]+(\w+)[ \t]+import|import[ \t]+(\w+))", re.M)
_ANY_IMPORT = re.compile(r"^[ \t]*(?:from|import)\b.*$", re.M)


def sibling_folder(filename: str) -> str | None:
    """The folder of a source file (None for `<string>`): where its sibling modules are."""
    return os.path.dirname(os.path.abspath(filename)) if filename and not filename.startswith("<") else None


def sibling_files(text: str, filename: str, every: bool = False) -> list[str]:
    """The files beside `filename` of the modules the text imports at the start of a line, sorted
    (frontend/imported.py copies helpers from them). `every`: of each word of any line that starts
    with an import, indented or not (np2ref/cache.py hashes those into the file's key: all that
    imported.py could read, and more). Here, not there: the cache runs without libcst."""
    folder = sibling_folder(filename)
    if folder is None:
        return []
    if every:
        names = {word for line in _ANY_IMPORT.findall(text) for word in re.findall(r"\w+", line)}
    else:
        names = {a or b for a, b in _IMPORT.findall(text)}
    paths = (os.path.join(folder, name + ".py") for name in names)
    return sorted(path for path in paths if os.path.isfile(path))
