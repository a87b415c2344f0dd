"""Simulation and numerics kernels written the way third-party scientific code is written
(tests/programs/simulations.py: molecular dynamics with cell and neighbour lists, SPH, sparse
and iterative solvers, ODE integrators, dynamic programming, image filters, finite volumes,
Monte Carlo with a generator passed in, k-means, union-find...), each against NumPy: results
and every argument after the call (floats to rounding: sums, dots, FMA and XLA's transcendental
functions, docs/semantics.md), and the types of Python scalars in the results."""

from __future__ import annotations


import numpy as np
import pytest
import scipy.sparse

import np2ref
from conftest import ProgramChecks, long_tail

CHECKS = ProgramChecks("simulations")
P, compiled, _same = CHECKS.module, CHECKS.compiled, CHECKS.same

R = np.random.default_rng(1)
_CSR = scipy.sparse.random(12, 12, density=0.3, random_state=3, format="csr")
_SPD = R.random((6, 6))
_K, _V = 3, 4
_EDGES = R.integers(0, 12, (8, 2))
_ADJ = R.random((10, 10)) < 0.2
_C30 = np.zeros(31, dtype=np.uint8)
_C30[15] = 1

CASES = {
    # molecular dynamics, particles
    "minimum_image_energy": (R.random((6, 3)) * 3.0, 3.0, 1.8),  # was NPR107 (a masked read in a binding)
    "cell_list": (R.random((40, 2)) * 2.0, 2.0, 4),
    "neighbour_forces": (R.random((8, 3)) * 4.0, *np.triu_indices(8, 1), 4.0, np.zeros((8, 3))),
    "sph_density": (np.sort(R.random(30)), 0.1, 0.5),
    "verlet_list": (R.random((10, 2)) * 3.0, 3.0, 1.2, 9),
    "wrap_and_reflect": (R.random((20, 2)) * 4.0, R.normal(0, 2, (20, 2)), 4.0, 0.3, 10),
    # sparse and iterative solvers
    "csr_spmv": (_CSR.indptr.astype(np.int64), _CSR.indices.astype(np.int64), _CSR.data, R.random(12)),
    "sor_solve": (R.random((6, 6)) + 6 * np.eye(6), R.random(6)),
    "gauss_seidel_grid": (R.random((8, 9)), R.random((8, 9)), 0.1, 3),
    "conjugate_gradient": (_SPD @ _SPD.T + 6 * np.eye(6), R.random(6)),
    # a time loop keeping a history list: compiled since scripts5 (was NPR021, set-up code)
    "rk4_lorenz": (np.array([1.0, 1.0, 1.05]), 0.01, 50),  # a dict: its order, Python ints
    "gauss_pivot": (R.random((5, 5)), R.random(5)),
    "expm_taylor": (R.random((3, 3)) * 0.5,),
    "newton_sqrt": (R.random(8) * 10,),
    # ODE integrators
    "rk4_tuple": (np.array([1.0, 0.0]), 0.0, 2.0, 40),
    "lotka_volterra": (10.0, 5.0, 1.1, 0.4, 0.4, 0.1, 0.01, 100),
    "adaptive_euler": (1.0, 2.0, 0.5, 1e-3),  # was NPR030 (dt = dt0, dt *= 1.5)
    # dynamic programming
    "edit_distance": (np.array(list(b"kitten")), np.array(list(b"sitting"))),
    "dtw": (R.random(9), R.random(7)),
    "viterbi": (np.log(np.ones(_K) / _K), np.log(R.dirichlet(np.ones(_K), _K)), np.log(R.dirichlet(np.ones(_V), _K)),
                R.integers(0, _V, 10)),
    "smith_waterman": (np.array(list(b"GGTTGACTA")), np.array(list(b"TGTTACGG"))),
    "lcs_length": (np.array(list(b"AGGTAB")), np.array(list(b"GXTXAYB"))),  # was NPR204 (i = n; i -= 1)
    # images, signals
    "separable_blur": (R.random((10, 12)), np.array([0.25, 0.5, 0.25])),
    "sobel_magnitude": (R.random((9, 11)),),
    "median3": (R.random(15),),
    "box_sums": (R.random((8, 10)), 3),
    "equalize": (R.random((8, 8)) ** 2,),
    "smooth_and_detrend": (R.random(30), 5),
    "fft_lowpass": (R.random(32), 5),
    "power_spectrum": (np.sin(2 * np.pi * 3.0 * np.arange(64) * 0.05) + 0.1 * R.random(64), 0.05),
    "fft_convolve2d": (R.random((8, 9)), R.random((3, 3))),
    # finite volumes, cellular automata
    "muscl_advect": (np.where(np.arange(40) < 20, 1.0, 0.0), 0.4, 20),
    "advect_periodic": (np.sin(np.linspace(0, 2 * np.pi, 20)), 0.3, 15),
    "rule30": (_C30, 12),
    # Monte Carlo with the caller's generator, clustering, statistics
    "kmeans": (np.concatenate([R.normal(0, 1, (20, 2)), R.normal(5, 1, (20, 2))]),
               np.array([[0.0, 0.0], [1.0, 1.0]]), 20),  # was NPR030 (centers = new, break on a shift)
    "bootstrap_mean": (R.random(30), np.random.default_rng(4), 50),
    "metropolis_gauss": (0.5, np.random.default_rng(6), 200, 0.8),
    "checkerboard_ising": (np.where(R.random((8, 8)) < 0.5, -1, 1), 0.4, np.random.default_rng(8), 3),
    "inverse_cdf_sample": (R.random(20), np.linspace(0, 1, 20), np.random.default_rng(9), 30),
    "summary_stats": (R.random(21),),
    "digitize_counts": (R.random(50), np.linspace(0.1, 0.9, 5), R.random(50)),
    # graphs, sorting, misc
    "union_roots": (np.arange(12), _EDGES),  # was NPR011 (find's `i = parent[i]`)
    "odd_even_sort": (R.random(9),),
    "insertion_sort": (R.random(12),),
    "normalise_rows": (np.vstack([R.random((3, 4)), np.zeros((1, 4))]),),
    "energy_log": (R.random(4), R.random(4), 0.1, 20),
    # NumPy's own semantics inside such kernels
    "prefix_inplace": (R.random(8),),  # overlapping `a[1:] += a[:-1]`: buffered
    "count_hits": (np.array([1, 3, 3, 0, 1, 1]), 5),  # `counts[idx] += 1`: the last duplicate wins
    "wrap_positions": (R.random(12) * 3 - 1, 1.0),
    "smooth_view": (R.random(10), 0.2),  # a nested helper writing a view of the argument
    "transposed_write": (R.random((3, 4)),),
    "banker_round": (np.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.25, 0.35, -2.675, 2.675]),),
    "neg_divmod": (np.array([-7.5, 7.5, -0.0, 1e-300, -3.0]), np.array([2.0, -2.0, 3.0, -1.0, 1.5])),
    "histogram2d_manual": (R.random(40), R.random(40), 4),
    "masked_mean_update": (R.random(10), R.random(10) < 0.5),  # was NPR107 (x[m] - x[m].mean())
    "poly_fit_eval": (np.linspace(0, 1, 20), R.random(20), 3, np.linspace(0, 1, 7)),  # was NPR004 (np.polyder)
}


# the default run leaves out the cases whose np2ref lines the others cover (conftest.long_tail)
LONG = {"box_sums", "expm_taylor", "fft_lowpass", "histogram2d_manual", "muscl_advect", "newton_sqrt",
        "sobel_magnitude", "viterbi", "wrap_positions"}


@pytest.mark.parametrize("name", long_tail(CASES, LONG))
def test_kernel_matches_numpy(name):
    _same(name, *CASES[name])


REFUSED = {
    # builders of Python lists in a loop that write no array stay NumPy host code
    "mc_pi": ((np.random.default_rng(5), 100, 8), "NPR021"),
    # a queue whose length depends on the data; np.unique's shape does
    "bfs_levels": ((_ADJ | _ADJ.T, 0), "NPR034"),
    "union_components": ((12, _EDGES), "NPR004"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_kernels_np2ref_cannot_keep_exact_are_refused_with_a_code(name):
    args, code = REFUSED[name]
    with pytest.raises(np2ref.Np2RefError, match=code):
        compiled(name)(*args)


def test_cg_reports_its_iterations_as_a_python_int_in_the_dicts_order():
    expected, got = _same("conjugate_gradient", *CASES["conjugate_gradient"])
    assert list(got) == ["x", "iterations", "residual"] and type(got["iterations"]) is int
    assert got["iterations"] == expected["iterations"] < 60  # the break's trip, not the last one
