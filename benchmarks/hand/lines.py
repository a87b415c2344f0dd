"""Hand ports of the 1-D programs (heat1d_explicit, wave1d_leapfrog, advection_upwind) and
the sequential ones (iir_filter, thomas_tridiag, triangular_solves)."""

import jax.numpy as jnp
from jax import lax


def heat1d(u, heater_idx, heater_power, kappa, dx, dt, steps, t_right):
    NG, T_MIN, T_MAX = 2, 0.0, 500.0
    n = u.shape[0]
    r = kappa * dt / (dx * dx)

    def ghosts(u):
        u = u.at[:NG].set(u[NG:2 * NG][::-1])
        return u.at[-NG:].set(2.0 * t_right - u[n - 2 * NG:n - NG][::-1])

    def step(k, carry):
        u, time, history = carry
        u = ghosts(u)
        flux = (u[1:] - u[:-1]) * r
        u = u.at[NG:n - NG].add(flux[NG:n - NG] - flux[NG - 1:n - NG - 1])
        u = u.at[heater_idx].set(u[heater_idx] + heater_power * dt)  # last duplicate wins (CPU)
        u = jnp.clip(u, T_MIN, T_MAX)
        return u, time + dt, history.at[k].set(jnp.sum(u[NG:n - NG]) * dx)

    u, time, history = lax.fori_loop(0, steps, step, (u, jnp.zeros(()), jnp.zeros(steps)))
    return (time, history), {"u": ghosts(u)}


def wave1d(u0, v0, c, dx, dt, wavelet, src, receivers, sponge):
    steps, ns = wavelet.shape[0], sponge.shape[0]
    c2 = (c * dt / dx) ** 2
    u = u0.at[1:-1].add(dt * v0[1:-1] + 0.5 * c2[1:-1] * (u0[2:] - 2.0 * u0[1:-1] + u0[:-2]))
    u = u.at[0].set(0.0).at[-1].set(0.0)

    def step(k, carry):
        u_prev, u, u_next, seis = carry
        u_next = u_next.at[1:-1].set(2.0 * u[1:-1] - u_prev[1:-1] + c2[1:-1] * (u[2:] - 2.0 * u[1:-1] + u[:-2]))
        u_next = u_next.at[0].set(0.0).at[-1].set(0.0).at[-ns:].multiply(sponge)
        u_next = u_next.at[src].add(dt * dt * wavelet[k])
        return u, u_next, u_prev, seis.at[k].set(u_next[receivers])

    u_prev, u, _, seis = lax.fori_loop(0, steps, step, (u0, u, jnp.zeros_like(u0),
                                                        jnp.zeros((steps, receivers.shape[0]))))
    vel = (u - u_prev) / dt
    energy = jnp.zeros(()) + 0.5 * jnp.sum(vel * vel) * dx
    energy = energy + 0.5 * jnp.sum((c[1:] * jnp.diff(u)) ** 2) / dx
    return (seis, energy), {"u0": u}


def advection(q, p, vel, dx, dt, steps):
    NG, Q_MIN, Q_MAX = 1, 0.0, 10.0
    dtdx = dt / dx
    mass0 = jnp.sum(p) * dx
    n = q.shape[0]

    def ghosts(q):
        q = q.at[:NG].set(q[-2 * NG:-NG])
        return q.at[-NG:].set(q[NG:2 * NG])

    def step(k, carry):
        q, p, history = carry
        q = ghosts(q)
        flux = jnp.where(vel >= 0.0, vel * q[NG - 1:n - NG], vel * q[NG:n - NG + 1])
        q = q.at[NG:-NG].set(q[NG:-NG] - dtdx * (flux[1:] - flux[:-1]))
        q = jnp.clip(q, Q_MIN, Q_MAX)
        vr = vel[1:]
        f_right = jnp.where(vr >= 0.0, vr * p, vr * jnp.roll(p, -1))
        p = jnp.clip(p - dtdx * (f_right - jnp.roll(f_right, 1)), Q_MIN, Q_MAX)
        p = p / (jnp.sum(p) * dx / mass0)
        return q, p, history.at[k].set(jnp.sum(q[NG:-NG]) * dx)

    q, p, history = lax.fori_loop(0, steps, step, (q, p, jnp.zeros(steps)))
    q = ghosts(q)
    mass = jnp.zeros(()) + jnp.sum(p) * dx
    return (history, mass, jnp.max(jnp.abs(q[NG:-NG] - p))), {"q": q, "p": p}


def iir(x, y, energy, fc, fs, q):
    w0 = 2.0 * jnp.pi * fc / fs
    alpha = jnp.sin(w0) / (2.0 * q)
    cw = jnp.cos(w0)
    a0 = 1.0 + alpha
    b0, b1, b2 = (1.0 - cw) / 2.0 / a0, (1.0 - cw) / a0, (1.0 - cw) / 2.0 / a0
    a1, a2 = -2.0 * cw / a0, (1.0 - alpha) / a0

    def biquad(x):
        y0 = b0 * x[0]
        y1 = b0 * x[1] + b1 * x[0] - a1 * y0
        e1 = y0 * y0 + y1 * y1

        def step(carry, xs):
            ym1, ym2, e = carry
            xn, xn1, xn2 = xs
            yn = b0 * xn + b1 * xn1 + b2 * xn2 - a1 * ym1 - a2 * ym2
            e = e + yn * yn
            return (yn, ym1, e), (yn, e)

        (_, _, e), (ys, es) = lax.scan(step, (y1, y0, e1), (x[2:], x[1:-1], x[:-2]))
        return jnp.concatenate([jnp.stack([y0, y1]), ys]), jnp.concatenate([jnp.stack([y0 * y0, e1]), es]), e

    x, _, _ = biquad(x)
    y, energy, total = biquad(x)
    return total, {"x": x, "y": y, "energy": energy}


def thomas(u, work, kappa, dx, dt, steps):
    r = kappa * dt / (dx * dx)
    n = u.shape[0]

    def solve(a, b, c, d):
        def down(carry, row):
            b_prev, d_prev = carry
            ai, bi, c_prev, di = row
            m = ai / b_prev
            bi, di = bi - m * c_prev, di - m * d_prev
            return (bi, di), (bi, di)

        _, (bs, ds) = lax.scan(down, (b[0], d[0]), (a[1:], b[1:], c[:-1], d[1:]))
        b, d = jnp.concatenate([b[:1], bs]), jnp.concatenate([d[:1], ds])
        last = d[n - 1] / b[n - 1]

        def up(x_next, row):
            di, ci, bi = row
            xi = (di - ci * x_next) / bi
            return xi, xi

        _, xs = lax.scan(up, last, (d[:-1], c[:-1], b[:-1]), reverse=True)
        return b, d, jnp.concatenate([xs, last[None]])

    def step(k, carry):
        u, work, time, history = carry
        half = 0.5 * r[1:n]
        a = jnp.concatenate([jnp.zeros(1), -half])
        c = jnp.concatenate([-half, jnp.zeros(1)])
        b = 1.0 + 0.5 * (r[:n] + r[1:])
        d = u * (1.0 - 0.5 * (r[:n] + r[1:]))
        d = d.at[1:].add(half * u[:-1]).at[:-1].add(half * u[1:])
        b, d, u = solve(a, b, c, d)
        return u, jnp.stack([a, b, c, d]), time + dt, history.at[k].set(jnp.sum(u) * dx)

    u, work, time, history = lax.fori_loop(0, steps, step, (u, work, jnp.zeros(()), jnp.zeros(steps)))
    return (time, history), {"u": u, "work": work}


def triangular(L, U, B):
    n, m = B.shape

    def forward(b):
        def row(i, x):
            s = lax.fori_loop(0, i, lambda j, s: s + L[i, j] * x[j], jnp.zeros(()))
            return x.at[i].set((b[i] - s) / L[i, i])
        return lax.fori_loop(0, n, row, jnp.zeros(n))

    def back(b):
        def row(k, x):
            i = n - 1 - k
            s = lax.fori_loop(i + 1, n, lambda j, s: s + U[i, j] * x[j], jnp.zeros(()))
            return x.at[i].set((b[i] - s) / U[i, i])
        return lax.fori_loop(0, n, row, jnp.zeros(n))

    def column(c, carry):
        B, norms = carry
        x = back(forward(B[:, c]))
        acc = lax.fori_loop(0, n, lambda i, a: a + x[i] * x[i], jnp.zeros(()))
        return B.at[:, c].set(x), norms.at[c].set(jnp.sqrt(acc))

    B, norms = lax.fori_loop(0, m, column, (B, jnp.zeros(m)))
    return norms, {"B": B}
