"""A masked store whose value reads a draw through the mask beside another masked read
(`seqs[k][flip] = (seqs[k][flip] + rng.integers(1, 4, size=n)[flip]) % 4`, the substitution
step of scripts13b's upgma_tree). The value is computed on whole arrays, and the whole form of
each masked read was listed again in `masked=` for the pairing check (rewrite/rules/
whole_forms.whole_operands), so the draw was made twice: the first trip's answer was NumPy's and
every later draw of the generator another, a silent wrong answer. Such a store is no longer
computed on whole arrays (whole_forms.drawn_reads): np2ref refuses it (NPR107) or gives NumPy's
answer; the form with the draw bound to a name first is translated and exact."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy


def draw_in_value(rng, n_rows, n, rate):
    seqs = np.zeros((n_rows, n), dtype=np.int64)
    for k in range(n_rows):
        flip = rng.random(n) < rate
        seqs[k][flip] = (seqs[k][flip] + rng.integers(1, 4, size=n)[flip]) % 4
    return seqs


def draw_in_value_flat(rng, x, rate):
    flip = rng.random(x.size) < rate
    x[flip] = x[flip] * rng.random(x.size)[flip]
    return rng.random()  # the generator's next draw shows how many were made


def draw_named(rng, n_rows, n, rate):
    seqs = np.zeros((n_rows, n), dtype=np.int64)
    for k in range(n_rows):
        flip = rng.random(n) < rate
        step = rng.integers(1, 4, size=n)
        seqs[k][flip] = (seqs[k][flip] + step[flip]) % 4
    return seqs


@functools.cache
def compiled(name):
    return np2ref.compile(globals()[name], host_below=0)


def _same_or_refused(name, *args):
    try:
        assert_same_as_numpy(globals()[name], compiled(name), *args)
    except np2ref.Np2RefError as exc:
        assert "NPR107" in str(exc), exc
        return "refused"
    return "same"


@pytest.mark.parametrize("name, args", [
    ("draw_in_value", lambda: (np.random.default_rng(1), 3, 12, 0.2)),
    ("draw_in_value_flat", lambda: (np.random.default_rng(2), np.linspace(1.0, 2.0, 9), 0.5)),
], ids=["rows", "flat"])
def test_a_draw_read_through_the_mask_is_made_once(name, args):
    _same_or_refused(name, *args())


def test_the_draw_bound_to_a_name_first_is_translated():
    assert _same_or_refused("draw_named", np.random.default_rng(1), 3, 12, 0.2) == "same"


# ---- the same duplication through a masked reduction (refused: plan_masked_reduce) and a
# selection name's value (refused now, NPR107: rules/selections.plan_selection; it was made twice,
# npr_select_whole's `masked=` listing the draw's whole form again). Bound to a name first, exact.


def drawn_selection(rng, x):
    m = x > 0.5
    v = x[m]
    w = v * rng.random(x.size)[m]
    return w.sum(), rng.random()


def drawn_selection_named(rng, x):
    m = x > 0.5
    v = x[m]
    r = rng.random(x.size)
    w = v * r[m]
    return w.sum(), rng.random()


def drawn_reduction(rng, x):
    m = x > 0.5
    return np.sum(x[m] * rng.random(x.size)[m]), rng.random()


def test_a_draw_read_through_the_mask_of_a_reduction_is_made_once():
    _same_or_refused("drawn_reduction", np.random.default_rng(1), np.linspace(0.0, 1.0, 9))


def test_a_draw_read_through_the_mask_of_a_selection_is_made_once():
    _same_or_refused("drawn_selection", np.random.default_rng(1), np.linspace(0.0, 1.0, 9))


def test_a_selection_of_a_draw_bound_to_a_name_is_translated():
    assert _same_or_refused("drawn_selection_named", np.random.default_rng(1), np.linspace(0.0, 1.0, 9)) == "same"
