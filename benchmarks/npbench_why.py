"""What each kernel of benchmarks/npbench_style.py compiles to, np2ref's `.pure` beside the hand
port (issue 39, item 1: why a gap exists):

    python benchmarks/npbench_why.py [NAME,...]

Per side: the jaxpr's equations; the XLA:CPU program's while loops, the instructions in their
bodies (one trip's work, parameters and tuples left out) and the bytes those write a trip; the
entry computation's instructions and bytes written; dots and fusions in the whole program
(benchmarks/loop_shapes.py reads the HLO the same way). No timing: npbench_style.py times them.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import npbench_style as NB  # noqa: E402
from loop_shapes import hlo_loops, program_bytes  # noqa: E402

import np2ref  # noqa: E402


def row(name, side, fn, args):
    static = tuple(k for k, x in enumerate(args) if isinstance(x, int))
    eqns = str(jax.make_jaxpr(fn, static_argnums=static)(*args)).count(" = ")
    text = jax.jit(fn, static_argnums=static).lower(*args).compile().as_text()
    loops, ops, written = hlo_loops(text)
    entry_ops, entry_bytes = program_bytes(text)
    return (f"| {name} | {side} | {eqns} | {loops} | {ops} | {written} | {entry_ops} | {entry_bytes} | "
            f"{len(re.findall(' dot[(]', text))} | {len(re.findall(' fusion[(]', text))} |")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    names = argv[0].split(",") if argv else NB.NAMES
    print("| kernel | side | jaxpr equations | while loops | instructions a trip | bytes written a trip | "
          "entry instructions | entry bytes | dots | fusions |\n|---|---|---|---|---|---|---|---|---|---|")
    with jax.enable_x64(True):
        for name in names:
            args = NB.inputs(name, np.random.default_rng(0))
            print(row(name, "np2ref", np2ref.compile(getattr(NB, name)).pure, args), flush=True)
            print(row(name, "hand", getattr(NB, "hand_" + name), args), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
