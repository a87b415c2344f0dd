import numpy as np


def pair_energy(pos, cutoff):
    n = pos.shape[0]
    energy = 0.0
    forces = np.zeros_like(pos)
    for i in range(n):
        for j in range(i + 1, n):
            d = pos[j] - pos[i]
            r2 = np.dot(d, d)
            if r2 < cutoff * cutoff:
                inv = 1.0 / r2
                energy += inv
                forces[i] -= inv * d
                forces[j] += inv * d
    return energy, forces

# run: pair_energy(np.array([[0.0, 0.0], [0.5, 0.1], [2.0, 0.0], [0.6, 0.7]]), 1.0)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_for, npr_get, npr_if, npr_jit, npr_np_dot, npr_range


@npr_jit
def pair_energy(pos, cutoff):
    n = pos.shape[0]
    energy = 0.0
    forces = jax.new_ref(jnp.zeros_like(pos))
    def _loop_i(i, energy):
        def _loop_j(j, energy):
            d = npr_get(pos)[j] - npr_get(pos)[i]
            r2 = npr_np_dot(d, d)
            def _then_1(energy):
                inv = 1.0 / r2
                energy += inv
                npr_at(forces)[i] -= inv * d
                npr_at(forces)[j] += inv * d
                return energy
            def _else_1(energy):
                pass
                return energy
            energy = npr_if(r2 < cutoff * cutoff, _then_1, _else_1, energy)
            return energy
        energy = npr_for(npr_range(i + 1, n), _loop_j, energy)
        return energy
    energy = npr_for(npr_range(n), _loop_i, energy)
    return energy, forces[...]

# run: pair_energy(np.array([[0.0, 0.0], [0.5, 0.1], [2.0, 0.0], [0.6, 0.7]]), 1.0)
