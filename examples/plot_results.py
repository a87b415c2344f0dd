"""Draw the examples' results, NumPy original vs np2ref-converted program, as PNG files under
docs/img/. Needs matplotlib (`pip install ".[docs]"`); the tests do not.

    python examples/plot_results.py
"""
from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path

try:
    import matplotlib
except ModuleNotFoundError:
    sys.exit("plot_results.py draws with matplotlib, which is not installed: pip install \".[docs]\"")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
IMG = HERE.parent / "docs" / "img"
sys.path.insert(0, str(HERE))


def _load(stem):
    spec = importlib.util.spec_from_file_location(stem, HERE / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[stem] = module
    spec.loader.exec_module(module)
    return module


def both(stem, size="large"):
    """Run the original and the converted program on copies of make_inputs(size)."""
    original, converted = _load(stem), _load(f"{stem}_ref")
    inputs = original.make_inputs(size)
    a, b = copy.deepcopy(inputs), copy.deepcopy(inputs)
    ra = getattr(original, original.ENTRY)(**a)
    rb = getattr(converted, original.ENTRY)(**b)
    return (ra, a), (rb, b)


def side_by_side(name, title, left, right, cmap="inferno", **kw):
    """NumPy field, converted field, and their difference."""
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), constrained_layout=True)
    vmin, vmax = min(left.min(), right.min()), max(left.max(), right.max())
    for ax, data, label in ((axes[0], left, "NumPy original"), (axes[1], right, "np2ref converted (JAX)")):
        im = ax.imshow(data, cmap=cmap, vmin=vmin, vmax=vmax, origin="lower", **kw)
        ax.set_title(label, fontsize=12)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.colorbar(im, ax=axes[:2], shrink=0.85)
    diff = right - left
    lim = max(np.abs(diff).max(), 1e-300)
    im = axes[2].imshow(diff, cmap="RdBu_r", vmin=-lim, vmax=lim, origin="lower", **kw)
    axes[2].set_title(f"converted − NumPy (max {np.abs(diff).max():.1e})", fontsize=12)
    axes[2].set_xticks([])
    axes[2].set_yticks([])
    fig.colorbar(im, ax=axes[2], shrink=0.85, format="%.0e")
    fig.suptitle(title, fontsize=14)
    fig.savefig(IMG / name, dpi=90)
    plt.close(fig)


def heat():
    (ua, _), (ub, _) = both("heat_equation")
    side_by_side("heat_equation.png", "2-D heat equation, 50 explicit steps on 64 x 64", ua, ub)


def deposition():
    (_, a), (_, b) = both("particle_deposition")
    side_by_side("particle_deposition.png", "CIC deposition with np.add.at: time-averaged density",
                 a["rho_mean"].T, b["rho_mean"].T, cmap="viridis")


def lbm():
    ((uxa, uya, _), _), ((uxb, uyb, _), _) = both("lattice_boltzmann")
    side_by_side("lattice_boltzmann.png", "Lattice Boltzmann D2Q9, flow past a cylinder: |u| after 400 steps",
                 np.hypot(uxa, uya), np.hypot(uxb, uyb), cmap="magma")


def gradient():
    opt = _load("optimise_initial_condition")
    u_true, u_found, history, _ = opt.optimise()
    model = opt.model
    inputs = model.make_inputs("large")
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), constrained_layout=True)
    x = np.linspace(0.0, 1.0, u_true.size)
    final = u_true.copy()
    model.simulate(final, inputs["kappa"], inputs["sensors"], inputs["steps"])
    axes[0].plot(x, u_true, "k-", lw=2, label="true initial u")
    axes[0].plot(x, u_found, "C1--", lw=2, label="recovered (jax.grad of .pure)")
    axes[0].plot(x, final, "C0:", lw=2, label="measured final u")
    axes[0].set_xlabel("x")
    axes[0].legend(fontsize=10)
    axes[0].set_title("initial condition recovered from the final state", fontsize=12)
    axes[1].semilogy(history, "C1")
    axes[1].set_xlabel("gradient-descent iteration")
    axes[1].set_ylabel("loss")
    axes[1].set_title("loss", fontsize=12)
    fig.savefig(IMG / "gradient_initial_condition.png", dpi=90)
    plt.close(fig)


def batch():
    b = _load("batch_gray_scott")
    steps = 3000
    (_, _, v_jax) = b.run_batch(steps=steps)
    (_, _, v_np) = b.run_numpy(steps=steps)
    k = len(b.PARAMS)
    fig, axes = plt.subplots(2, k, figsize=(2.3 * k, 5.0), constrained_layout=True)
    for i, (feed, kill) in enumerate(b.PARAMS):
        for row, data, label in ((0, v_np, "NumPy loop"), (1, v_jax, "jax.vmap")):
            ax = axes[row, i]
            ax.imshow(data[i], cmap="viridis", vmin=0.0, vmax=0.45)
            ax.set_xticks([])
            ax.set_yticks([])
            if row == 0:
                ax.set_title(f"F={feed:.3f} k={kill:.3f}", fontsize=10)
            if i == 0:
                ax.set_ylabel(label, fontsize=12)
    diff = np.abs(v_jax - v_np).max()
    fig.suptitle(f"Gray-Scott, {k} simulations at once: v after {steps} steps "
                 f"(max |vmap − NumPy| = {diff:.1e})", fontsize=13)
    fig.savefig(IMG / "batch_gray_scott.png", dpi=90)
    plt.close(fig)


if __name__ == "__main__":
    IMG.mkdir(parents=True, exist_ok=True)
    for draw in (heat, deposition, lbm, gradient, batch):
        draw()
        print(f"drew {draw.__name__}")
