"""Linear (P1) finite elements for -lap(u) = f on the unit square, in the pattern of teaching FEM
codes: a structured triangulation built at module level (each square cut in two), element
stiffness from the gradients of the barycentric functions, the dense global matrix assembled
with `np.add.at(K, (rows, cols), ke)` over index grids of all elements at once (and by a
per-element loop `K[np.ix_(nodes, nodes)] += ke` to compare), the load by a one-point rule with
`np.add.at(F, tri, ...)`, Dirichlet nodes eliminated by zeroing rows and columns and putting 1
on the diagonal, and conjugate gradients written with in-place axpys (`x += alpha * p`,
`r -= alpha * Ap`, `p *= beta; p += r`) with an early return when the residual is small, the
residual printed every few iterations; a Cholesky check wrapped in try/except.
"""
import numpy as np

N = 6  # squares per side
H = 1.0 / N
xs = np.linspace(0.0, 1.0, N + 1)
X, Y = np.meshgrid(xs, xs)
NODES = np.column_stack([X.ravel(), Y.ravel()])
TRIS = []
for j in range(N):
    for i in range(N):
        a = j * (N + 1) + i
        TRIS.append([a, a + 1, a + N + 2])
        TRIS.append([a, a + N + 2, a + N + 1])
TRIS = np.array(TRIS)
BOUNDARY = np.flatnonzero((NODES[:, 0] == 0.0) | (NODES[:, 0] == 1.0) | (NODES[:, 1] == 0.0) | (NODES[:, 1] == 1.0))


def source(x, y):
    return 2.0 * np.pi ** 2 * np.sin(np.pi * x) * np.sin(np.pi * y)


def element_matrices(nodes, tris):
    """ke[e] (3x3) and the areas of all elements at once."""
    p = nodes[tris]  # (ne, 3, 2)
    d1 = p[:, 1] - p[:, 0]
    d2 = p[:, 2] - p[:, 0]
    area = 0.5 * np.abs(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0])
    b = np.empty((len(tris), 3))
    c = np.empty((len(tris), 3))
    for k in range(3):
        i, j = (k + 1) % 3, (k + 2) % 3
        b[:, k] = p[:, i, 1] - p[:, j, 1]
        c[:, k] = p[:, j, 0] - p[:, i, 0]
    ke = (b[:, :, None] * b[:, None, :] + c[:, :, None] * c[:, None, :]) / (4.0 * area[:, None, None])
    return ke, area


def assemble(nodes, tris, K, F):
    ke, area = element_matrices(nodes, tris)
    rows = np.repeat(tris, 3, axis=1)
    cols = np.tile(tris, (1, 3))
    np.add.at(K, (rows.ravel(), cols.ravel()), ke.reshape(len(tris), 9).ravel())
    centre = nodes[tris].mean(axis=1)
    np.add.at(F, tris, (source(centre[:, 0], centre[:, 1]) * area / 3.0)[:, None])
    return area.sum()


def assemble_loop(nodes, tris, K):
    ke, _ = element_matrices(nodes, tris)
    for e in range(len(tris)):
        idx = tris[e]
        K[np.ix_(idx, idx)] += ke[e]


def apply_dirichlet(K, F, fixed, value=0.0):
    F -= K[:, fixed] @ np.full(len(fixed), value)
    K[fixed, :] = 0.0
    K[:, fixed] = 0.0
    K[fixed, fixed] = 1.0
    F[fixed] = value


def cg(A, b, x, tol=1e-10, maxit=200, every=5):
    r = b - A @ x
    p = r.copy()
    rr = r @ r
    for it in range(maxit):
        if np.sqrt(rr) < tol:
            return it
        Ap = A @ p
        alpha = rr / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rr_new = r @ r
        beta = rr_new / rr
        p *= beta
        p += r
        rr = rr_new
        if it % every == 0:
            print("cg", it, repr(float(np.sqrt(rr))))
    return maxit


def is_spd(K):
    try:
        np.linalg.cholesky(K)
    except np.linalg.LinAlgError:
        return False
    return True


CHECKS = {
    "assemble": lambda: (NODES, TRIS, np.zeros((len(NODES),) * 2), np.zeros(len(NODES))),
    "assemble_loop": lambda: (NODES, TRIS[:12], np.zeros((len(NODES),) * 2)),
    "element_matrices": lambda: (NODES, TRIS),
    "apply_dirichlet": lambda: (np.arange(49.0 * 49).reshape(49, 49) % 7.0, np.ones(49), BOUNDARY, 0.5),
    "cg": lambda: (np.diag(np.arange(1.0, 9.0)) + 0.1, np.ones(8), np.zeros(8)),
    "cg#start": lambda: (np.diag(np.arange(1.0, 9.0)) + 0.1, np.ones(8), np.full(8, 0.3), 1e-6, 4, 1),
}

if __name__ == "__main__":
    n = len(NODES)
    K = np.zeros((n, n))
    F = np.zeros(n)
    total = assemble(NODES, TRIS, K, F)
    K2 = np.zeros((n, n))
    assemble_loop(NODES, TRIS, K2)
    print("area", repr(total), "same K", np.allclose(K, K2), "symmetric", np.array_equal(K, K.T))
    # (the pure Neumann K is singular: Cholesky's last pivot is rounding noise, 5e-8, either way)
    print("shifted indefinite", not is_spd(K - 10.0 * np.eye(n)))
    apply_dirichlet(K, F, BOUNDARY)
    print("spd after", is_spd(K))
    u = np.zeros(n)
    its = cg(K, F, u)
    exact = np.sin(np.pi * NODES[:, 0]) * np.sin(np.pi * NODES[:, 1])
    print("iterations", its, "max error", repr(round(float(np.max(np.abs(u - exact))), 10)))
    print(np.round(u.reshape(N + 1, N + 1)[N // 2], 8))
