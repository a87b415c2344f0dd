"""`for mask in (red, black): u[mask] += omega * r[mask]` and `np.max(np.abs(r[mask]))` in the
loop: the loop's target walks a tuple of masks, not integers, so the statements take the
masked forms (npr_mask_store, npr_masked_reduce) as with a mask bound by name; before, the loop
variable counted as an integer and the masked read reached jit (NPR107, data-dependent shape).
The tuple's names of unknown kind (a parameter, its `~`) are decided when traced, as a
parameter used as an index is: integer index arrays there keep NumPy's fancy-store semantics."""

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

RNG = np.random.default_rng(0)
U = RNG.standard_normal((7, 7))
MASK = RNG.random(9) < 0.5


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(program("mask_loops"), name), host_below=0)


@pytest.mark.parametrize("name, args", [
    ("red_black", (U, RNG.standard_normal((7, 7)), 1.5)),
    ("parameter_and_its_complement", (RNG.standard_normal(9), RNG.standard_normal(9), MASK)),
    ("index_arrays", (np.zeros(6), np.arange(6.0), np.array([0, 2, 2, 5]), np.array([1, 1, 3]))),
    ("integers", (np.arange(4.0),)),
])
def test_masks_walked_by_a_loop_are_stored_and_reduced_as_numpy_does(name, args):
    assert_same_as_numpy(getattr(program("mask_loops"), name), compiled(name), *args)
