"""Third-party-style probes: object-oriented simulation code (classes and dataclasses holding
arrays, `step()` methods mutating `self.u`), interprocedural mutation (boundary-condition helpers,
helpers returning views, `out` parameters, recursion, callbacks), dtype edges (uint8 and int32
wraparound, NEP 50 promotion, bool arithmetic, negative integer division, complex arrays), and
np.linalg / np.fft inside loops, written as scientists write them
(tests/third_party/test_objects_and_dtypes.py runs each against NumPy)."""
import functools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np


# --- 1. object-oriented simulation code ------------------------------------------------------

class Heat1D:
    def __init__(self, u, alpha):
        self.u = u
        self.alpha = alpha

    def step(self):
        self.u[1:-1] += self.alpha * (self.u[2:] - 2 * self.u[1:-1] + self.u[:-2])

    def energy(self):
        return float(np.sum(self.u ** 2))


def heat_object_local(u, alpha, steps):
    """The object is made inside the function, from the argument."""
    sim = Heat1D(u, alpha)
    for _ in range(steps):
        sim.step()
    return sim.energy()


def advance_object(sim, steps):
    """A function taking the object itself."""
    for _ in range(steps):
        sim.step()
    return sim.u.sum()


@dataclass
class Particles:
    x: np.ndarray
    v: np.ndarray
    m: float = 1.0


def leapfrog_dataclass(p, dt, steps):
    for _ in range(steps):
        p.v -= dt * p.x / p.m
        p.x += dt * p.v
    return p.x.copy()


def dataclass_built_inside(x, v, dt, steps):
    p = Particles(x.copy(), v.copy())
    for _ in range(steps):
        p.v -= dt * p.x
        p.x += dt * p.v
    return p.x, p.v


class Params(NamedTuple):
    dt: float
    k: float


def namedtuple_params(u, params, steps):
    for _ in range(steps):
        u -= params.dt * params.k * u
    return u


class Constants:
    G = 9.81
    DT = 0.01


def class_attribute_constants(y, vy, steps):
    for _ in range(steps):
        vy -= Constants.G * Constants.DT
        y += vy * Constants.DT
    return y, vy


class Rebinding:
    def __init__(self, state):
        self.state = state

    def step(self, a):
        self.state = a @ self.state  # rebinds, does not write the old array


def rebinding_state(a, x, steps):
    r = Rebinding(x)
    for _ in range(steps):
        r.step(a)
    return r.state


class Counter:
    def __init__(self):
        self.n = 0
        self.total = 0.0


def object_counting(x):
    c = Counter()
    for v in x:
        if v > 0:
            c.n += 1
            c.total += v
    return c.n, c.total


class Wave2D:
    def __init__(self, n, c):
        self.u = np.zeros((n, n))
        self.u_prev = np.zeros((n, n))
        self.c = c

    def step(self):
        lap = self.u[2:, 1:-1] + self.u[:-2, 1:-1] + self.u[1:-1, 2:] + self.u[1:-1, :-2] - 4 * self.u[1:-1, 1:-1]
        new = 2 * self.u - self.u_prev
        new[1:-1, 1:-1] += self.c ** 2 * lap
        self.u_prev = self.u
        self.u = new


def wave_object(n, c, steps):
    w = Wave2D(n, c)
    w.u[n // 2, n // 2] = 1.0
    for _ in range(steps):
        w.step()
    return w.u


# --- 2. interprocedural mutation -------------------------------------------------------------

def apply_bc(u):
    u[0] = u[1]
    u[-1] = u[-2]


def diffuse_neumann(u, alpha, steps):
    for _ in range(steps):
        u[1:-1] += alpha * (u[2:] - 2 * u[1:-1] + u[:-2])
        apply_bc(u)
    return u


def diffuse_columns_bc(u, alpha, steps):
    """The helper called on column views."""
    for _ in range(steps):
        u[1:-1, :] += alpha * (u[2:, :] - 2 * u[1:-1, :] + u[:-2, :])
        apply_bc(u[:, 0])
        apply_bc(u[:, -1])
    return u


def periodic_bc_2d(f):
    f[0, :] = f[-2, :]
    f[-1, :] = f[1, :]
    f[:, 0] = f[:, -2]
    f[:, -1] = f[:, 1]


def smooth_periodic(f, steps):
    for _ in range(steps):
        periodic_bc_2d(f)
        f[1:-1, 1:-1] = 0.25 * (f[2:, 1:-1] + f[:-2, 1:-1] + f[1:-1, 2:] + f[1:-1, :-2])
    periodic_bc_2d(f)
    return f


def interior(u):
    return u[1:-1]


def zero_interior_via_helper(u):
    interior(u)[:] = 0.0
    return u


def scale_interior_via_helper(u, s):
    v = interior(u)
    v *= s
    return u


def row_of(a, i):
    return a[i]


def rows_written_through_helper(a):
    for i in range(a.shape[0]):
        r = row_of(a, i)
        r += i
    return a


def set_row(a, i, val):
    a[i, :] = val


def rows_by_helper_in_loop(a):
    for i in range(a.shape[0]):
        set_row(a, i, a[i].sum())
    return a


def laplacian_out(u, out):
    out[1:-1] = u[2:] - 2 * u[1:-1] + u[:-2]
    out[0] = 0.0
    out[-1] = 0.0


def euler_with_out(u, dt, steps):
    lap = np.empty_like(u)
    for _ in range(steps):
        laplacian_out(u, lap)
        u += dt * lap
    return u, lap


def merge_sort_inplace(a, lo, hi):
    """Recursive in-place merge sort on a[lo:hi] (static bounds)."""
    if hi - lo <= 1:
        return
    mid = (lo + hi) // 2
    merge_sort_inplace(a, lo, mid)
    merge_sort_inplace(a, mid, hi)
    merged = np.sort(a[lo:hi])
    a[lo:hi] = merged


def recursive_sort(a):
    merge_sort_inplace(a, 0, len(a))
    return a


def bisect_fill(a, lo, hi, depth):
    """Recursive subdivision: each level writes the midpoint."""
    if depth == 0 or hi - lo < 2:
        return
    mid = (lo + hi) // 2
    a[mid] = 0.5 * (a[lo] + a[hi])
    bisect_fill(a, lo, mid, depth - 1)
    bisect_fill(a, mid, hi, depth - 1)


def midpoint_subdivision(a):
    bisect_fill(a, 0, len(a) - 1, 3)
    return a


def decay_rhs(y, k):
    return -k * y


def rk4_step(f, y, dt):
    k1 = f(y)
    k2 = f(y + 0.5 * dt * k1)
    k3 = f(y + 0.5 * dt * k2)
    k4 = f(y + dt * k3)
    return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def rk4_partial(y0, k, dt, steps):
    f = functools.partial(decay_rhs, k=k)
    y = y0.copy()
    for _ in range(steps):
        y = rk4_step(f, y, dt)
    return y


def rk4_lambda(y0, k, dt, steps):
    y = y0.copy()
    for _ in range(steps):
        y = rk4_step(lambda z: -k * z, y, dt)
    return y


def accumulate_default(x, out=None):
    if out is None:
        out = np.zeros_like(x)
    out += x
    return out


def uses_default_none(x):
    a = accumulate_default(x)
    b = accumulate_default(x, a)
    return a, b


def axpy(y, x, alpha):
    y += alpha * x


def axpy_same_buffer(u, alpha):
    axpy(u, u, alpha)
    return u


def axpy_overlapping_views(u, alpha):
    axpy(u[1:], u[:-1], alpha)  # dst and src overlap: NumPy's ufunc buffers the source
    return u


def step_pair(u, v, dt):
    u_new = u + dt * v
    v_new = v - dt * u
    return u_new, v_new


def tuple_return_helper(u, v, dt, steps):
    for _ in range(steps):
        u, v = step_pair(u, v, dt)
    return u, v


def normalise_inplace(x):
    x /= np.linalg.norm(x)
    return x


def returns_its_argument(x, a):
    y = normalise_inplace(x)
    y[0] = a  # y is x
    return x


def sweep(u):
    u[1:-1] = 0.5 * (u[2:] + u[:-2])
    apply_bc(u)


def nested_helpers(u, n):
    for _ in range(n):
        sweep(u)
    return u


def swap_rows(a, i, j):
    a[[i, j]] = a[[j, i]]


def gaussian_elimination_pivot(a, b):
    a = a.copy()
    b = b.copy()
    n = len(b)
    for k in range(n):
        p = k + int(np.argmax(np.abs(a[k:, k])))
        swap_rows(a, k, p)
        b[[k, p]] = b[[p, k]]
        for i in range(k + 1, n):
            f = a[i, k] / a[k, k]
            a[i, k:] -= f * a[k, k:]
            b[i] -= f * b[k]
    return np.linalg.solve(np.triu(a), b)


# --- 3. dtype edges ---------------------------------------------------------------------------

def brighten_uint8(img):
    return img + 50  # wraps modulo 256


def brighten_uint8_inplace(img):
    img += 50
    return img


def uint8_difference(a, b):
    return a - b, np.abs(a.astype(int) - b.astype(int))


def uint8_mean_and_sum(img):
    return img.sum(), img.mean(), img.max() - img.min()


def int32_accumulate(x):
    acc = np.zeros(1, dtype=np.int32)
    for v in x:
        acc[0] += v * v
    return acc


def int32_reductions(x):
    return x.sum(), np.cumsum(x), x.prod(), (x * x).dtype


def int8_cumsum(x):
    return np.cumsum(x, dtype=np.int8)


def float32_mix(x):
    a = x * 2.5  # a Python float: stays float32
    b = x * np.float64(2.5)  # NEP 50: a float64 scalar makes float64
    c = x + np.array(1.0)  # a 0-d float64 array: float64
    d = x / 3  # float32
    return a, b, c, d


def float32_scalar_loop(x):
    s = np.float32(0)
    for v in x:
        s += v
    return s, type(s)


def float32_sum_types(x):
    total = x.sum()
    m = x.mean()
    return total, m, total * 2.0, float(total)


def float32_inplace_with_float64(x, y64):
    x += y64  # same_kind: float64 into float32 is cast
    return x


def bool_arithmetic(a, b):
    return a + b, a * b, a.sum(), (a & ~b).sum(), np.sum(a) * 1.5


def bool_as_index_and_number(x):
    pos = x > 0
    count = pos.sum()
    frac = count / len(x)
    signs = pos * 2 - 1
    return count, frac, signs


def negative_division(a, d):
    return a // d, a % d, np.fmod(a, d), np.divmod(a, d)


def int_result_types(x):
    n = x.shape[0] * 2
    first = x[0] + 1
    total = int(x.sum())
    half = len(x) // 2
    return n, first, total, half, x[half]


def int_scalar_wrap(x):
    """uint8 scalars wrap, Python ints do not."""
    s = x[0] + x[1]
    t = int(x[0]) + int(x[1])
    return s, t


def fft_round_trip(x):
    X = np.fft.fft(x)
    y = np.fft.ifft(X)
    return y.real, np.abs(X), np.angle(X)


def complex_real_write(z):
    z.real[:] = 0
    return z


def complex_imag_negate(z):
    z.imag *= -1  # conjugate in place
    return z


def complex_build_and_parts(x, y):
    z = x + 1j * y
    w = z * z.conj()
    return w.real, z.imag, np.abs(z) ** 2


def fft_lowpass(x, keep):
    X = np.fft.rfft(x)
    X[keep:] = 0
    return np.fft.irfft(X, n=len(x))


def complex_accumulate(z, steps):
    acc = np.zeros_like(z)
    for k in range(steps):
        acc += z ** k
    return acc


# --- 4. np.linalg and np.fft inside loops ------------------------------------------------------

def power_iteration_inplace(a, v, iters):
    for _ in range(iters):
        v[:] = a @ v
        v /= np.linalg.norm(v)
    return v @ a @ v


def qr_algorithm(a, iters):
    ak = a.copy()
    for _ in range(iters):
        q, r = np.linalg.qr(ak)
        ak = r @ q
    return np.sort(np.diag(ak))


def gauss_seidel_matrix(a, b, x, sweeps):
    n = len(b)
    for _ in range(sweeps):
        for i in range(n):
            s = a[i, :i] @ x[:i] + a[i, i + 1:] @ x[i + 1:]
            x[i] = (b[i] - s) / a[i, i]
    return x


def preconditioned_cg_while(a, b, tol):
    """Jacobi-preconditioned CG as a `while` on the residual norm, counting iterations."""
    m_inv = 1.0 / np.diag(a)
    x = np.zeros_like(b)
    r = b.copy()
    z = m_inv * r
    p = z.copy()
    rz = r @ z
    it = 0
    while np.linalg.norm(r) > tol and it < 4 * len(b):
        ap = a @ p
        step = rz / (p @ ap)
        x += step * p
        r -= step * ap
        z = m_inv * r
        rz, rz_old = r @ z, rz
        p = z + (rz / rz_old) * p
        it += 1
    return x, it


def implicit_heat_cholesky(u, alpha, steps):
    n = len(u)
    a = (1 + 2 * alpha) * np.eye(n) - alpha * (np.eye(n, k=1) + np.eye(n, k=-1))
    L = np.linalg.cholesky(a)
    for _ in range(steps):
        y = np.linalg.solve(L, u)
        u[:] = np.linalg.solve(L.T, y)
    return u


def spectral_poisson(f):
    n, m = f.shape
    kx = 2 * np.pi * np.fft.fftfreq(n)
    ky = 2 * np.pi * np.fft.fftfreq(m)
    KX, KY = np.meshgrid(kx, ky, indexing="ij")
    k2 = KX ** 2 + KY ** 2
    k2[0, 0] = 1.0
    fh = np.fft.fft2(f)
    uh = -fh / k2
    uh[0, 0] = 0.0
    return np.real(np.fft.ifft2(uh))


def spectral_derivative_rk(u, dt, steps):
    n = len(u)
    k = np.fft.fftfreq(n, d=1.0 / n) * 1j

    def rhs(v):
        return -np.fft.ifft(k * np.fft.fft(v)).real

    for _ in range(steps):
        k1 = rhs(u)
        k2 = rhs(u + dt * k1)
        u = u + 0.5 * dt * (k1 + k2)
    return u


def inverse_iteration(a, shift, iters):
    n = a.shape[0]
    b = a - shift * np.eye(n)
    v = np.ones(n)
    for _ in range(iters):
        v = np.linalg.solve(b, v)
        v = v / np.linalg.norm(v)
    return v @ a @ v


def newton_system(x, tol, maxiter):
    for it in range(maxiter):
        F = np.array([x[0] ** 2 + x[1] ** 2 - 4.0, x[0] * x[1] - 1.0])
        J = np.array([[2 * x[0], 2 * x[1]], [x[1], x[0]]])
        dx = np.linalg.solve(J, -F)
        x += dx
        if np.linalg.norm(dx) < tol:
            return x, it
    return x, maxiter


def fft_convolve_loop(signals, kernel):
    n = signals.shape[1]
    K = np.fft.rfft(kernel, n)
    out = np.empty_like(signals)
    for i in range(signals.shape[0]):
        out[i] = np.fft.irfft(np.fft.rfft(signals[i]) * K, n)
    return out


def lstsq_polyfit_windows(x, y, width, deg):
    coefs = []
    for s in range(0, len(x) - width + 1, width):
        V = np.vander(x[s:s + width], deg + 1)
        c, *_ = np.linalg.lstsq(V, y[s:s + width], rcond=None)
        coefs.append(c)
    return np.array(coefs)


def eigh_in_loop(mats):
    out = np.zeros((len(mats), mats.shape[1]))
    for i, m in enumerate(mats):
        w = np.linalg.eigvalsh(m + m.T)
        out[i] = w
    return out


def rayleigh_quotient_iteration(a, v, iters):
    v = v / np.linalg.norm(v)
    mu = v @ a @ v
    for _ in range(iters):
        w = np.linalg.solve(a - mu * np.eye(len(v)), v)
        v = w / np.linalg.norm(w)
        mu = v @ a @ v
    return mu


def arnoldi(a, b, m):
    n = len(b)
    Q = np.zeros((n, m + 1))
    H = np.zeros((m + 1, m))
    Q[:, 0] = b / np.linalg.norm(b)
    for k in range(m):
        v = a @ Q[:, k]
        for j in range(k + 1):
            H[j, k] = Q[:, j] @ v
            v -= H[j, k] * Q[:, j]
        H[k + 1, k] = np.linalg.norm(v)
        Q[:, k + 1] = v / H[k + 1, k]
    return Q, H


# --- more interprocedural probes ---------------------------------------------------------------

def running_buffer(x, buf=np.zeros(4)):
    """The classic mutable default: every call accumulates into the same array."""
    buf += x
    return buf.copy()


def clamp_helper(u, lo, hi):
    np.clip(u, lo, hi, out=u)


def clamp_rows_through_views(a):
    for i in range(a.shape[0]):
        clamp_helper(a[i], -i, i)
    return a


def fill_halo(u, value):
    u[:1] = value
    u[-1:] = value
    return u[1:-1]


def halo_then_write_interior(u):
    inner = fill_halo(u, -1.0)
    inner += 10.0
    return u


def fib_memo(n, memo):
    """Recursion writing into a table argument."""
    if memo[n] >= 0:
        return memo[n]
    memo[n] = fib_memo(n - 1, memo) + fib_memo(n - 2, memo)
    return memo[n]


def fib_table(n):
    memo = -np.ones(n + 1, dtype=np.int64)
    memo[0] = 0
    memo[1] = 1
    return fib_memo(n, memo), memo


def apply_to_each(f, xs):
    out = np.empty_like(xs)
    for i in range(len(xs)):
        out[i] = f(xs[i])
    return out


def callbacks_in_loop(xs, c):
    a = apply_to_each(np.sin, xs)
    b = apply_to_each(lambda v: v * c + 1.0, xs)
    g = functools.partial(np.power, 2.0)
    d = apply_to_each(g, xs)
    return a, b, d


# --- found by this round: the regressions' programs ----------------------------------------------

class Cfg:
    G = 9.81
    H = np.float64(9.81)  # a NumPy scalar: results stay NumPy's


def class_attribute_numpy_scalar(y0, steps):
    y = y0 * 1.0
    vy = 0.0
    for _ in range(steps):
        vy -= Cfg.H * 0.01
        y += vy * 0.01
    return y, vy


def acc_helper(x, buf=np.zeros(3)):
    buf += x
    return buf.sum()


def kernel_leaves_default_out(x):
    return acc_helper(x), acc_helper(x)


def kernel_passes_buffer(x):
    buf = np.zeros(3)
    return acc_helper(x, buf), acc_helper(x, buf), buf


def write_then_read_attr(u, sim):
    u += 1.0
    return sim.u.sum()


W = np.arange(4.0)
SIM = Heat1D(np.arange(4.0), 0.1)


def write_then_read_module_array(u):
    u *= 2.0
    return W[1] + W[2]


def write_then_read_module_object(u):
    u *= 2.0
    return SIM.u[0] + SIM.u[1]


def count_in_branch(x, it):
    if x[0] > 0:
        it += 1
    return it


def count_in_while(u, it, tol):
    d = 1.0
    while d > tol and it < 50:
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        d = np.abs(u).max()
        it += 1
    return it


def time_in_while(x, t):
    while t < x[0]:
        t += 0.5
    return t


def returns_types(x):
    return x.sum(), type(x[0]), type(x.sum() * 2)


def returns_numpy_type_object(x):
    return x.sum(), np.float64


def returns_numpy_function(x):
    return np.sin


# --- round 9, second batch ------------------------------------------------------------------------

def swap_arrays(a, b):
    tmp = a.copy()
    a[:] = b
    b[:] = tmp


def swap_rows_by_helper(m):
    swap_arrays(m[0], m[2])  # two rows of one array: apart, one base
    return m


def add_into(a, b, out):
    np.add(a, b, out=out)


def add_into_views(x):
    res = np.zeros(len(x) + 1)
    add_into(x, x[::-1], res[1:])
    return res


def normalise_if_large(u, steps):
    for _ in range(steps):
        u *= 1.7
        if u.max() > 2.0:
            normalise_inplace(u)
    return u


def closure_bc(u, steps):
    def bc():
        u[0] = 0.0
        u[-1] = 0.0
    for _ in range(steps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        bc()
    return u


def fft_recursive(x):
    n = len(x)
    if n == 1:
        return x.astype(complex)
    even = fft_recursive(x[0::2])
    odd = fft_recursive(x[1::2])
    tw = np.exp(-2j * np.pi * np.arange(n // 2) / n)
    return np.concatenate([even + tw * odd, even - tw * odd])


def float32_heat_step(u, steps):
    dt = np.float32(0.1)
    for _ in range(steps):
        u[1:-1] += dt * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u, u.dtype


def int32_scaled_overflow(x):
    y = x.astype(np.int32) * 100000
    return y, y.dtype


def uint8_scalar_overflow(img):
    return img[0, 0] + 10, img[0, 0] * np.uint8(2)


def uint8_minus_big_python_int(img):
    return img - 300  # NumPy 2: OverflowError (300 does not fit uint8)


def int_negative_power(a):
    return a ** -1  # ValueError: integers to negative integer powers


def int_div_by_zero(a, b):
    return a // b, a % b


def int_mean_median(a):
    return np.mean(a), np.median(a), a.mean(axis=0)


def complex_eigvals_sorted(m):
    w = np.linalg.eigvals(m)
    return np.sort_complex(w), np.real_if_close(w.real + 0j)


def float32_round(x):
    return np.round(x, 2), np.round(x * 10), x.round(1)


def float16_arith(x):
    h = x.astype(np.float16)
    return h * 2 + 1, (h * 2).dtype


def lu_inplace(a):
    """Doolittle LU with partial pivoting, L and U stored in `a`; returns the row permutation."""
    n = a.shape[0]
    perm = np.arange(n)
    for k in range(n - 1):
        p = k + np.argmax(np.abs(a[k:, k]))
        if p != k:
            a[[k, p]] = a[[p, k]]
            perm[[k, p]] = perm[[p, k]]
        a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return perm


def norms_in_loop(mats):
    out = np.zeros((len(mats), 4))
    for i in range(len(mats)):
        m = mats[i]
        out[i] = [np.linalg.norm(m, "fro"), np.linalg.norm(m, 2), np.linalg.cond(m),
                  np.linalg.matrix_power(m, 3)[0, 0]]
    return out


def lanczos_tridiagonal(a, v0, m):
    n = len(v0)
    V = np.zeros((m, n))
    alpha = np.zeros(m)
    beta = np.zeros(m)
    v = v0 / np.linalg.norm(v0)
    w_prev = np.zeros(n)
    for j in range(m):
        V[j] = v
        w = a @ v - (beta[j - 1] * w_prev if j > 0 else 0.0)
        alpha[j] = w @ v
        w -= alpha[j] * v
        beta[j] = np.linalg.norm(w)
        w_prev = v
        v = w / beta[j]
    T = np.diag(alpha) + np.diag(beta[:-1], 1) + np.diag(beta[:-1], -1)
    return np.linalg.eigvalsh(T)


def heat2d_rfft(u, nu, dt, steps):
    n, m = u.shape
    kx = 2 * np.pi * np.fft.fftfreq(n)
    ky = 2 * np.pi * np.fft.rfftfreq(m)
    decay = np.exp(-nu * dt * (kx[:, None] ** 2 + ky[None, :] ** 2))
    for _ in range(steps):
        u = np.fft.irfft2(np.fft.rfft2(u) * decay, s=u.shape)
    return u


def fftshift_spectrum(x):
    X = np.fft.fftshift(np.fft.fft(x))
    freqs = np.fft.fftshift(np.fft.fftfreq(len(x), d=0.1))
    back = np.fft.ifft(np.fft.ifftshift(X)).real
    return np.abs(X), freqs, back


def cholesky_per_step(x, steps):
    """A covariance updated every step, factorised and solved against."""
    cov = np.eye(len(x))
    for _ in range(steps):
        cov = 0.9 * cov + 0.1 * np.outer(x, x) + 0.01 * np.eye(len(x))
        L = np.linalg.cholesky(cov)
        x = np.linalg.solve(L, x) + 0.1
    return x, L


def householder_reflect_rows(a):
    for i in range(a.shape[0]):
        row = a[i]
        row -= 2 * (row @ row) / (row @ row + 1.0) * row
    return a


def heat_step(u, alpha):
    u[1:-1] += alpha * (u[2:] - 2 * u[1:-1] + u[:-2])


def run_object_through_helper(sim, steps):
    """The helper writes `sim.u`: NumPy's object sees it."""
    for _ in range(steps):
        heat_step(sim.u, sim.alpha)
    return sim.u.sum()


def attribute_bound_then_written(sim):
    u = sim.u  # a shorthand for the object's array
    u[0] = 7.0
    return u.sum()


def attribute_view_bound_then_written(sim):
    v = sim.u[1:]
    v[0] = 9.0
    return v.sum()


def attribute_number_rebound(sim, x):
    a = sim.alpha
    a *= 2.0
    return x * a


def returns_the_objects_array(sim):
    return sim.u


def builtin_scalar_types(x):
    """What the builtins give on arrays and their elements."""
    return (x.size // 2, x.shape[0] / 2, x.argmax(), int(np.argmax(x)), sum(x), max(x), round(x[0], 2),
            round(x[0]), abs(x[1]), x[0].item(), divmod(x[2], 2.0), bool(x.any()), x.any(),
            x[0] == x[1], complex(x[0], x[1]), sum(range(len(x))), min(len(x), 3))


def int_builtin_types(a):
    return (sum(a), max(a), a[0] // 2, a[0] / 2, abs(a[1]), divmod(a[2], 3), a[0].item(),
            pow(a[0], 2), a[1] ** 2, -a[0], a.sum() // len(a))


def returns_tolist(x):
    y = x * 2
    return (y.sum(),
            y.tolist())


def converged_flag(x, tol):
    converged = False
    for _ in range(3):
        x = x * 0.5
        if np.abs(x).max() < tol:
            converged = True
    return x, converged


def log_value(x, hist=[]):
    hist.append(float(x.sum()))
    return len(hist)


def kernel_list_default_left_out(x):
    return log_value(x), log_value(x)


def kernel_list_passed(x):
    hist = []
    return log_value(x, hist), log_value(x, hist)


def add_scalar_default(x, total=np.float64(0.0)):
    total += x.sum()  # a NumPy scalar rebinds: nothing shared
    return total


def kernel_scalar_default(x):
    return add_scalar_default(x), add_scalar_default(x)
