"""Many files at once for `np2ref check` and `np2ref convert`: the content cache (np2ref/cache.py)
first, then the files it does not hold across worker processes (`--jobs`), results in the order of
the files."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import hashlib
import multiprocessing
import os
import sys
from pathlib import Path

from . import cache, command_process
from .diagnostics import Diagnostic, DiagnosticSink
from .frontend.files import sibling_files
from .frontend.source import read_text


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def check_file(path: str, use_cache: bool = True, jobs: int = 1) -> tuple[list[Diagnostic], str | None]:
    """(every diagnostic of the file, its text or None when it cannot be read), analysed (a file
    the cache did not hold: its diagnostics are stored under the file's key when use_cache); a
    large module's independent parts in `jobs` processes at once (split.py)."""
    command_process.next_file()
    sink = DiagnosticSink(path, "")
    text = read_text(path, sink)
    if text is None:
        return sink.sorted(), None
    from . import split

    texts = split.parts(text, path, jobs)
    diagnostics = split.check_split(texts, path, jobs) if texts else None
    if diagnostics is None:
        command_process.ready()
        from .pipeline import convert_source

        diagnostics = convert_source(text, path).diagnostics
    entry = _entry(path) if use_cache else None
    if entry is not None:
        cache.store(entry, diagnostics)
    return diagnostics, text


@dataclasses.dataclass
class Converted:
    """What `np2ref convert` needs of one file, made in a worker process (no libcst tree: it is
    sent back to the parent)."""
    path: str
    source: str | None
    code: str | None  # the output, None when refused
    diagnostics: list[Diagnostic]
    ok: bool
    translated: bool  # some function was translated (else the output would be the NumPy code)


def convert_one(path: str, runtime_module: str, policy, options, use_cache: bool = False,
                sums: str = "exact", jobs: int = 1) -> Converted:
    """convert_file(path) and its output importing `runtime_module`, under the dtype policy and
    entry options of the config (ConversionResult.code_for) and its `sums` (rewrite/sum_reorder.py);
    from the cache when `use_cache` and it holds the file under this config (else stored there).
    A large module's independent parts in `jobs` processes at once (split_convert.py)."""
    config = (runtime_module, str(policy), repr(sorted(options.items())) if options else "") + \
        ((sums,) if sums != "exact" else ())
    entry = _entry(path, "convert", *config) if use_cache else None
    found = _converted_from_cache(path, entry) if entry is not None else None
    if found is not None:
        return found
    command_process.next_file()
    done = _converted_in_parts(path, runtime_module, policy, options, sums, jobs) if jobs > 1 else None
    if done is None:
        command_process.ready()
        from .pipeline import convert_file
        from .rewrite.sum_reorder import sums_mode

        with sums_mode(sums):
            result = convert_file(path)
        code = result.code_for(runtime_module, policy, options) if result.ok else None
        done = Converted(path, result.source, code, result.diagnostics, result.ok,
                         bool(set(result.functions) - set(result.plain)))
    if entry is not None and done.source is not None:  # (done: from the parts or from one run)
        cache.store_json(entry, {"code": done.code, "ok": done.ok, "translated": done.translated,
                                 "diagnostics": cache.diagnostics_json(done.diagnostics)})
    return done


def _converted_in_parts(path: str, runtime_module: str, policy, options, sums: str, jobs: int) -> Converted | None:
    """convert_one's answer from the module's parts converted at once (split_convert.py), or None."""
    text = read_text(path, DiagnosticSink(path, ""))
    if text is None:
        return None
    from .split_convert import convert_split

    joined = convert_split(text, path, jobs, runtime_module, policy, options, sums)
    if joined is None:
        return None
    return Converted(path, text, joined.code, joined.diagnostics, joined.code is not None, joined.translated)


def _converted_from_cache(path: str, entry: str) -> Converted | None:
    """convert_one's answer stored under `entry`, with the file's text read again; None on a miss."""
    found = cache.load_json(entry)
    try:
        diagnostics = cache.diagnostics_of(found["diagnostics"])
        code, ok, translated = found["code"], bool(found["ok"]), bool(found["translated"])
    except (KeyError, TypeError, ValueError):
        return None
    text = read_text(path, DiagnosticSink(path, ""))
    return Converted(path, text, code, diagnostics, ok, translated) if text is not None else None


def _from_cache(path: str) -> tuple[list[Diagnostic], str | None] | None:
    """check_file's answer from the cache (the file read and hashed once), or None."""
    entry = _entry(path)
    found = cache.load(entry) if entry is not None else None
    if found is None:
        return None
    text = read_text(path, DiagnosticSink(path, ""))
    return (found, text) if text is not None else None


def _entry(path: str, *extra: str) -> str | None:
    """The file's cache entry for `extra` (the command and its config): its key covers the bytes
    of the sibling modules it imports too (frontend/imported.py reads their helpers)."""
    try:
        data = Path(path).read_bytes()
        siblings = sibling_files(data.decode("utf-8", "replace"), path, every=True)
        return cache.key(path, data, *extra, *(f"{p}\0{hashlib.sha256(Path(p).read_bytes()).hexdigest()}" for p in siblings))
    except OSError:
        return None


def check_files(paths: list[str], jobs: int, use_cache: bool, on_file=None):
    """check_file of each path, in order; the files the cache does not hold are spread over
    `jobs` processes when there are several of them."""
    use_cache = use_cache and cache.enabled()
    results: dict[int, tuple] = {}
    todo = []
    for i, path in enumerate(paths):
        hit = _from_cache(path) if use_cache else None
        if hit is None:
            todo.append(i)
            continue
        results[i] = hit
        if on_file is not None:
            on_file(path)
    if len(todo) == 1 and jobs > 1:  # one file: its parts in parallel (split.py)
        found = check_file(paths[todo[0]], use_cache, jobs)
        if on_file is not None:
            on_file(paths[todo[0]])
        done = [found]
    else:
        done = in_order(functools.partial(check_file, use_cache=use_cache), [paths[i] for i in todo], jobs, on_file)
    results.update(zip(todo, done))
    return [results[i] for i in range(len(paths))]


def in_order(fn, paths: list[str], jobs: int, on_file=None) -> list:
    """[fn(path) for path in paths], spread over at most `jobs` processes (workers()); on_file(path)
    as each result is taken, in the order of the paths."""
    sizes = [_size(path) for path in paths]
    count = workers(jobs, sizes)
    if count > 1 and "jax" not in sys.modules:
        # (fork: the workers start at once with np2ref imported; the CLI never imports JAX, and a
        # process that did, a test or a notebook calling cli.main, runs the files one by one:
        # forking JAX's threads can hang)
        command_process.ready()  # (np2ref imported once, before the fork, not once per worker)

        context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
        with concurrent.futures.ProcessPoolExecutor(count, mp_context=context) as pool:
            # the largest files first: the workers then end together, not one of them on a large
            # file given last (results are taken in the order of the paths all the same)
            futures = {i: pool.submit(fn, paths[i]) for i in sorted(range(len(paths)), key=lambda i: -sizes[i])}
            found = []
            for i, path in enumerate(paths):
                found.append(futures[i].result())
                if on_file is not None:
                    on_file(path)
            return found
    found = []
    for path in paths:
        if on_file is not None:
            on_file(path)
        found.append(fn(path))
    return found


# Source bytes worth a worker process of their own: about 500 lines, whose analysis takes several
# times what starting a forked worker, sending its results back and joining it costs (both grow
# and shrink with the machine's speed alike). Fewer bytes than two shares: one process, no pool.
BYTES_PER_WORKER = 20_000


def workers(jobs: int, sizes: list[int]) -> int:
    """How many processes to spread files of these sizes (bytes) over: at most `jobs`, one per file
    at most, and one per BYTES_PER_WORKER of source at most (1: no pool at all)."""
    return max(1, min(jobs, len(sizes), sum(sizes) // BYTES_PER_WORKER))


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
