# NumPy-semantics shims over jax.numpy, pasted verbatim into converted files.
import numpy as np
import jax
import jax.numpy as jnp
