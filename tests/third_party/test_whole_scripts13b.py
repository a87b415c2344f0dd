"""Whole scripts of the thirteenth scripts round, second batch (tests/third_party/scripts13b/),
run by the shared harness (whole_scripts.ScriptSuite: the converted file's printed text;
np2ref.compile of each function in the script's CHECKS: results, final arguments, dtypes, scalar
types, printed text). The kinds: statistics, machine learning, signal processing, graphs, finance
and biology: a Gibbs sampler for a Gaussian mixture, Baum-Welch for a hidden Markov model, GARCH(1,1)
by a hand-written Nelder-Mead, Dijkstra / Bellman-Ford / Johnson on arrays with np.inf, an int64
limit order book, Black-Scholes and Heston Monte Carlo in float32, an STFT spectral gate with
overlap-add, an lfilter-style filter bank, NMF by multiplicative updates, a chain-binomial SIR over
towns, Gaussian-process regression with a jittered Cholesky in try/except, and UPGMA on int8
sequences.

An entry's expected outcome is "same" or the code of an honest refusal (docs/scripts.md,
"Thirteenth round (b)", says why each stays refused)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from whole_scripts import ScriptSuite

# script -> the outcome of `np2ref convert` and a run of the converted file
CONVERT = {
    "baum_welch_hmm": "same",
    "chain_binomial_sir": "NPR011",
    "garch_nelder_mead": "NPR037",
    "gibbs_gmm": "same",
    "gp_cholesky_jitter": "same",
    "heston_float32_mc": "same",
    "lfilter_bank": "same",
    "nmf_multiplicative": "same",
    "order_book_int64": "same",
    "shortest_paths": "same",
    "stft_spectral_gate": "same",
    "upgma_tree": "same",
}

# "script:check" (a CHECKS key) -> the outcome of np2ref.compile on it
COMPILE = {
    "baum_welch_hmm:baum_welch": "same",
    "baum_welch_hmm:forward": "same",
    "baum_welch_hmm:posterior_decode": "same",
    "chain_binomial_sir:step_seeded": "same",
    "chain_binomial_sir:outbreak": "same",
    "chain_binomial_sir:reed_frost": "NPR011",
    "chain_binomial_sir:final_sizes": "NPR011",
    "chain_binomial_sir:infection_prob": "same",
    "garch_nelder_mead:nelder_mead": "NPR037",
    "garch_nelder_mead:neg_loglik": "same",
    "garch_nelder_mead:neg_loglik#outside": "same",
    "garch_nelder_mead:forecast": "same",
    "garch_nelder_mead:simulate": "same",
    "gibbs_gmm:gibbs": "same",
    "gibbs_gmm:draw_assignments": "same",
    "gibbs_gmm:draw_parameters": "same",
    "gibbs_gmm:relabel": "same",
    "gp_cholesky_jitter:fit_predict": "NPR021",
    "gp_cholesky_jitter:fit_predict#dup": "NPR021",
    "gp_cholesky_jitter:chol_jitter": "same",
    "gp_cholesky_jitter:forward_sub": "same",
    "gp_cholesky_jitter:back_sub_t": "same",
    "gp_cholesky_jitter:grid_search": "NPR021",
    "heston_float32_mc:gbm_paths": "same",
    "heston_float32_mc:heston_paths": "same",
    "heston_float32_mc:price": "same",
    "heston_float32_mc:antithetic": "same",
    "lfilter_bank:lfilter": "same",
    "lfilter_bank:lfilter#fir": "same",
    "lfilter_bank:run_bank": "same",
    "lfilter_bank:process": "same",
    "lfilter_bank:band_energies": "same",
    "lfilter_bank:moving_average": "same",
    "lfilter_bank:make_input": "NPR031",
    "nmf_multiplicative:nmf_fro": "same",
    "nmf_multiplicative:nmf_fro#float32": "same",
    "nmf_multiplicative:nmf_kl": "same",
    "nmf_multiplicative:normalise": "same",
    "nmf_multiplicative:top_rows": "same",
    "nmf_multiplicative:kl_div": "same",
    "order_book_int64:simulate": "same",
    "order_book_int64:market_order": "same",
    "order_book_int64:market_order#empty": "same",
    "order_book_int64:cancel": "same",
    "order_book_int64:best_bid": "same",
    "order_book_int64:best_ask#none": "same",
    "shortest_paths:random_graph": "NPR023",
    "shortest_paths:random_graph_full": "same",
    "shortest_paths:dijkstra": "same",
    "shortest_paths:dijkstra#sparse": "same",
    "shortest_paths:bellman_ford": "same",
    "shortest_paths:bellman_ford#cycle": "same",
    "shortest_paths:johnson": "same",
    "shortest_paths:path_to": "NPR034",
    "stft_spectral_gate:denoise": "same",
    "stft_spectral_gate:frame_signal": "same",
    "stft_spectral_gate:gate_mask": "same",
    "stft_spectral_gate:istft": "same",
    "stft_spectral_gate:snr_db": "same",
    "upgma_tree:evolve": "NPR107",
    "upgma_tree:evolve_named": "same",
    "upgma_tree:distances": "same",
    "upgma_tree:distances#saturated": "same",
    "upgma_tree:upgma": "same",
    "upgma_tree:build": "same",
    "upgma_tree:newick": "NPR031",
}

# (garch_nelder_mead:neg_loglik#outside, a wrong answer left in round 13, fixed in round 14: nested early
# returns keep the flag of the path the data took, rt/early_exit._npr_if_returning)
LEFT = {}

# Scripts whose printed numbers come from float32 arithmetic (XLA's FFT, exp and FMA contraction,
# docs/semantics.md "Floating point"): compared to 1e-6 relative.
FLOAT32_PRINTS = {"heston_float32_mc", "stft_spectral_gate", "nmf_multiplicative"}

# The default run keeps the fixes and the refusals of this round (a quick check each); `-m long`
# runs every script both ways.
DEFAULT_CONVERT = {"heston_float32_mc"}
DEFAULT_COMPILE = {"order_book_int64:market_order", "garch_nelder_mead:neg_loglik#outside", "chain_binomial_sir:reed_frost",
                   "shortest_paths:random_graph", "shortest_paths:path_to", "lfilter_bank:make_input",
                   "gp_cholesky_jitter:chol_jitter", "upgma_tree:evolve", "upgma_tree:evolve_named", "upgma_tree:newick",
                   "baum_welch_hmm:forward", "gibbs_gmm:relabel"}

SUITE = ScriptSuite("scripts13b", CONVERT, COMPILE, left=LEFT, default_convert=DEFAULT_CONVERT,
                    default_compile=DEFAULT_COMPILE, float32_prints=FLOAT32_PRINTS)


@pytest.mark.parametrize("key", SUITE.convert_params())
def test_a_converted_script_prints_what_the_original_prints(key, tmp_path):
    SUITE.check_convert(key, tmp_path)


@pytest.mark.parametrize("key", SUITE.compile_params())
def test_a_compiled_function_gives_numpys_answer(key):
    SUITE.check_compile(key)


# ---- the wrong answer left in round 13, minimised (fixed in round 14: rt/early_exit.py) -------------

def two_early_returns(x):
    if x[0] < 0.0:
        return 2.5
    if x[1] < 0.0:
        return 1.5
    return x[0] * 2.0


@functools.cache
def _two_early_returns():
    return np2ref.compile(two_early_returns, host_below=0)


@pytest.mark.parametrize("x", [[1.0, 2.0], [-1.0, 2.0]])
def test_a_first_early_python_float_is_numpys(x):
    x = np.array(x)
    got, want = _two_early_returns()(x), two_early_returns(x)
    assert type(got) is type(want) and got == want


def test_a_second_early_python_float_is_numpys():
    x = np.array([1.0, -2.0])
    got, want = _two_early_returns()(x), two_early_returns(x)
    assert type(got) is type(want) and got == want
