"""Whole scripts of the thirteenth scripts round, first batch (tests/third_party/scripts13a/): physics,
engineering and numerical methods, run by the shared harness (whole_scripts.ScriptSuite: the
converted file's printed text; np2ref.compile of each function in the script's CHECKS: results,
final arguments, dtypes, scalar types, printed text). The kinds: a 2-D Euler solver (MUSCL, HLL,
ghost cells through views, dimensional splitting by a transposed copy), P1 finite elements with
np.add.at into a dense stiffness and CG by in-place axpys, a recursive 2-D multigrid V-cycle by
strided slices, rotating shallow water on a staggered C-grid, a particle-mesh gravity code with
np.fft, a uint8 heightfield ray marcher, an Euler-Bernoulli beam by Newmark-beta, semi-Lagrangian
advection (np.interp with period=, bilinear and cubic gathers), steady 3-D heat by np.pad and a
convergence while loop, Schnakenberg patterns in float32 from jax.Arrays, a complex128/complex64
Schrodinger packet (split-step FFT and a complex Thomas solve), and a Boris pusher with int8
charges, np.cross and np.mod wraps of -0.0.

An entry's expected outcome is "same" or the code of an honest refusal (docs/scripts.md, "Thirteenth
round (a)", says why each stays refused)."""

from __future__ import annotations

import pytest

from whole_scripts import ScriptSuite

# script -> the outcome of `np2ref convert` and a run of the converted file
CONVERT = {
    "beam_newmark": "same",
    "boris_pusher": "same",
    "euler2d_muscl_hll": "same",
    "fem2d_poisson_cg": "same",
    "heat3d_pad_steady": "same",
    "heightfield_raymarch": "same",
    "multigrid_vcycle_2d": "same",
    "particle_mesh_fft": "same",
    "schnakenberg_float32": "same",
    "schrodinger_tunnelling": "same",
    "semi_lagrangian": "same",
    "shallow_water_cgrid": "same",
}

# "script:check" (a CHECKS key) -> the outcome of np2ref.compile on it
COMPILE = {
    "beam_newmark:newmark": "same",
    "beam_newmark:assemble": "same",
    "beam_newmark:element": "same",
    "beam_newmark:frequencies": "same",
    # a function holding a `try` stays NumPy (its hint: compile what the `try` guards)
    "beam_newmark:solve_or_lstsq": "same",
    "beam_newmark:solve_or_lstsq#singular": "same",
    # too timid (breaks13's area): reached from the module's `try` and writing only its own
    # np.zeros, no argument, it still stays NumPy
    "beam_newmark:tip_deflection": "NPR021",
    "beam_newmark:rayleigh": "same",
    "boris_pusher:boris": "same",
    "boris_pusher:boris#electric": "same",
    "boris_pusher:gather": "same",
    "boris_pusher:drift_speed": "same",
    "boris_pusher:wrap_signs": "same",
    "boris_pusher:fields": "same",
    "euler2d_muscl_hll:advance": "same",
    "euler2d_muscl_hll:fill_ghosts": "same",
    "euler2d_muscl_hll:sweep_x": "same",
    "euler2d_muscl_hll:hll_x": "same",
    "euler2d_muscl_hll:swap_xy": "same",
    "euler2d_muscl_hll:max_speed": "same",
    "fem2d_poisson_cg:assemble": "same",
    "fem2d_poisson_cg:assemble_loop": "same",
    "fem2d_poisson_cg:element_matrices": "same",
    "fem2d_poisson_cg:apply_dirichlet": "same",
    "fem2d_poisson_cg:cg": "same",
    "fem2d_poisson_cg:cg#start": "same",
    "heat3d_pad_steady:solve": "same",
    "heat3d_pad_steady:solve#diverge": "same",
    "heat3d_pad_steady:sweep": "same",
    "heat3d_pad_steady:padded": "same",
    "heat3d_pad_steady:cold_face_flux": "same",
    "heightfield_raymarch:render": "same",
    "heightfield_raymarch:height": "same",
    "heightfield_raymarch:march": "same",
    "heightfield_raymarch:shade": "same",
    "heightfield_raymarch:march_pixel": "same",
    "heightfield_raymarch:march_pixel#sky": "same",
    "heightfield_raymarch:camera_rays": "same",
    "multigrid_vcycle_2d:solve": "same",
    "multigrid_vcycle_2d:solve#loose": "same",
    "multigrid_vcycle_2d:smooth": "same",
    "multigrid_vcycle_2d:residual": "same",
    "multigrid_vcycle_2d:restrict": "same",
    "multigrid_vcycle_2d:prolong": "same",
    "multigrid_vcycle_2d:vcycle": "same",
    "particle_mesh_fft:simulate": "same",
    "particle_mesh_fft:deposit": "same",
    "particle_mesh_fft:cic_weights": "same",
    "particle_mesh_fft:potential": "same",
    "particle_mesh_fft:field": "same",
    "particle_mesh_fft:gather": "same",
    "schnakenberg_float32:simulate": "same",
    "schnakenberg_float32:simulate#numpy": "same",
    "schnakenberg_float32:laplacian": "same",
    "schnakenberg_float32:reactions": "same",
    "schnakenberg_float32:stats": "same",
    "schrodinger_tunnelling:split_step": "same",
    "schrodinger_tunnelling:split_step#complex64": "same",
    "schrodinger_tunnelling:thomas_complex": "same",
    "schrodinger_tunnelling:crank_nicolson": "same",
    "schrodinger_tunnelling:observables": "same",
    "schrodinger_tunnelling:real_start": "same",
    "schrodinger_tunnelling:packet": "same",
    "semi_lagrangian:advect_1d": "same",
    "semi_lagrangian:bilinear": "same",
    "semi_lagrangian:cubic_x": "same",
    "semi_lagrangian:departure": "same",
    "semi_lagrangian:rotate": "same",
    "semi_lagrangian:rotate#cubic": "same",
    "shallow_water_cgrid:run": "same",
    "shallow_water_cgrid:step": "same",
    "shallow_water_cgrid:v_at_u": "same",
    "shallow_water_cgrid:u_at_v": "same",
    "shallow_water_cgrid:geostrophic_error": "same",
    "shallow_water_cgrid:energy": "same",
}

# Wrong answers left (not refusals): strict xfails, so a fix shows. None found this round.
LEFT: dict = {}

# Scripts whose printed numbers come from float32 arithmetic (XLA's FMA contraction, also with
# bitwise=True on this machine; complex64 FFTs): compared to 1e-6 relative.
FLOAT32_PRINTS = {"schnakenberg_float32", "schrodinger_tunnelling"}

# The default run keeps this round's fixes (the `"%.5e" % x` print beside other values, a module
# constant rebound before the first def), the refusals, and a quick check of each script;
# `-m long` runs every script both ways.
DEFAULT_CONVERT = {"multigrid_vcycle_2d"}
DEFAULT_COMPILE = {"multigrid_vcycle_2d:solve#loose", "heightfield_raymarch:shade", "beam_newmark:solve_or_lstsq",
                   "beam_newmark:tip_deflection", "schrodinger_tunnelling:real_start", "boris_pusher:wrap_signs",
                   "euler2d_muscl_hll:fill_ghosts", "semi_lagrangian:bilinear", "fem2d_poisson_cg:apply_dirichlet",
                   "shallow_water_cgrid:step", "particle_mesh_fft:deposit", "heat3d_pad_steady:sweep",
                   "schnakenberg_float32:reactions"}

SUITE = ScriptSuite("scripts13a", CONVERT, COMPILE, left=LEFT, default_convert=DEFAULT_CONVERT,
                    default_compile=DEFAULT_COMPILE, float32_prints=FLOAT32_PRINTS,
                    tpu_refused={"beam_newmark", "boris_pusher", "schrodinger_tunnelling"})


@pytest.mark.parametrize("key", SUITE.convert_params())
def test_a_converted_script_prints_what_the_original_prints(key, tmp_path):
    SUITE.check_convert(key, tmp_path)


@pytest.mark.parametrize("key", SUITE.compile_params())
def test_a_compiled_function_gives_numpys_answer(key):
    SUITE.check_compile(key)
