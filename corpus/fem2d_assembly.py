"""Linear-triangle (P1) finite elements for the Poisson problem
-div(k grad u) = f on the unit square, assembled with np.add.at.

Domain: 2-D FEM as in teaching codes and many in-house solvers. The square
is split into right triangles; element stiffness matrices (3 x 3, from the
gradients of the barycentric basis functions) and load vectors are computed
for all elements at once, then scattered into the dense global matrix with
np.add.at on 2-D tuple indices (I, J): every interior node is shared by six
triangles, so the index pairs repeat and must accumulate. Dirichlet nodes
are imposed with boolean masks (rows and columns zeroed, unit diagonal,
values moved to the right-hand side), and the system is solved by a fixed
number of symmetric Gauss-Seidel sweeps written as row loops.
"""
import numpy as np

ENTRY = "solve_poisson"


def element_stiffness(xy, tri, kappa):
    """(ne, 3, 3) stiffness and (ne,) areas of the triangles."""
    p0 = xy[tri[:, 0]]
    p1 = xy[tri[:, 1]]
    p2 = xy[tri[:, 2]]
    area = 0.5 * ((p1[:, 0] - p0[:, 0]) * (p2[:, 1] - p0[:, 1])
                  - (p2[:, 0] - p0[:, 0]) * (p1[:, 1] - p0[:, 1]))
    # gradients of the barycentric coordinates: b_i = y_j - y_k, c_i = x_k - x_j
    b = np.stack([p1[:, 1] - p2[:, 1], p2[:, 1] - p0[:, 1], p0[:, 1] - p1[:, 1]], axis=1)
    c = np.stack([p2[:, 0] - p1[:, 0], p0[:, 0] - p2[:, 0], p1[:, 0] - p0[:, 0]], axis=1)
    ke = (b[:, :, None] * b[:, None, :] + c[:, :, None] * c[:, None, :])
    ke *= (kappa / (4.0 * area))[:, None, None]
    return ke, area


def assemble(K, F, tri, ke, area, fvals):
    K[...] = 0.0
    F[...] = 0.0
    I = np.repeat(tri[:, :, None], 3, axis=2)
    J = np.repeat(tri[:, None, :], 3, axis=1)
    np.add.at(K, (I, J), ke)
    # one-point quadrature per element: each vertex gets a third
    fe = (fvals * area / 3.0)[:, None] * np.ones(3)
    np.add.at(F, tri, fe)


def apply_dirichlet(K, F, boundary, g):
    F -= K @ np.where(boundary, g, 0.0)
    K[boundary, :] = 0.0
    K[:, boundary] = 0.0
    idx = np.arange(K.shape[0])
    K[idx, idx] = np.where(boundary, 1.0, K[idx, idx])   # unit diagonal on Dirichlet rows
    F[boundary] = g[boundary]


def gauss_seidel(K, F, u, sweeps):
    n = K.shape[0]
    for s in range(sweeps):
        for i in range(n):
            u[i] += (F[i] - np.dot(K[i], u)) / K[i, i]
        for i in range(n - 1, -1, -1):
            u[i] += (F[i] - np.dot(K[i], u)) / K[i, i]


def solve_poisson(K, F, u, xy, tri, kappa, fvals, boundary, g, sweeps):
    """Assemble into K and F, solve into u (all in place). Returns the
    energy norm u.K.u of the solution and the final residual norm."""
    ke, area = element_stiffness(xy, tri, kappa)
    assemble(K, F, tri, ke, area, fvals)
    apply_dirichlet(K, F, boundary, g)
    gauss_seidel(K, F, u, sweeps)
    return np.dot(u, K @ u), np.linalg.norm(F - K @ u)


def square_mesh(m):
    """(m+1)^2 nodes, 2 m^2 right triangles, counter-clockwise."""
    s = np.linspace(0.0, 1.0, m + 1)
    X, Y = np.meshgrid(s, s, indexing="ij")
    xy = np.stack([X.ravel(), Y.ravel()], axis=1)
    node = np.arange((m + 1) ** 2).reshape(m + 1, m + 1)
    a = node[:-1, :-1].ravel()
    b = node[1:, :-1].ravel()
    c = node[1:, 1:].ravel()
    d = node[:-1, 1:].ravel()
    tri = np.concatenate([np.stack([a, b, c], axis=1), np.stack([a, c, d], axis=1)])
    return xy, tri.astype(np.int64)


def make_inputs(size="small"):
    rng = np.random.default_rng(6)
    m, sweeps = (3, 4) if size == "small" else (30, 200)
    xy, tri = square_mesh(m)
    n = xy.shape[0]
    on_edge = ((xy[:, 0] == 0.0) | (xy[:, 0] == 1.0) | (xy[:, 1] == 0.0) | (xy[:, 1] == 1.0))
    g = np.where(xy[:, 0] == 1.0, 1.0, 0.0) * np.sin(np.pi * xy[:, 1])
    kappa = rng.uniform(0.5, 2.0, size=tri.shape[0])
    fvals = rng.uniform(0.0, 1.0, size=tri.shape[0])
    return dict(K=np.zeros((n, n)), F=np.zeros(n), u=np.zeros(n), xy=xy, tri=tri, kappa=kappa,
                fvals=fvals, boundary=on_edge, g=g, sweeps=sweeps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    energy, res = solve_poisson(**inputs)
    print(f"energy   = {energy:.6f}")
    print(f"residual = {res:.3e}")
    print(f"max u    = {inputs['u'].max():.6f}")
