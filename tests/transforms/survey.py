"""`python tests/transforms/survey.py [--ways=jit,vmap,grad,jvp,jacfwd] [script:check ...]`: the table of docs/transforms.md, each
program of tests/third_party under the caller's jit, vmap, grad and jacfwd of `.pure`
(transform_harness.outcomes). With no arguments, the programs of PROGRAMS."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from transform_harness import WAYS, outcomes  # noqa: E402

THIRD = HERE.parent / "third_party"
PROGRAMS = [
    "scripts12/fput_chain_modes:run", "scripts12/fput_chain_modes:force",
    "scripts12/fire_spring_network:fire#short", "scripts12/holt_winters_forecast:fit",
    "scripts12/householder_qr_lstsq:lstsq_qr", "scripts12/jacobi_eigen_rotations:jacobi_eig",
    "scripts12/image_blur_equalise:unsharp", "scripts12/hodgkin_huxley_float32:simulate",
    "scripts12/csr_gauss_seidel_sor:solve", "scripts12/adaboost_stumps:best_stump",
    "scripts11/godunov_burgers_exact:solve#outflow", "scripts11/godunov_burgers_exact:solve#muscl",
    "scripts11/fdtd2d_drude:run#vacuum", "scripts11/seir_age_structured:simulate",
    "scripts11/spectral_poisson:poisson", "scripts11/truss_fem_cg:cg",
    "scripts11/kmeans_plusplus:lloyd", "scripts11/ray_tracer_spheres:hit_distances",
    "scripts11/heat_exchanger_network:solve_network#short", "scripts11/dem_contact_grid:contact_forces",
    "scripts10/shallow_water_rusanov:solve#short", "scripts10/cloth_verlet_constraints:satisfy",
    "scripts10/rkf45_rejection:vdp_run#loose", "scripts10/fem1d_banded_thomas:thomas",
    "scripts10/mcmc_thinning_rosenbrock:running_mean", "scripts10/portfolio_backtest:drawdown",
    "scripts8/euler_roe_shock_tube:roe_flux", "scripts8/flux_limiter_advection:advect#minmod",
    "scripts8/kalman_rts_smoother:kalman", "scripts8/hmm_log_viterbi:forward",
    "scripts8/cahn_hilliard:evolve", "scripts8/multigrid_vcycle_1d:vcycle",
    "scripts8/newton_chemical_equilibrium:newton", "scripts8/langevin_baoab:force",
    "scripts6/gauss_seidel_early_exit:gauss_seidel", "scripts6/power_iteration_tol:power",
    "scripts6/rk4_zero_d_state:rk4_escape", "scripts6/binomial_tree_paths:binomial#american",
    "scripts6/heat_rebind_unew:heat_swapped", "scripts6/shared_helper_routes:into_view",
    "scripts6/view_rebind_writes:smooth_views", "scripts7/kuramoto_sync:integrate",
]


def script(folder_stem: str):
    name = "np2ref_transforms_" + folder_stem.replace("/", "_")
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, THIRD / f"{folder_stem}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    with contextlib.redirect_stdout(io.StringIO()):
        spec.loader.exec_module(module)
    return module


def inputs(key: str):
    """script:check -> (fn, args, kwargs) from the script's CHECKS."""
    stem, check = key.split(":")
    module = script(stem)
    made = module.CHECKS[check]()
    args, kwargs = (made, {}) if isinstance(made, tuple) else ((), made)
    return getattr(module, check.split("#")[0]), args, kwargs


def survey(key: str, ways=WAYS) -> dict:
    fn, args, kwargs = inputs(key)
    with contextlib.redirect_stdout(io.StringIO()):
        return outcomes(fn, args, kwargs, ways)


if __name__ == "__main__":
    keys = [a for a in sys.argv[1:] if not a.startswith("--ways=")]
    ways = next((tuple(a[7:].split(",")) for a in sys.argv[1:] if a.startswith("--ways=")), WAYS)
    for key in keys or PROGRAMS:
        t = time.time()
        try:
            row = survey(key, ways)
        except Exception as exc:  # noqa: BLE001 - the survey goes on
            row = {"error": f"{type(exc).__name__}: {exc}"[:200]}
        print(f"| {key} | " + " | ".join(f"{k}: {v}" for k, v in row.items()) + f" | {time.time() - t:.0f}s |",
              flush=True)
