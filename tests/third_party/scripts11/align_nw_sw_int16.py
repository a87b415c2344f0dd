"""Global (Needleman-Wunsch) and local (Smith-Waterman) alignment of DNA strings encoded as
uint8 codes: int16 score matrices filled cell by cell with a substitution matrix and a linear
gap, int8 traceback pointers (0 diagonal, 1 up, 2 left), the local maximum found with np.argmax
and np.unravel_index, the traceback walked in a `while` into preallocated int16 arrays with a
length counter, an affine-gap variant with three int16 matrices (Gotoh), identity computed from
the aligned columns; sequences drawn at module level from a seeded Generator.
"""
import numpy as np

GAP = -2
GAP_OPEN = -3
GAP_EXT = -1
SUB = np.full((4, 4), -1, dtype=np.int16)
np.fill_diagonal(SUB, 2)
NEG = np.int16(-10000)

rng = np.random.default_rng(21)
A = rng.integers(0, 4, size=18).astype(np.uint8)
B = A.copy()
B[5:8] = rng.integers(0, 4, size=3)
B = np.concatenate([B[:10], B[12:], np.array([1, 2], dtype=np.uint8)])


def fill(a, b, local):
    n, m = a.shape[0], b.shape[0]
    H = np.zeros((n + 1, m + 1), dtype=np.int16)
    P = np.zeros((n + 1, m + 1), dtype=np.int8)
    if not local:
        H[:, 0] = GAP * np.arange(n + 1)
        H[0, :] = GAP * np.arange(m + 1)
        P[1:, 0] = 1
        P[0, 1:] = 2
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            diag = H[i - 1, j - 1] + SUB[a[i - 1], b[j - 1]]
            up = H[i - 1, j] + GAP
            left = H[i, j - 1] + GAP
            best = max(diag, up, left)
            if local and best < 0:
                best = 0
            H[i, j] = best
            if best == diag:
                P[i, j] = 0
            elif best == up:
                P[i, j] = 1
            else:
                P[i, j] = 2
    return H, P


def traceback(H, P, local):
    if local:
        i, j = np.unravel_index(np.argmax(H), H.shape)
    else:
        i, j = H.shape[0] - 1, H.shape[1] - 1
    ai = np.full(H.shape[0] + H.shape[1], -1, dtype=np.int16)
    bj = np.full(H.shape[0] + H.shape[1], -1, dtype=np.int16)
    k = 0
    while i > 0 or j > 0:
        if local and H[i, j] == 0:
            break
        move = P[i, j]
        if move == 0:
            ai[k] = i - 1
            bj[k] = j - 1
            i -= 1
            j -= 1
        elif move == 1:
            ai[k] = i - 1
            i -= 1
        else:
            bj[k] = j - 1
            j -= 1
        k += 1
    return ai, bj, k


def gotoh(a, b):
    n, m = a.shape[0], b.shape[0]
    M = np.full((n + 1, m + 1), NEG, dtype=np.int16)
    X = np.full((n + 1, m + 1), NEG, dtype=np.int16)
    Y = np.full((n + 1, m + 1), NEG, dtype=np.int16)
    M[0, 0] = 0
    for i in range(1, n + 1):
        X[i, 0] = GAP_OPEN + (i - 1) * GAP_EXT
    for j in range(1, m + 1):
        Y[0, j] = GAP_OPEN + (j - 1) * GAP_EXT
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s = SUB[a[i - 1], b[j - 1]]
            M[i, j] = max(M[i - 1, j - 1], X[i - 1, j - 1], Y[i - 1, j - 1]) + s
            X[i, j] = max(M[i - 1, j] + GAP_OPEN, X[i - 1, j] + GAP_EXT)
            Y[i, j] = max(M[i, j - 1] + GAP_OPEN, Y[i, j - 1] + GAP_EXT)
    return max(M[n, m], X[n, m], Y[n, m])


def identity_masked(a, b, ai, bj):
    both = (ai >= 0) & (bj >= 0)
    same = a[ai[both]] == b[bj[both]]
    return same.sum() / ai.shape[0]


def identity(a, b, ai, bj):
    both = (ai >= 0) & (bj >= 0)
    same = np.where(both, a[np.maximum(ai, 0)] == b[np.maximum(bj, 0)], False)
    return same.sum() / ai.shape[0]


CHECKS = {
    "fill": lambda: (A.copy(), B.copy(), False),
    "fill#local": lambda: (A[:8].copy(), B[3:12].copy(), True),
    "traceback": lambda: (*fill(A, B, False), False),
    "traceback#local": lambda: (*fill(A[:9], B[2:], True), True),
    "identity": lambda: (A.copy(), B.copy(), np.array([0, 1, -1, 3, 4], dtype=np.int16),
                         np.array([0, -1, 1, 2, 4], dtype=np.int16)),
    "identity_masked": lambda: (A.copy(), B.copy(), np.array([0, 1, -1, 3], dtype=np.int16),
                                np.array([0, -1, 1, 2], dtype=np.int16)),
    "gotoh": lambda: (A[:10].copy(), B[:12].copy()),
}

if __name__ == "__main__":
    for local in (False, True):
        H, P = fill(A, B, local)
        ai, bj, k = traceback(H, P, local)
        ai, bj = ai[:k][::-1], bj[:k][::-1]
        print("local" if local else "global", "score", H.max() if local else H[-1, -1], H.dtype, "len", k)
        print(" ", ai, ai.dtype)
        print(" ", bj)
        if k:
            print("  identity", repr(float(identity(A, B, ai, bj))))
    print("gotoh", gotoh(A, B))
