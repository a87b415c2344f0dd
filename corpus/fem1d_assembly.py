"""Linear (Galerkin) finite-element solution of the steady 1-D
convection-diffusion problem  -(k(x) u')' + b(x) u' = f(x)  on a non-uniform
mesh.

Domain: thermal / species transport 1-D FEM. Cell Peclet numbers above one
make the global matrix non-symmetric and not diagonally dominant, so the
pivoting below really swaps rows. Element stiffness matrices and load
vectors are assembled into a dense global system with np.add.at (neighbouring
elements share nodes, so indices repeat), concentrated nodal loads are added
with a legacy buffered fancy update, Dirichlet conditions are imposed by
zeroing rows (row views) and columns (transposed view), and the system is
solved by Gaussian elimination with partial pivoting that swaps rows in place.
"""
import numpy as np

ENTRY = "assemble_and_solve"


DIFF_STENCIL = np.array([[1.0, -1.0], [-1.0, 1.0]])
CONV_STENCIL = np.array([[-0.5, 0.5], [-0.5, 0.5]])


def element_matrices(nodes, conn, kcoef, bcoef, fsrc):
    h = nodes[conn[:, 1]] - nodes[conn[:, 0]]
    ke = (kcoef / h)[:, None, None] * DIFF_STENCIL
    ke += bcoef[:, None, None] * CONV_STENCIL
    fe = (fsrc * h / 2.0)[:, None] * np.ones(2)
    return ke, fe


def assemble(K, F, conn, ke, fe):
    I = conn[:, :, None] * np.ones((1, 1, 2), dtype=np.int64)
    J = conn[:, None, :] * np.ones((1, 2, 1), dtype=np.int64)
    np.add.at(K, (I, J), ke)
    np.add.at(F, conn, fe)


def apply_dirichlet(K, F, node, value):
    """Symmetric elimination of a prescribed nodal value, in place."""
    F -= K[:, node] * value
    row = K[node]
    row[:] = 0.0
    Kt = K.T
    Kt[node] = 0.0                 # zero the column through the transpose
    K[node, node] = 1.0
    F[node] = value


def gauss_solve(A, b, x):
    """Solve A x = b by partial pivoting; A and b are destroyed."""
    n = A.shape[0]
    for j in range(n - 1):
        p = j + np.argmax(np.abs(A[j:, j]))
        A[j], A[p] = A[p].copy(), A[j].copy()
        b[j], b[p] = b[p].copy(), b[j].copy()
        for k in range(j + 1, n):
            f = A[k, j] / A[j, j]
            row = A[k]
            row -= f * A[j]
            b[k] -= f * b[j]
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - np.dot(A[i, i + 1:], x[i + 1:])) / A[i, i]
    return x


def assemble_and_solve(K, F, u, nodes, conn, kcoef, bcoef, fsrc, point_nodes,
                       point_vals, g0, g1):
    """Assemble into K, F (zeroed first) and solve into u, all in place.

    Returns (reaction at the left end, the quadratic form 0.5 u.K0.u)."""
    n = nodes.shape[0]
    K.fill(0.0)
    F.fill(0.0)
    ke, fe = element_matrices(nodes, conn, kcoef, bcoef, fsrc)
    assemble(K, F, conn, ke, fe)
    F[point_nodes] += point_vals        # buffered: repeated nodes load once
    K0 = K.copy()
    F0 = F.copy()
    apply_dirichlet(K, F, 0, g0)
    apply_dirichlet(K, F, n - 1, g1)
    gauss_solve(K, F, u)
    reaction = np.dot(K0[0], u) - F0[0]
    energy = 0.5 * np.dot(u, K0 @ u)
    return reaction, energy


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    ne = 4 if size == "small" else 300
    n = ne + 1
    h = rng.uniform(0.5, 1.5, size=ne)
    nodes = np.concatenate([np.zeros(1), np.cumsum(h)])
    nodes /= nodes[-1]
    conn = np.stack([np.arange(ne), np.arange(1, ne + 1)], axis=1).astype(np.int64)
    kcoef = rng.uniform(1.0, 3.0, size=ne)
    fsrc = rng.uniform(-1.0, 1.0, size=ne)
    # cell Peclet number b h / (2 k) between 1 and 3
    bcoef = rng.uniform(2.0, 6.0, size=ne) * kcoef / np.diff(nodes)
    npl = 3 if size == "small" else 10
    point_nodes = rng.integers(1, n - 1, size=npl)
    point_nodes[-1] = point_nodes[0]    # duplicate concentrated load
    point_vals = rng.uniform(0.0, 0.5, size=npl)
    return dict(K=np.zeros((n, n)), F=np.zeros(n), u=np.zeros(n), nodes=nodes,
                conn=conn, kcoef=kcoef, bcoef=bcoef, fsrc=fsrc,
                point_nodes=point_nodes, point_vals=point_vals, g0=0.0, g1=1.0)


if __name__ == "__main__":
    inputs = make_inputs("large")
    reaction, energy = assemble_and_solve(**inputs)
    u = inputs["u"]
    print(f"left reaction = {reaction:.6f}")
    print(f"energy        = {energy:.6f}")
    print(f"max u         = {u.max():.6f}")
    print(f"mid u         = {u[u.shape[0] // 2]:.6f}")
