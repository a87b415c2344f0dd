import numpy as np


def clamp(u):
    """Clamp both ends; returns its (mutated) argument."""
    u[0] = 0.0
    u[-1] = 0.0
    return u


def damp(u, w=0.5):
    u[1:-1] *= w
    return u


def leapfrog(u0, steps, c):
    u_prev = u0.copy()
    u = u0.copy()
    u = clamp(u)  # u is the array it was: the line is the call
    u_next = np.zeros_like(u0)
    for k in range(steps):
        u_next[1:-1] = 2.0 * u[1:-1] - u_prev[1:-1] + 0.1 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u_next = clamp(u_next)  # no rebinding: the buffer rotation stays a lax loop
        u_next = damp(w=c, u=u_next)
        u_prev, u, u_next = u, u_next, u_prev
    return u.sum() + 2.0 * u_prev.sum()


def damp_steps(a, steps):
    for _ in range(steps):
        a = damp(a)  # the caller's array, written in place
    a[0] = 1.0
    return a

# run: leapfrog(np.sin(np.linspace(0.0, 3.0, 9)), 5, 0.9)
# run: leapfrog(np.sin(np.linspace(0.0, 3.0, 9)), 0, 0.9)
# run: damp_steps(np.arange(6.0), 3)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_for, npr_jit, npr_own, npr_range, npr_rotate, npr_value


@npr_jit(mutated=('u',))
def clamp(u):
    """Clamp both ends; returns its (mutated) argument."""
    npr_at(u)[0] = 0.0
    npr_at(u)[-1] = 0.0
    return u


@npr_jit(mutated=('u',))
def damp(u, w=0.5):
    npr_at(u)[1:-1] *= w
    return u


@npr_jit(copied=('u0',))
def leapfrog(u0, steps, c):
    u_prev = npr_own(u0.copy())
    u = npr_own(u0.copy())
    npr_value(clamp(u))  # u is the array it was: the line is the call
    u_next = jax.new_ref(jnp.zeros_like(u0))
    def _loop_k(k):
        npr_at(u_next)[1:-1] = 2.0 * u[...][1:-1] - u_prev[...][1:-1] + 0.1 * (u[...][2:] - 2.0 * u[...][1:-1] + u[...][:-2])
        npr_value(clamp(u_next))  # no rebinding: the buffer rotation stays a lax loop
        npr_value(damp(w=c, u=u_next))
        npr_rotate((u_prev, u, u_next), (u, u_next, u_prev))
    npr_for(npr_range(steps), _loop_k)
    return u[...].sum() + 2.0 * u_prev[...].sum()


@npr_jit(mutated=('a',))
def damp_steps(a, steps):
    def _loop__(_):
        npr_value(damp(a))  # the caller's array, written in place
    npr_for(npr_range(steps), _loop__)
    npr_at(a)[0] = 1.0
    return a

# run: leapfrog(np.sin(np.linspace(0.0, 3.0, 9)), 5, 0.9)
# run: leapfrog(np.sin(np.linspace(0.0, 3.0, 9)), 0, 0.9)
# run: damp_steps(np.arange(6.0), 3)
