import numpy as np


def label_selected(labels, energy, cut):
    """Number the particles above the cut 0, 1, 2, ... in order; the rest keep -1."""
    hot = energy > cut
    labels[hot] = np.arange(np.count_nonzero(hot))
    energy[energy < 0] = np.arange(np.count_nonzero(energy < 0)) * 0.5 + energy[energy < 0]

# run: label_selected(np.full(6, -1), np.array([0.5, 2.0, -1.0, 3.0, -0.25, 2.5]), 1.0)
# run: label_selected(np.full((2, 3), -1, dtype=np.int32), np.array([[0.5, 2.0, -1.0], [3.0, -0.25, 2.5]]), 9.0)
# output
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_jit, npr_mask_rank, npr_mask_store


@npr_jit(mutated=('labels', 'energy'))
def label_selected(labels, energy, cut):
    """Number the particles above the cut 0, 1, 2, ... in order; the rest keep -1."""
    hot = energy[...] > cut
    npr_mask_store(labels, hot, npr_mask_rank(hot, labels, 0), scalars=())
    npr_mask_store(energy, energy[...] < 0, npr_mask_rank(energy[...] < 0, energy, 0) * 0.5 + energy[...], scalars=())

# run: label_selected(np.full(6, -1), np.array([0.5, 2.0, -1.0, 3.0, -0.25, 2.5]), 1.0)
# run: label_selected(np.full((2, 3), -1, dtype=np.int32), np.array([[0.5, 2.0, -1.0], [3.0, -0.25, 2.5]]), 9.0)
