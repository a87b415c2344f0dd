"""One buffer for a parameter a function writes and one it only reads, where the reads all come
no later than the statement that first touches the written one (rules/call_checks.read_first):
NumPy computes that statement's right-hand side before it stores, so a value loaded at the call
is exact. Refused before (NPR201 inside converted code); a function that reads after its
first write stays refused, and np2ref.compile's entry still refuses one buffer for two (NPR206). Found by
tests/third_party/scripts6/{shared_helper_routes,two_names_one_buffer,leapfrog_out_args}.py."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy


def laplacian(u, out):
    out[1:-1] = u[2:] - 2.0 * u[1:-1] + u[:-2]
    out[0] = 0.0
    out[-1] = 0.0
    return out


def diffuse_self(u, steps):
    for s in range(steps):
        w = u.copy()
        laplacian(w, w)
        u += 0.2 * w
    return u


def axpy(alpha, x, y, out):
    np.multiply(alpha, x, out=out)
    out += y  # y read after out is written: with out is y, NumPy adds out to itself
    return out


def chain(x, y):
    axpy(0.5, x, y, y)
    return y


def relax(src, dst):
    dst[1:-1] = 0.5 * (src[:-2] + src[2:])


def edge(src, dst):
    dst[1:-1] = 0.5 * (src[:-2] + src[2:])
    dst[0] = src[1]


def test_a_helper_given_one_buffer_twice_inside_a_loop():
    u = np.zeros(12)
    u[4:7] = 1.0
    assert_same_as_numpy(diffuse_self, np2ref.compile(diffuse_self), u, 5)


def test_a_read_after_the_first_write_stays_refused():
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(chain)(np.arange(4.0), np.ones(4))
    assert info.value.diagnostics[0].code == "NPR201"


def test_the_entry_still_refuses_one_buffer_for_both():
    """At np2ref.compile's entry the host route and the jitted call refuse alike (NPR206,
    tests/host/test_host_route.py): one buffer for two parameters is checked there, not analysed."""
    a = np.arange(8.0)
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(relax)(a, a)
    assert info.value.diagnostics[0].code == "NPR206"
