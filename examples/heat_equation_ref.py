# np2ref: converted from examples/heat_equation.py by np2ref. Arrays that are written are jax.Ref buffers;
# every read is an explicit load (`u[...]`). Functions marked @npr_jit take NumPy arrays from
# host code, run jit-compiled with NumPy's 64-bit types, and write back what they mutate.
"""2-D heat equation solved with an explicit five-point finite-difference
scheme (forward Euler in time).

Domain: temperature in a square plate whose top edge is held hot and whose
other edges are held cold, starting from a hot square patch in the middle.
This is the quickstart example: mutating NumPy code with a boundary helper
that writes into its argument and an in-place interior update.
"""
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_for, npr_jit, npr_range


ENTRY = "simulate"

N = 64            # grid points per side
STEPS = 50        # time steps
ALPHA = 0.2       # diffusion number kappa*dt/dx**2 (stable for <= 0.25)
T_HOT = 1.0       # temperature of the top edge
T_COLD = 0.0      # temperature of the other edges


@npr_jit(mutated=('u',))
def apply_boundary(u):
    """Impose the Dirichlet boundary values on u in place."""
    npr_at(u)[0, :] = T_HOT
    npr_at(u)[-1, :] = T_COLD
    npr_at(u)[:, 0] = T_COLD
    npr_at(u)[:, -1] = T_COLD


@npr_jit(mutated=('u',))
def step(u, alpha):
    """One explicit step, updating the interior of u in place."""
    npr_at(u)[1:-1, 1:-1] += alpha * (u[...][2:, 1:-1] + u[...][:-2, 1:-1]
                              + u[...][1:-1, 2:] + u[...][1:-1, :-2]
                              - 4.0 * u[...][1:-1, 1:-1])


@npr_jit
def simulate(n=N, steps=STEPS, alpha=ALPHA):
    """Run `steps` explicit steps on an n x n grid and return the field."""
    u = jax.new_ref(jnp.zeros((n, n)))
    npr_at(u)[n // 4:3 * n // 4, n // 4:3 * n // 4] = 0.5
    apply_boundary(u)
    def _loop_k(k):
        step(u, alpha)
        apply_boundary(u)
    npr_for(npr_range(steps), _loop_k)
    return u[...]


def make_inputs(size="small"):
    if size == "small":
        return dict(n=12, steps=10, alpha=ALPHA)
    return dict(n=N, steps=STEPS, alpha=ALPHA)


if __name__ == "__main__":
    u = simulate(N, STEPS, ALPHA)
    print(f"sum    = {u.sum():.6f}")
    print(f"max    = {u.max():.6f}")
    print(f"centre = {u[N // 2, N // 2]:.6f}")
# np2ref: sha256 dd34dfeeb454e377 (np2ref overwrites this file only while it is unedited)
