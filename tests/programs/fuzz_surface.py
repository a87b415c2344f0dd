"""Programs around the forms of the fuzzer's phys_surface family (np2ref/fuzz/surface_families.py)
that np2ref answered with a raw error: tests/fuzz/test_fuzz_surface.py runs each against NumPy."""
import numpy as np


def number_then_array(a):
    """`t = 0.0; t += 0.5 * a[0]`: Python rebinds t to a new array, which is then written (t was
    made a 0-d Ref and added into in place: ValueError)."""
    t = 0.0
    t += 0.5 * a[0]
    t[...] = t * 2 + 1
    return t


def int_then_float_array(a):
    t = 0
    t += 0.5 * a[0]
    m = t < 0.5
    t[m] = t[m] * -1
    return t


def carried_number(a, n):
    """The same in a loop: the first trip rebinds t, the others add into the array it made."""
    t = 0.0
    for i in range(n):
        t += 0.5 * a[i]
        t[0] = 1.0
    t[-1] = 7.0
    return t


def carried_int(a):
    t = 0
    for i in range(a.shape[0]):
        t += a[i] * 2
    t[...] = t * 2 + 1
    return t


def add_at_constants(i, a):
    """np.add.at into an array made from constants (jax 0.10's addupdate discharge called `.at`
    on the constant's NumPy value: AttributeError)."""
    x = np.array([1.0, 2.0, 3.0])
    np.add.at(x, [i, i], a[0])
    y = np.linspace(-0.3, 1.5, 7, dtype=np.float32)
    np.add.at(y, [1, -1, 1], 2.0)
    return x, y


def bump(x):
    x[...] += 1


def tuple_then_unpacked(a):
    """A name bound to the tuple np.linspace(retstep=True) returns, unpacked, then written:
    refused (NPR207) where jax.new_ref of the tuple raised TypeError."""
    x = np.linspace(3.0, 1, a.shape[-1], retstep=True)
    x, dx = x
    bump(x)
    return x, dx


def unpacked_at_once(a):
    x, dx = np.linspace(3.0, 1, a.shape[-1], retstep=True)
    bump(x)
    q, r = np.divmod(a, 2.0)
    q[0] = dx
    return x, q, r
