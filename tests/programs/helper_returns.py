"""Whole programs whose helpers return or rebind their arguments (issue 37, case 6): a time loop
in `simulate_*()` with set-up code, helpers that write an array in place and return it (alone or
in a tuple with other values), a helper that rebinds its parameter to a new array, boundary
helpers returning tuples, a fresh array rebound each trip of a data-dependent `while`. Each was
refused by name-based aliasing (NPR203, NPR205, NPR011); tests/aliases/test_helper_returns.py runs
each against NumPy, compiled and converted, and this file as a script."""
import numpy as np


# --- helpers ---------------------------------------------------------------------------------

def relax(A, w):
    """Writes A in place, returns diagnostics and A itself (`e, m, A = relax(A, w)`)."""
    A *= 1.0 - w
    A[1:-1] += w * 0.5 * (A[:-2] + A[2:])
    e = (A ** 2).sum()
    return e, A.max(), A


def doubled(v):
    """Rebinds its parameter: returns a new array, never the caller's."""
    v = v * 2.0
    return v


def scale_mass(M, f):
    """`op=` on the parameter: the caller's array, in place, returned as itself."""
    M *= f
    return M


def reflect(pos, vel, lo, hi):
    """Reflecting walls: writes both arrays through masks and returns both."""
    low = pos < lo
    pos[low] = 2 * lo - pos[low]
    vel[low] *= -1
    high = pos > hi
    pos[high] = 2 * hi - pos[high]
    vel[high] *= -1
    return pos, vel


# --- set-up ----------------------------------------------------------------------------------

def make_state(n, seed):
    rng = np.random.default_rng(seed)
    return rng.random(n), rng.standard_normal(n) * 0.3


# --- time loops ------------------------------------------------------------------------------

def simulate_relax(A, steps, w):
    energy = 0.0
    for _ in range(steps):
        e, m, A = relax(A, w)
        energy += e
    A += 1.0
    return energy, A


def simulate_doubled(x, steps):
    for _ in range(steps):
        x = doubled(x)
        x += 1
    return x


def simulate_mass(Mass, f, limit):
    t = 0
    while Mass.sum() < limit:
        Mass = scale_mass(Mass, f)
        t += 1
    return Mass, t


def simulate_damped(Unew, mask, tol):
    U = 1.0 * Unew
    steps = 0
    while U.sum() > tol:
        U = 1.0 * Unew
        U[mask] = 0
        Unew = Unew * 0.5
        steps += 1
    return U, steps


def simulate_walls(pos, vel, dt, steps):
    for _ in range(steps):
        pos += vel * dt
        pos, vel = reflect(pos, vel, 0.0, 1.0)
    return pos, vel


def simulate_walls_while(pos, vel, dt, t_end):
    t = 0.0
    while t < t_end:
        pos += vel * dt
        pos, vel = reflect(pos, vel, 0.0, 1.0)
        t += dt
    return pos, vel, t


def bounce_axis(pos, vel, d):
    """Issue 37 case 7: a mask first, an integer after it (was NPR104 when traced)."""
    out = pos[:, d] > 0.5
    vel[out, d] *= -1
    pos[out, d] = 0.5
    return pos, vel


def bounce_grid(grid, k):
    """A 2-D mask over the first two axes, then an integer: `grid[:, :, k][m]`."""
    m = grid[:, :, 0] > 0.0
    grid[m, k] += 1
    grid[m, -1] = -2
    return grid


def bounce_where(pos, vel, d):
    """`np.where(m)` inside the index tuple: NumPy's array of shape (1, k) of m's positions."""
    out = pos[:, d] > 0.5
    vel[np.where(out), d] *= -1
    pos[np.where(out), d] = 0.5
    return pos, vel


def where_of_counts(x, counts, d):
    """np.where of an integer array: the positions of its nonzeros."""
    x[np.where(counts), d] += 1
    return x


def where_of_grid(grid, m2):
    """A 2-d m: its row and column numbers both index axis 0 (refused when traced)."""
    grid[np.where(m2), 0] = 0.0
    return grid


def reflect_axes(pos, vel, L):
    """Per-axis reflecting walls: reads of the same mask and axis in the value."""
    for d in range(pos.shape[1]):
        out = pos[:, d] > L
        pos[out, d] = 2 * L - pos[out, d]
        vel[out, d] = -vel[out, d]
        low = pos[:, d] < 0
        pos[low, d] *= -1
        vel[np.where(low), d] = np.abs(vel[np.where(low), d])
    return pos, vel


def mixed_axes(a, b, d):
    """a has an axis more than b: NumPy pairs b's selection (k,) with a's (k, n) by their
    trailing axes (k against n), the whole views would pair (N,) with (N, n): refused."""
    m = a[:, d, 0] > 0
    a[m, d] = 2 * b[m, d]
    return a


def accumulate(E, x):
    """`op=` on a parameter that may hold a number (then rebound) or an array (in place)."""
    E += x.sum()
    return E


def total_of_param(x, E):
    for _ in range(3):
        E = accumulate(E, x)
        x[0] += 1
    return E


def total_of_literal(x):
    E = 0.0
    for _ in range(3):
        E = accumulate(E, x)
        x[0] += 1
    return E



def no_slip(u, v):
    """Writes both arguments and returns them: `u, v = no_slip(u_new, v_new)` binds u to
    u_new's array itself, no view (stable fluids)."""
    u[0, :] = u[-1, :] = 0.0
    v[:, 0] = v[:, -1] = 0.0
    return u, v


def simulate_fluid(u, v, n):
    """The items bound to other names than the arguments', fresh arrays each trip, written after."""
    for _ in range(n):
        u_new = 0.5 * (u + np.roll(v, 1, axis=0))
        v_new = v - 0.25 * u
        u, v = no_slip(u_new, v_new)
        u[1:-1, 1:-1] += 0.1 * v[1:-1, 1:-1]
    return u, v


def simulate_crossed(u, v, n):
    """The items bound crosswise (`v, u = no_slip(u, v)`: a swap of the caller's arrays), then
    written: each write reaches the other caller array on alternate trips."""
    for k in range(n):
        v, u = no_slip(u, v)
        u[1, 1] += k + 1.0
    return u, v


def simulate_unpacked_once(u, v):
    """Outside a loop: a fresh pair bound, then a write through one name and a read of the other."""
    a, b = no_slip(u * 2.0, v)
    a += b
    return a, b



def wrap_box(pos, vel, L):
    """Rebinds pos (a new array), returns vel itself without writing it."""
    pos = pos % L
    return pos, vel


def simulate_wrap_box(pos, vel, L, n):
    for _ in range(n):
        vel *= 0.99
        pos += vel
        pos, vel = wrap_box(pos, vel, L)
    return pos, vel


def rhs_filled(u):
    u = fill_ends(u)
    return 2.0 * u[1:-1].sum() - u


def fill_ends(u):
    u[0] = u[-2]
    u[-1] = u[1]
    return u


def heun_split(u, dt):
    """The call on a line of its own: NumPy reads u after rhs_filled wrote its ends."""
    d = rhs_filled(u)
    return u + dt * d


if __name__ == "__main__":
    pos, vel = make_state(64, 1)
    pos, vel = simulate_walls(pos, vel, 0.05, 40)
    print("walls", round(float(pos.sum()), 9), round(float(np.abs(vel).sum()), 9))
    energy, A = simulate_relax(np.linspace(0.0, 1.0, 32), 25, 0.1)
    print("relax", round(energy, 9), round(float(A.sum()), 9))
    print("doubled", simulate_doubled(np.arange(4.0), 3))
    M, t = simulate_mass(np.full(8, 0.5), 1.5, 100.0)
    print("mass", t, round(float(M.sum()), 9))
    U, steps = simulate_damped(np.linspace(1.0, 2.0, 16), np.arange(16) % 3 == 0, 1.0)
    print("damped", steps, round(float(U.sum()), 9))
    u, v = simulate_fluid(np.ones((6, 6)), np.linspace(0.0, 1.0, 36).reshape(6, 6), 5)
    print("fluid", round(float(u.sum()), 9), round(float(v.sum()), 9))
