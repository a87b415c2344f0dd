"""Hand JAX ports of benchmarks/suite_kernels.py, as a JAX user would write them: pure
functions, jitted by the caller (suite.py), loops as lax.fori_loop, written arrays returned."""

import jax.numpy as jnp
from jax import lax


def matvec_chain(A, x):
    return (A @ x) @ A


def cg_products(A, r, p):
    return r @ A, A @ p


def two_matvecs(A, B, x, alpha, beta):
    return alpha * A @ x + beta * B @ x  # NumPy's order: (alpha * A) @ x


def jacobi_(u, steps):
    def sweep(_, u):
        return u.at[1:-1, 1:-1].set(0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]))
    return lax.fori_loop(0, steps, sweep, u)


def diagonal_tanh(a):
    return a + jnp.sum(jnp.tanh(jnp.diagonal(a)))


def column_stats(x):
    return jnp.sqrt((x * x).mean(axis=0)) / jnp.abs(x).max(axis=0)


def small_poly(x):
    return 3.0 * x ** 3 - 2.0 * x + 1.0


def small_axpy_(y, a, x):
    return y + a * x


def small_norm(x, y):
    d = x - y
    return jnp.sqrt(jnp.dot(d, d))


def conv_relu(x, w):
    y = lax.conv_general_dilated(x[None], w, window_strides=(1, 1), padding="VALID",
                                 precision=lax.Precision.HIGHEST)[0]
    return jnp.maximum(y, 0.0)


def cnn_forward(x, w1, b1, w2, b2, wf, bf):
    def conv(x, w, b):
        y = lax.conv_general_dilated(x[None], w, window_strides=(1, 1), padding="VALID",
                                     precision=lax.Precision.HIGHEST)[0]
        return jnp.maximum(y + b[:, None, None], 0.0)

    def pool(x):
        c, h, w = x.shape
        return lax.reduce_window(x[:, :h // 2 * 2, :w // 2 * 2], -jnp.inf, lax.max, (1, 2, 2), (1, 2, 2), "VALID")

    a = pool(conv(x, w1, b1))
    a = pool(conv(a, w2, b2))
    z = jnp.dot(wf, a.reshape(-1), precision=lax.Precision.HIGHEST) + bf
    e = jnp.exp(z - z.max())
    return e / e.sum()
