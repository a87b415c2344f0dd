"""What the `np2ref check` and `np2ref convert` commands change in their own process for speed
(issue 43): set on by np2ref/__main__.run, the command's entry, and applied once the translator
is imported (`ready()`, called by batch.py and split.py before they convert or fork workers).
A process that imports np2ref as a library (np2ref.compile, a test, a notebook calling cli.main)
is left as it is.

- **libcst's isinstance without ABCMeta's Python call.** libcst's node classes are ABCs, so an
  `isinstance(node, cst.Name)` that fails (most do: the analyses and rules ask of every node
  whether it is one of a few kinds) runs `ABCMeta.__instancecheck__`, a Python function, and its
  subclass walk: 1.6 M such calls in a check of corpus/, a tenth of its CPU. Their metaclass is
  swapped for a subclass of ABCMeta whose checks are `type`'s own (C, no Python frame). The
  answers are the same wherever no class of libcst's node tree has a virtual subclass
  (`register`) or a `__subclasshook__`: that is checked for every class before anything is
  swapped, and nothing is swapped if one has (tests/pipeline/test_command_process.py compares
  every pair of classes both ways).
- **The collector between files**: a collection in the middle of a file walks its live trees too;
  between files they are freed already, and what is left young is the last file's cyclic
  garbage. So before each file after the first (`next_file()`) the young generation is
  collected: a check of corpus/ spent 0.13 s in the collector instead of 0.29 s.
- **The collector leaves the imported modules alone** (`gc.freeze()`, after the import, before
  the workers fork): their objects (libcst's, NumPy's, the translator's tables) are never garbage,
  yet every full collection walked them, and in a forked worker touched their pages, copying
  them from the parent.
"""

from __future__ import annotations

import abc
import gc

_on = False  # set by command(): this process is the `check`/`convert` command's
_done = False
_files = 0  # the files this process has started to analyse (a forked worker counts on from its parent's)


def command() -> None:
    """This process runs the `check` or `convert` command (np2ref/__main__.run): the collector
    made to run as rarely as in a conversion (pipeline._fewer_collections) from here on, the
    translator's import too (a collection every 700 allocations was 70 of them in the import)."""
    global _on
    _on = True
    gc.set_threshold(200_000, 30, 30)


def ready() -> None:
    """The translator imported; in the command's process, the changes above made (once)."""
    global _done
    from . import pipeline  # noqa: F401  (imported before anything is frozen or forked)

    if not _on or _done:
        return
    _done = True
    plain_type_checks()
    gc.freeze()


def next_file() -> None:
    """A file is about to be analysed: in the command's process, the previous one's garbage
    collected first (none before the first: a single file's run ends with os._exit)."""
    global _files
    if _on and _files:
        gc.collect(0)
    _files += 1


class _PlainChecks(abc.ABCMeta):
    """ABCMeta whose instance and subclass checks are `type`'s: the class's MRO, no registry."""
    __instancecheck__ = type.__instancecheck__
    __subclasscheck__ = type.__subclasscheck__


def node_classes() -> list[type]:
    """libcst's CSTNode and every class below it (those imported so far)."""
    from libcst._nodes.base import CSTNode

    found, todo = [CSTNode], [CSTNode]
    while todo:
        for sub in type.__subclasses__(todo.pop()):
            if sub not in found:
                found.append(sub)
                todo.append(sub)
    return found


def plain_type_checks() -> bool:
    """libcst's node classes given _PlainChecks as their metaclass, when that cannot change an
    answer (no class holds a registered virtual subclass or defines `__subclasshook__`, and
    Python's ABCs are the C ones whose registry `abc._get_dump` reads); whether they were."""
    classes = node_classes()
    if not hasattr(abc, "_get_dump"):
        return False
    for cls in classes:
        if type(cls) not in (abc.ABCMeta, _PlainChecks) or abc._get_dump(cls)[0] \
                or "__subclasshook__" in vars(cls):
            return False
    try:
        for cls in classes:
            cls.__class__ = _PlainChecks
    except TypeError:  # (an interpreter that does not allow it: put back what was swapped)
        for cls in classes:
            if type(cls) is _PlainChecks:
                cls.__class__ = abc.ABCMeta
        return False
    return True
