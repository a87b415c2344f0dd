"""Small programs for the caller's jit / vmap / grad / jvp / jacfwd of `.pure`
(tests/transforms): the places where a derivative or a batch member can go wrong quietly —
where with a NaN branch, sqrt and abs at 0, clip, sorted and argmax selections, writes through
views, integer and boolean paths, while loops on data, prints, histories and draws."""

import numpy as np


def where_sqrt(x):
    y = np.where(x > 0, np.sqrt(x), 0.0)
    x[:] = y * 2
    return y.sum()


def where_log(x):
    return np.where(x > 0, np.log(x), -1.0) * x


def where_divide(x):
    safe = np.where(x != 0, 1.0 / x, 0.0)
    return safe * 3.0


def masked_sqrt_store(x):
    m = x > 0
    x[m] = np.sqrt(x[m])
    return x


def sqrt_norm(x):
    return np.sqrt(np.sum(x * x)) + np.abs(x).sum()


def clip_max(x):
    y = np.clip(x, -0.5, 0.5)
    return np.maximum(y, 0.1 * x) + np.minimum(x, 0.2)


def argmax_pick(x):
    i = np.argmax(x)
    out = x.copy()
    out[i] = x[i] ** 2
    return out, x[i] * 3.0


def sort_top(x):
    s = np.sort(x)
    return s[-2:] * s[0]


def view_write(x):
    v = x[1:]
    v *= x[:-1]
    x[0] += 1.0
    return x.sum()


def scatter_add(x, idx):
    out = np.zeros(4)
    np.add.at(out, idx, x)
    out[idx] += x * 2
    return out


def int_path(x):
    k = int(np.floor(x.sum()))
    n = np.count_nonzero(x > 0.5)
    return x * k + n, k


def bool_path(x, m):
    x[m] *= 2.0
    x[~m] -= 1.0
    return np.any(x > 1.0), x.sum()


def while_on_data(x):
    while x.sum() < 10.0:
        x *= 1.5
    return x


def while_counted(x):
    k = 0
    y = x.copy()
    while k < 5 and y.max() < 100.0:
        y = y * y + 1.0
        k += 1
    return y, k


def early_return(x):
    if x[0] > 0.0:
        return x * 2.0
    return np.sin(x)


def printed(x):
    for k in range(3):
        x *= 1.1
        print("step", k, x.sum())
    return x


def history(x):
    hist = []
    for k in range(4):
        x = 0.5 * (x + np.roll(x, 1))
        hist.append(x.sum())
    return np.array(hist), x


def drawn(x):
    noise = np.random.normal(0.0, 0.1, size=x.shape)
    return x * 2.0 + noise


def recurrence(x, a):
    y = np.empty_like(x)
    y[0] = x[0]
    for i in range(1, x.shape[0]):
        y[i] = a * y[i - 1] + (1 - a) * x[i]
    return y


def stencil(u, steps):
    for _ in range(steps):
        u[1:-1] = u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def particles(pos, vel, dt):
    for _ in range(3):
        d = pos[:, None] - pos[None, :]
        r2 = d * d + 0.1
        acc = (d / r2 ** 1.5).sum(axis=1)
        vel += dt * acc
        pos += dt * vel
    return pos, vel


def fused_abs(x):
    y = np.abs(x - 1.0)
    return np.sqrt(y + 1e-3) * np.sign(x)


def hypot_at_zero(x, y):
    return np.hypot(x, y) + np.linalg.norm(x)


def power_half(x):
    return x ** 0.5 + np.power(np.abs(x), 1.5)


def where_power(x):
    return np.where(x > 0, x ** 1.5, 0.0) + np.where(x <= 0, 0.0, np.power(x, 0.25))


def where_arcsin(x):
    return np.where(np.abs(x) < 1.0, np.arcsin(x), np.sign(x))


def pair_potential(pos):
    d = pos[:, None, :] - pos[None, :, :]
    r2 = (d * d).sum(axis=2)
    inv = np.where(r2 > 0.0, 1.0 / np.sqrt(r2), 0.0)
    force = (d * (inv ** 3)[:, :, None]).sum(axis=1)
    pos += 0.01 * force
    return inv.sum()


def where_scaled(x):
    return np.where(x > 0, np.sqrt(x) * x.sum(), x)


def where_grown(x, m):
    return np.where(m, np.log(x), 0.0) + np.where(m[0], 1.0 / x, x)


def power_in_loop(c, nsteps):
    mu = np.empty_like(c)
    for n in range(nsteps):
        np.power(c, 3, out=mu)
        c += 0.01 * (mu - c)
    return c


def power_of_param(x, p):
    return np.power(x, 3) + x ** p


def where_reciprocal_written(x, y):
    """`1.0 / x` of a parameter beside a written one: emitted through npr_pyop (Python's rules for a
    parameter that may be a number), whose operands the guard must reach (fuzz14)."""
    y[...] = np.where(x != 0, 1.0 / x, x)
    return y.sum()
