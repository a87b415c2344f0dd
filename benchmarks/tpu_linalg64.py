"""Which float64 linear-algebra operations XLA compiles on this backend (run on a TPU: `python
benchmarks/tpu_linalg64.py`). On a TPU v5e, jax 0.10.2 (2026-12-07): lu (solve, inv, det) fails with
"Only F32 and C64 types are implemented in LuDecomposition", eig has no lowering; cholesky, eigh, qr,
svd, lstsq, triangular and tridiagonal solves compile. np2ref refuses a float64 LU there (NPR302)."""
import jax, jax.numpy as jnp, numpy as np
jax.config.update("jax_enable_x64", True)
a = np.random.default_rng(0).random((6, 6)); a = a @ a.T + 6 * np.eye(6); b = np.ones(6)
from jax import lax
cases = {
    "lu": lambda: jax.lax.linalg.lu(a),
    "cholesky": lambda: jnp.linalg.cholesky(a),
    "triangular_solve": lambda: jax.scipy.linalg.solve_triangular(np.tril(a), b, lower=True),
    "eigh": lambda: jnp.linalg.eigh(a),
    "qr": lambda: jnp.linalg.qr(a),
    "svd": lambda: jnp.linalg.svd(a),
    "solve": lambda: jnp.linalg.solve(a, b),
    "inv": lambda: jnp.linalg.inv(a),
    "det": lambda: jnp.linalg.det(a),
    "eig": lambda: jnp.linalg.eig(a),
    "lstsq": lambda: jnp.linalg.lstsq(a, b),
    "tridiagonal_solve": lambda: lax.linalg.tridiagonal_solve(np.ones(6), 4 * np.ones(6), np.ones(6), b[:, None]),
}
for name, f in cases.items():
    try:
        out = jax.jit(f)()
        jax.block_until_ready(out)
        print(name, "OK", jax.tree_util.tree_leaves(out)[0].dtype)
    except Exception as e:
        print(name, "FAIL", type(e).__name__, str(e).split("\n")[0][:160])
