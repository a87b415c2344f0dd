"""1-D linear finite elements on a graded mesh, assembled through chained indexing.

Domain: steady conduction -k u'' = f on [0, 1] with u = 0 at both ends. The global matrix is
assembled element by element as a port of a FEniCS exercise writes it, `AA[dof0][dof0] += ...`:
`AA[dof0]` is a view of a row and the `+=` writes through it into AA. The Dirichlet rows are
then replaced in place and the system solved with np.linalg.solve. The mesh is graded
(x ** 1.3), so every element has its own length. Pattern from a public course script
(docs/scripts.md); written anew here.
"""
import numpy as np  # np2ref: tpu-refused NPR302 (np.linalg.solve: an LU of float64, which the TPU compiler does not implement)

ENTRY = "solve_conduction"

K_COND = 0.1   # conductivity
SOURCE = 2.0   # uniform heat source


def assemble(AA, FF, xs):
    """Add each element's 2x2 stiffness and 2-vector load into AA and FF in place."""
    for ci in range(len(xs) - 1):
        h = abs(xs[ci] - xs[ci + 1])
        dof0 = ci
        dof1 = ci + 1
        AA[dof0][dof0] += 1.0 / h * K_COND
        AA[dof1][dof0] += -1.0 / h * K_COND
        AA[dof0][dof1] += -1.0 / h * K_COND
        AA[dof1][dof1] += 1.0 / h * K_COND
        FF[dof0] += SOURCE * h / 2
        FF[dof1] += SOURCE * h / 2


def solve_conduction(xs, AA, FF):
    """Assemble into the caller's AA and FF, impose u = 0 at both ends, solve; returns u and
    the discrete heat content."""
    assemble(AA, FF, xs)
    for row in (0, -1):
        AA[row, :] = 0.0
        AA[row, row] = 1.0
        FF[row] = 0.0
    u = np.linalg.solve(AA, FF)
    return u, np.sum(u[1:] + u[:-1]) * 0.5 * (xs[1] - xs[0])


def make_inputs(size="small"):
    n = 8 if size == "small" else 400
    xs = np.linspace(0.0, 1.0, n + 1) ** 1.3
    return dict(xs=xs, AA=np.zeros((n + 1, n + 1)), FF=np.zeros(n + 1))


if __name__ == "__main__":
    inputs = make_inputs("large")
    u, heat = solve_conduction(**inputs)
    print(f"max temperature = {u.max():.6f}")
    print(f"heat content    = {heat:.6f}")
    print(f"matrix trace    = {np.trace(inputs['AA']):.6f}")
