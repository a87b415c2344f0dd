"""1-D heat equation with the time step written as a nested function closing over the grid
constants (the `def loop_body(grid)` style of tutorial code), Dirichlet ends, and a running
maximum tracked with the builtin max() on array values."""
import numpy as np

ENTRY = "run"


def run(u, nt, alpha):
    dx = 1.0 / (u.shape[0] - 1)
    dt = 0.4 * dx ** 2 / alpha
    peak = np.zeros(nt)

    def loop_body(grid):
        lap = grid[2:] - 2.0 * grid[1:-1] + grid[:-2]
        grid[1:-1] += alpha * dt / dx ** 2 * lap

    for n in range(nt):
        loop_body(u)
        peak[n] = max(0.0, u.max())
    return peak


def make_inputs(size="small"):
    nx, nt = (17, 10) if size == "small" else (4001, 20000)
    x = np.linspace(0.0, 1.0, nx)
    return dict(u=np.sin(np.pi * x) + 0.3 * np.sin(5 * np.pi * x), nt=nt, alpha=1.0)


if __name__ == "__main__":
    inputs = make_inputs("large")
    peak = run(**inputs)
    print(f"last = {peak[-1]}")
