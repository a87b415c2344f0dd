"""The `np2ref` command (`python -m np2ref`, `python -m np2ref.cli`, the console script):
cli.main, then after `check` and `convert` the process ends at once (os._exit, as mypy's command
does), its output flushed. Freeing a checked module's trees and tables one object at a time at
interpreter exit cost ~0.4 s of CPU per 3,000 lines in the process that checked them (-j 1, a
file not cut, convert's one-run fallback; forked parts end with os._exit already). The commands
write their files and cache entries before main returns, and their worker pools are shut down."""

from __future__ import annotations

import contextlib
import os
import sys


def run() -> None:
    from np2ref import command_process
    from np2ref.cli import main

    if sys.argv[1:2] in (["check"], ["convert"]):
        command_process.command()  # (the command's own process: np2ref/command_process.py)
    code = main()
    if sys.argv[1:2] not in (["check"], ["convert"]):
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # (a closed pipe: `np2ref check . | head`)
            stream.flush()
    os._exit(code if isinstance(code, int) else 0 if code is None else 1)


if __name__ == "__main__":
    run()
