"""Hand-written JAX ports of benchmark programs: what a competent JAX user writes with
`.at[]`, `jnp.where` and lax loops, keeping the original's algorithm (a Python loop over
elements stays a lax loop over elements). Each takes the original's parameters (arrays as
JAX arrays, ints static) and returns `(result, {mutated parameter: final value})`, the shape
of `np2ref.compile(fn).pure`."""
