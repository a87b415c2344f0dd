"""Diagnostics printed as Python lists inside a time loop: `print(step, repr(h.tolist()))`,
`print(np.bincount(board.ravel(), minlength=K).tolist())`, an f-string of `u.tolist()`, the
way examples/scripts/cyclic_automaton.py and the other scripts print their state."""
import numpy as np

K = 4


def cycle(board, generations):
    for g in range(generations):
        board[:] = (board + 1) % K
        print(g, repr(np.bincount(board.ravel(), minlength=K).tolist()))
    return board.sum()


def history(u, steps):
    for t in range(steps):
        u[1:-1] += 0.25 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        print(f"t={t} {u[::2].tolist()} {u.max().item()!r}", repr(u[0].tolist()))
    return u
