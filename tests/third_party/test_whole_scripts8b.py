"""Whole scripts of the eighth scripts round's second batch (tests/third_party/scripts8b/), run the two
ways test_whole_scripts7.py runs its own (the converted file's printed text; np2ref.compile of each
function in the script's CHECKS: results, final arguments, dtypes, scalar types, printed text).
The kinds: uint8 image arithmetic and histogram equalisation, Sobel in int16, median filters in
pixel loops, a float32 biquad cascade, Welford and bootstrap statistics, a mortgage table with
half-even rounding and drawdowns, BFS / Floyd-Warshall / union-find on arrays, k-NN and logistic
regression, integer floor division, wraparound, bit operations and hashes.

An entry's expected outcome is "same" or the code of an honest refusal (docs/scripts.md says
why each stays refused)."""

from __future__ import annotations

import pytest

from whole_scripts import ScriptSuite

# script -> the outcome of `np2ref convert` and a run of the converted file
CONVERT = {
    "biquad_float32": "NPR004",
    "dither_colour": "same",
    "graph_bfs_floyd": "NPR004",
    "image_uint8_ops": "NPR107",
    "int_semantics": "same",
    "knn_logreg": "same",
    "lcg_dates": "same",
    "median_filter_loops": "same",
    "mortgage_drawdown": "NPR111",
    "resample_stats": "same",  # (round 11: the float32 pick of `level * decay` checked when it runs)
    "sobel_int16": "same",
    "welford_bootstrap": "same",
}

# "script:check" (a CHECKS key) -> the outcome of np2ref.compile on it
COMPILE = {
    "biquad_float32:cascade": "same",
    "biquad_float32:biquad": "same",
    "biquad_float32:moving_average": "same",
    "biquad_float32:zero_crossings": "NPR004",
    "biquad_float32:decimate_inplace": "same",
    "dither_colour:dither": "same",
    "dither_colour:grey_int": "same",
    "dither_colour:grey_float": "same",
    "dither_colour:ycbcr_y": "same",
    "graph_bfs_floyd:bfs_levels": "NPR011",
    "graph_bfs_floyd:floyd": "same",
    "graph_bfs_floyd:union_find": "NPR004",
    "graph_bfs_floyd:find": "same",
    "image_uint8_ops:brighten": "same",
    "image_uint8_ops:brighten_roi": "same",
    "image_uint8_ops:equalise": "NPR107",
    "image_uint8_ops:invert_and_mean": "same",
    "int_semantics:divmods": "same",
    "int_semantics:divmods#i64": "same",
    "int_semantics:int8_wrap": "same",
    "int_semantics:bits": "same",
    "int_semantics:fnv_hash": "same",
    "int_semantics:poly_hash": "same",
    "int_semantics:scaled_cap": "NPR128",
    "int_semantics:scaled_cap#big": "NPR128",
    "knn_logreg:knn_predict": "same",
    "knn_logreg:one_hot": "same",
    "knn_logreg:logreg": "same",
    "lcg_dates:lcg32": "same",
    "lcg_dates:lcg64": "same",
    "lcg_dates:xorshift": "same",
    "lcg_dates:zeller": "same",
    "lcg_dates:days_from_civil": "same",
    "lcg_dates:days_from_civil#np": "same",
    "median_filter_loops:median3": "same",
    "median_filter_loops:median_inner": "same",
    "median_filter_loops:corrupt": "same",
    "mortgage_drawdown:amortise": "same",
    "mortgage_drawdown:drawdown": "NPR111",
    "mortgage_drawdown:rolling_sharpe": "same",
    "mortgage_drawdown:half_even": "same",
    "resample_stats:envelope": "same",
    "resample_stats:peaks": "same",
    "resample_stats:frame_rms": "same",
    "resample_stats:to_pcm": "same",
    "resample_stats:upsample": "same",
    "sobel_int16:sobel": "same",
    "sobel_int16:sobel_loops": "same",
    "sobel_int16:magnitude": "same",
    "welford_bootstrap:welford": "same",
    "welford_bootstrap:bootstrap": "same",
    "welford_bootstrap:quantile_idx": "same",
    "welford_bootstrap:weighted_hist": "same",
}

# Wrong answers left (not refusals): strict xfails, so a fix shows.
LEFT = {}

# Scripts whose printed numbers come from float32 arithmetic: XLA's FMA contraction and summation
# order round them differently in the last bits (docs/semantics.md, "Floating point"; Welford's
# `m2 += d * (v - mean)` is one FMA), so their text is compared to 1e-6 relative.
FLOAT32_PRINTS = {"biquad_float32", "knn_logreg", "resample_stats", "sobel_int16", "welford_bootstrap"}

# The default run keeps the convert runs that show a fix or a refusal, and the compile checks
# that do (refusals come before any trace: quick); `-m long` runs every script both ways.
DEFAULT_CONVERT = {"biquad_float32", "graph_bfs_floyd"}
DEFAULT_COMPILE = {"biquad_float32:zero_crossings", "graph_bfs_floyd:bfs_levels", "graph_bfs_floyd:union_find",
                   "image_uint8_ops:equalise", "mortgage_drawdown:drawdown", "int_semantics:scaled_cap",
                   "int_semantics:scaled_cap#big", "int_semantics:divmods", "lcg_dates:zeller"}

SUITE = ScriptSuite("scripts8b", CONVERT, COMPILE, left=LEFT, default_convert=DEFAULT_CONVERT,
                    default_compile=DEFAULT_COMPILE, float32_prints=FLOAT32_PRINTS)


@pytest.mark.parametrize("key", SUITE.convert_params())
def test_a_converted_script_prints_what_the_original_prints(key, tmp_path):
    SUITE.check_convert(key, tmp_path)


@pytest.mark.parametrize("key", SUITE.compile_params())
def test_a_compiled_function_gives_numpys_answer(key):
    SUITE.check_compile(key)
