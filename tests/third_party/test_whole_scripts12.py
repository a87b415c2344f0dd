"""Whole scripts of the twelfth scripts round (tests/third_party/scripts12/), run by the shared
harness (whole_scripts.ScriptSuite: the converted file's printed text; np2ref.compile of each
function in the script's CHECKS: results, final arguments, dtypes, scalar types, printed text).
The kinds: simulated annealing with 2-opt reversals, the cyclic Jacobi eigenvalue method by
rotations of rows and columns, Householder QR for least squares beside modified Gram-Schmidt,
CSR assembly from duplicate COO triplets with Gauss-Seidel / SOR sweeps, the FPUT chain's mode
energies, Monte Carlo photon transport through a slab, a genetic algorithm on int8 genomes,
AdaBoost with decision stumps, Hodgkin-Huxley neurons in float32, Holt-Winters smoothing with a
grid search, an LSD radix sort of uint32 keys, FIRE minimisation of a spring network, a float32
bank ledger with a teller queue, and a separable blur / unsharp mask / histogram equalisation.

An entry's expected outcome is "same" or the code of an honest refusal (docs/scripts.md, "Twelfth
round", says why each stays refused)."""

from __future__ import annotations

import pytest

from whole_scripts import ScriptSuite

# script -> the outcome of `np2ref convert` and a run of the converted file
CONVERT = {
    "adaboost_stumps": "same",
    "bank_ledger_float32": "same",
    "csr_gauss_seidel_sor": "same",
    "fire_spring_network": "same",
    "fput_chain_modes": "same",
    "genetic_knapsack": "same",
    "hodgkin_huxley_float32": "same",
    "holt_winters_forecast": "same",
    "householder_qr_lstsq": "same",
    "image_blur_equalise": "same",
    "jacobi_eigen_rotations": "same",
    "photon_slab_mc": "same",
    "radix_sort_uint32": "same",
    "sa_tsp_two_opt": "same",
}

# "script:check" (a CHECKS key) -> the outcome of np2ref.compile on it
COMPILE = {
    "adaboost_stumps:boost": "same",
    "adaboost_stumps:best_stump": "same",
    "adaboost_stumps:best_stump#ties": "same",
    "adaboost_stumps:stump_predict": "same",
    "bank_ledger_float32:month": "same",
    "bank_ledger_float32:month#tuple": "same",
    "bank_ledger_float32:post": "same",
    "bank_ledger_float32:post#ok": "same",
    "bank_ledger_float32:teller_waits": "same",
    "csr_gauss_seidel_sor:coo_to_csr": "same",
    "csr_gauss_seidel_sor:csr_matvec": "same",
    "csr_gauss_seidel_sor:solve": "same",
    "csr_gauss_seidel_sor:solve#sor": "same",
    "csr_gauss_seidel_sor:solve#ssor": "same",
    "fire_spring_network:fire": "same",
    "fire_spring_network:fire#short": "same",
    "fire_spring_network:forces": "same",
    "fire_spring_network:steepest": "same",
    "fput_chain_modes:run": "same",
    "fput_chain_modes:force": "same",
    "fput_chain_modes:mode_energies": "same",
    "fput_chain_modes:initial": "same",
    "fput_chain_modes:initial#tuple": "same",
    "genetic_knapsack:evolve": "same",
    "genetic_knapsack:fitness": "same",
    "genetic_knapsack:repair": "same",
    "genetic_knapsack:crossover": "same",
    "genetic_knapsack:tournament": "same",
    "hodgkin_huxley_float32:simulate": "same",
    "hodgkin_huxley_float32:simulate#list": "same",
    "hodgkin_huxley_float32:step": "same",
    "hodgkin_huxley_float32:rates": "same",
    "hodgkin_huxley_float32:resting": "same",
    "holt_winters_forecast:fit": "same",
    "holt_winters_forecast:fit#array": "same",
    "holt_winters_forecast:forecast": "same",
    "holt_winters_forecast:init_state": "same",
    "holt_winters_forecast:grid_search": "NPR031",
    "householder_qr_lstsq:lstsq_qr": "same",
    "householder_qr_lstsq:lstsq_qr#deg4": "same",
    "householder_qr_lstsq:householder": "same",
    "householder_qr_lstsq:apply_qt": "same",
    "householder_qr_lstsq:back_substitute": "same",
    "householder_qr_lstsq:mgs": "same",
    "householder_qr_lstsq:vandermonde": "same",
    "image_blur_equalise:blur": "same",
    "image_blur_equalise:blur_rows": "same",
    "image_blur_equalise:unsharp": "same",
    "image_blur_equalise:equalise": "same",
    "image_blur_equalise:border_box": "same",
    "jacobi_eigen_rotations:jacobi_eig": "same",
    "jacobi_eigen_rotations:rotate": "same",
    "jacobi_eigen_rotations:off_norm": "same",
    "jacobi_eigen_rotations:naive_rotate": "same",
    "jacobi_eigen_rotations:residual": "same",
    "photon_slab_mc:transport": "same",
    "photon_slab_mc:transport#capped": "same",
    "photon_slab_mc:hg_cosine": "same",
    "photon_slab_mc:hg_cosine#iso": "same",
    "photon_slab_mc:launch": "same",
    "radix_sort_uint32:radix_sort": "same",
    "radix_sort_uint32:scatter_pass": "same",
    "radix_sort_uint32:counting_sort_repeat": "NPR031",
    "radix_sort_uint32:counting_sort": "same",
    "radix_sort_uint32:is_sorted": "same",
    "sa_tsp_two_opt:anneal": "same",
    "sa_tsp_two_opt:anneal#slices": "NPR111",
    "sa_tsp_two_opt:reverse_segment": "same",
    "sa_tsp_two_opt:reverse_where": "same",
    "sa_tsp_two_opt:shift_city": "same",
    "sa_tsp_two_opt:tour_length": "same",
    "sa_tsp_two_opt:lowest_prefix": "NPR030",
    "sa_tsp_two_opt:polish": "same",
}

# Wrong answers left (not refusals): strict xfails, so a fix shows. None found this round.
LEFT: dict = {}

# Scripts whose printed numbers come from float32 arithmetic (XLA's exp and FMA contraction,
# docs/semantics.md "Floating point"): compared to 1e-6 relative.
FLOAT32_PRINTS = {"hodgkin_huxley_float32"}

# The default run keeps the refusals and the fixes of this round (a quick check each) and two
# quick converts; `-m long` runs every script both ways.
DEFAULT_CONVERT = {"fire_spring_network", "holt_winters_forecast"}
DEFAULT_COMPILE = {"genetic_knapsack:fitness", "fire_spring_network:fire#short", "sa_tsp_two_opt:anneal",
                   "sa_tsp_two_opt:anneal#slices", "sa_tsp_two_opt:lowest_prefix", "holt_winters_forecast:grid_search",
                   "radix_sort_uint32:counting_sort_repeat", "jacobi_eigen_rotations:rotate",
                   "householder_qr_lstsq:apply_qt", "photon_slab_mc:hg_cosine", "bank_ledger_float32:post",
                   "image_blur_equalise:unsharp", "hodgkin_huxley_float32:step", "adaboost_stumps:stump_predict"}

SUITE = ScriptSuite("scripts12", CONVERT, COMPILE, left=LEFT, default_convert=DEFAULT_CONVERT,
                    default_compile=DEFAULT_COMPILE, float32_prints=FLOAT32_PRINTS)


@pytest.mark.parametrize("key", SUITE.convert_params())
def test_a_converted_script_prints_what_the_original_prints(key, tmp_path):
    SUITE.check_convert(key, tmp_path)


@pytest.mark.parametrize("key", SUITE.compile_params())
def test_a_compiled_function_gives_numpys_answer(key):
    SUITE.check_compile(key)
