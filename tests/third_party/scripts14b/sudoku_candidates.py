"""A sudoku solver by constraint propagation and backtracking (the pattern of Norvig-style
solvers ported to NumPy): the grid as int8 with 0 for blanks, a (9, 9, 9) boolean candidate
cube from one-hot planes (`.any` over rows, columns and a (3, 3, 3, 3, 9) reshape of boxes;
first written cell by cell through row, column and box slices, kept as `candidates_loops`),
naked singles written back into the grid through a mask,
hidden singles found by counting candidates along each unit (`cand.sum(axis=...)` as int64),
a contradiction check with an early return, a guess on the cell with the fewest candidates
(`np.argmin` over counts with solved cells set to 10, `divmod` of its index), a depth-first
search on an explicit int8 stack of grids with a top counter in a `while` loop, and a verifier; the puzzle parsed from a string.
"""
import numpy as np

PUZZLE = ("530070000600195000098000060800060003400803001700020006060000280000419005000080079")
HARD = ("000000010400000000020000000000050407008000300001090000300400200050100000000806000")


def parse(text):
    return np.array([int(c) for c in text], dtype=np.int8).reshape(9, 9)


def candidates(grid):
    # each digit's one-hot plane; a blank keeps a digit no unit of it holds, a given keeps its
    # own digit unless a unit holds it twice (a contradiction: no candidate left)
    onehot = grid[:, :, None] == np.arange(1, 10, dtype=np.int8)
    rows = onehot.sum(axis=1)[:, None, :]
    cols = onehot.sum(axis=0)[None, :, :]
    boxes = np.repeat(np.repeat(onehot.reshape(3, 3, 3, 3, 9).sum(axis=(1, 3)), 3, axis=0), 3, axis=1)
    cand = (rows == 0) & (cols == 0) & (boxes == 0)
    filled = grid > 0
    alone = onehot & (rows == 1) & (cols == 1) & (boxes == 1)
    cand[filled] = alone[filled]
    return cand


def candidates_loops(grid):
    cand = np.ones((9, 9, 9), dtype=bool)
    for r in range(9):
        for c in range(9):
            v = grid[r, c]
            if v > 0:
                cand[r, c, :] = False
                cand[r, c, v - 1] = True
                cand[r, :, v - 1] = False
                cand[:, c, v - 1] = False
                br, bc = 3 * (r // 3), 3 * (c // 3)
                cand[br:br + 3, bc:bc + 3, v - 1] = False
                cand[r, c, v - 1] = True
    return cand


def propagate(grid, cand):
    # fills what singles decide; returns -1 on a contradiction, else how many cells it set
    placed = 0
    changed = True
    while changed:
        changed = False
        counts = cand.sum(axis=2)
        if (counts == 0).any():
            return -1
        singles = (counts == 1) & (grid == 0)
        if singles.any():
            values = (np.argmax(cand, axis=2) + 1).astype(np.int8)
            grid[singles] = values[singles]
            placed += int(singles.sum())
            cand[...] = candidates(grid)
            changed = True
            continue
        for d in range(9):
            rows = cand[:, :, d].sum(axis=1)
            hidden = (rows == 1) & ~(grid == d + 1).any(axis=1)
            if hidden.any():
                r = np.argmax(hidden)
                c = np.argmax(cand[r, :, d])
                grid[r, c] = d + 1
                placed += 1
                cand[...] = candidates(grid)
                changed = True
                break
    return placed


def valid(grid):
    target = np.arange(1, 10)
    for i in range(9):
        if not (np.array_equal(np.sort(grid[i]), target) and np.array_equal(np.sort(grid[:, i]), target)):
            return False
        br, bc = 3 * (i // 3), 3 * (i % 3)
        if not np.array_equal(np.sort(grid[br:br + 3, bc:bc + 3].ravel()), target):
            return False
    return True


def solve(grid, max_nodes=2000, depth=120):
    stack = np.zeros((depth, 9, 9), dtype=np.int8)
    stack[0] = grid
    top = 1
    nodes = 0
    while top > 0 and nodes < max_nodes:
        top -= 1
        g = stack[top].copy()
        nodes += 1
        cand = candidates(g)
        if propagate(g, cand) < 0:
            continue
        if (g > 0).all():
            grid[...] = g
            return nodes
        counts = np.where(g == 0, cand.sum(axis=2), 10)
        cell = np.argmin(counts)
        r, c = divmod(int(cell), 9)
        for d in range(8, -1, -1):
            if cand[r, c, d] and top < depth:
                stack[top] = g
                stack[top, r, c] = d + 1
                top += 1
    return -nodes


CHECKS = {
    "parse": lambda: (PUZZLE,),
    "candidates": lambda: (parse(PUZZLE),),
    "candidates_loops": lambda: (parse(HARD),),
    "propagate": lambda: (parse(PUZZLE), candidates(parse(PUZZLE))),
    "propagate#hard": lambda: (parse(HARD), candidates(parse(HARD))),
    "valid": lambda: (parse(PUZZLE),),
    "solve": lambda: (parse(PUZZLE),),
}

if __name__ == "__main__":
    for name, text in (("easy", PUZZLE), ("hard", HARD)):
        g = parse(text)
        cand = candidates(g)
        print(name, "blanks", int((g == 0).sum()), "candidates", int(cand.sum()))
        nodes = solve(g, 3000)
        print(name, "nodes", nodes, "valid", valid(g), g.dtype)
        print(g[0], g[8].sum())
