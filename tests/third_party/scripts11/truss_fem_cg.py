"""2-D pin-jointed truss (a Pratt bridge): bar stiffness matrices built for all bars at once
(direction cosines, the 4x4 outer product), assembled into the global matrix with np.add.at on
(row, column) index grids, supports imposed by zeroing rows and columns and a unit diagonal, a
conjugate gradient solve with a residual history array and a `while` on the relative residual,
a Jacobi-preconditioned variant, bar forces from the displacements, the most stressed bar by
np.argmax of the absolute force; node coordinates made at module level in loops.
"""
import numpy as np

PANELS = 6
SPAN = 3.0
HEIGHT = 2.5
EA = 2.0e5

nodes = []
for i in range(PANELS + 1):
    nodes.append((i * SPAN, 0.0))
for i in range(1, PANELS):
    nodes.append((i * SPAN, HEIGHT))
NODES = np.array(nodes)
bars = []
for i in range(PANELS):
    bars.append((i, i + 1))
top = list(range(PANELS + 1, 2 * PANELS))
for a, b in zip(top[:-1], top[1:]):
    bars.append((a, b))
for i in range(1, PANELS):
    bars.append((i, top[i - 1]))
bars += [(0, top[0]), (PANELS, top[-1])]
for i in range(1, PANELS - 1):
    bars.append((i, top[i]) if i < PANELS // 2 else (i + 1, top[i - 1]))
BARS = np.array(bars, dtype=np.int64)
FIXED = np.array([0, 1, 2 * PANELS + 1])  # pin at node 0, roller at node PANELS


def assemble(nodes, bars, ea):
    d = nodes[bars[:, 1]] - nodes[bars[:, 0]]
    length = np.sqrt((d ** 2).sum(axis=1))
    c, s = d[:, 0] / length, d[:, 1] / length
    t = np.stack([-c, -s, c, s], axis=1)
    ke = (ea / length)[:, None, None] * t[:, :, None] * t[:, None, :]
    dofs = np.stack([2 * bars[:, 0], 2 * bars[:, 0] + 1, 2 * bars[:, 1], 2 * bars[:, 1] + 1], axis=1)
    K = np.zeros((2 * nodes.shape[0], 2 * nodes.shape[0]))
    np.add.at(K, (dofs[:, :, None], dofs[:, None, :]), ke)
    return K, t, length, dofs


def apply_supports(K, f, fixed):
    K[fixed, :] = 0.0
    K[:, fixed] = 0.0
    K[fixed, fixed] = 1.0
    f[fixed] = 0.0


def cg(K, f, tol, maxit, precondition=False):
    x = np.zeros_like(f)
    r = f - K @ x
    minv = 1.0 / np.diag(K) if precondition else np.ones_like(f)
    z = minv * r
    p = z.copy()
    rz = r @ z
    history = np.zeros(maxit + 1)
    history[0] = np.sqrt(r @ r)
    k = 0
    while history[k] > tol * history[0] and k < maxit:
        Kp = K @ p
        alpha = rz / (p @ Kp)
        x += alpha * p
        r -= alpha * Kp
        z = minv * r
        rz_new = r @ z
        p *= rz_new / rz
        p += z
        rz = rz_new
        k += 1
        history[k] = np.sqrt(r @ r)
    return x, history, k


def bar_forces(u, t, length, dofs, ea):
    return ea / length * np.sum(t * u[dofs], axis=1)


def solve(load, precondition):
    K, t, length, dofs = assemble(NODES, BARS, EA)
    f = np.zeros(2 * NODES.shape[0])
    f[1:2 * (PANELS + 1):2] = -load
    apply_supports(K, f, FIXED)
    u, hist, its = cg(K, f, 1e-10, 200, precondition)
    forces = bar_forces(u, t, length, dofs, EA)
    # bars 2 and 3 carry 54.0 in exact arithmetic: argmax of the raw forces picks by the last bits,
    # which K @ p's summation order decides (BLAS's against XLA's: docs/semantics.md); rounded first
    worst = np.argmax(np.round(np.abs(forces), 6))
    return u, forces, worst, its


CHECKS = {
    "assemble": lambda: (NODES.copy(), BARS.copy(), EA),
    "apply_supports": lambda: (assemble(NODES, BARS, EA)[0], np.arange(2.0 * NODES.shape[0]), FIXED.copy()),
    "cg": lambda: (np.diag(np.arange(1.0, 9.0)) + 0.1, np.ones(8), 1e-12, 50),
    "solve": lambda: (10.0, False),
    "solve#jacobi": lambda: (10.0, True),
    "bar_forces": lambda: (np.linspace(0, 1, 2 * NODES.shape[0]), *assemble(NODES, BARS, EA)[1:], EA),
}

if __name__ == "__main__":
    print(len(nodes), "nodes", BARS.shape[0], "bars")
    for pre in (False, True):
        u, forces, worst, its = solve(10.0, pre)
        print("precondition", pre, "iterations", its)
        print("  max deflection", repr(round(float(-u[1::2].min()), 9)))
        print("  worst bar", worst, BARS[worst], repr(round(float(forces[worst]), 6)))
