"""The route estimate of a loop made lanes (rt/vectorise.py) counts the Python trips NumPy runs
(rt/loops.py _npr_note_lanes, runtime/routes.py `lanes`): the batched program shows each loop
once, so a 1000 x 1000 element loop nest (4 s a call in NumPy) was estimated at 49 ms, timed
on NumPy once (a 4 s call) before the jitted route was kept. Issue 39: under 1 s a call."""

from __future__ import annotations

import numpy as np

import np2ref
from conftest import assert_same_as_numpy
from np2ref.runtime import routes
from test_lane_checks import relax  # branches reading neighbours: each lane runs every branch
from test_loop_vectorise import grid as nest


def sweeps(A, B, steps):
    n = A.shape[0]
    for t in range(steps):
        for i in range(1, n - 1):
            B[i] = 0.5 * (A[i] + B[i])
        for i in range(1, n - 1):
            A[i] = 0.5 * (B[i] - A[i])


def test_lanes_are_counted_with_the_trips_of_the_loops_around_them():
    _, _, lanes = np2ref.compile(nest)._traced_for_route((np.zeros((30, 20)), 30, 20))
    assert sum(t for t, _ in lanes) == 30 + 30 * 20 and all(ops > 0 for _, ops in lanes), lanes
    a, b = np.zeros(12), np.zeros(12)
    _, _, lanes = np2ref.compile(sweeps)._traced_for_route((a, b, 5))
    assert sorted(t for t, _ in lanes) == [5 * 10, 5 * 10], lanes  # the time loop's 5 trips


def test_numpys_estimate_grows_with_the_trips_the_lanes_stand_for():
    args = (np.zeros((30, 20)), 30, 20)
    jaxpr, rewrites, lanes = np2ref.compile(nest)._traced_for_route(args)
    alone, _ = routes.estimate(jaxpr, args, [0], rewrites)
    counted, _ = routes.estimate(jaxpr, args, [0], rewrites, lanes=lanes)
    assert counted - alone >= (30 + 600) * routes.NUMPY_TRIP


def test_a_large_element_nest_takes_the_jitted_route_without_timing_numpy():
    g = np.random.default_rng(0).standard_normal((1000, 1000))
    compiled = np2ref.compile(nest, host_below=1000)  # (the tests' default: 0, the jitted route)
    compiled(g.copy(), 1000, 1000)
    assert compiled.route(g, 1000, 1000) == "jit"
    assert "estimated over" in compiled.explain()  # decided up front, not measured


def test_the_nest_is_numpys_bit_for_bit():
    g = np.random.default_rng(1).standard_normal((9, 7))
    compiled = np2ref.compile(nest)  # here, not at collection (each xdist worker collects every module)
    assert_same_as_numpy(nest, compiled, g, 9, 7)
    assert_same_as_numpy(nest, compiled, g, 6, 7)


def test_a_nest_whose_branches_read_neighbours_is_estimated_near_its_cost():
    # the lanes' batched branches select each array they pass on between two copies of itself,
    # broadcast to every lane (n^4 elements), and gather from it: at n = 60 NumPy was estimated
    # at 292 ms and the jitted call at 63 ms (measured: 2 ms and 0.1 ms), at n = 1000 both
    # 1,000-100,000 times over, so NumPy was timed once (2.8 s). Now 16 ms and 1 ms at n = 60.
    n = 60
    old = np.random.default_rng(0).random((n, n))
    args = (np.zeros_like(old), old, n, n)
    jaxpr, rewrites, lanes = np2ref.compile(relax)._traced_for_route(args)
    numpy_us, jit_us = routes.estimate(jaxpr, args, [0], rewrites, lanes=lanes)
    assert jit_us < 5_000 and numpy_us > 10 * jit_us, (numpy_us, jit_us)
