"""JAX internals for one kernel: jaxlib's LAPACK gtsv on the CPU (pymath.py's tridiagonal
solves, scipy.linalg.solve_banded's answer bit for bit). Apart from compat.py for its size."""

import jax


def _npr_lapack_gtsv(dl, d, du, b):
    """jaxlib's LAPACK gtsv kernel on CPU (the one jax.lax.linalg.tridiagonal_solve calls), with
    all its outputs: (dl, d, du, b) as gtsv leaves them and info. dl and du are padded to n
    (dl[0], du[-1] unused), b is (n, k) column-major as LAPACK reads it. None: no such kernel."""
    try:
        from jax._src.lib import lapack
        target = lapack.prepare_lapack_call("gtsv_ffi", b.dtype)
    except Exception:  # pragma: no cover
        return None
    shapes = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in (dl, d, du, b)]
    call = jax.ffi.ffi_call(target, [*shapes, jax.ShapeDtypeStruct((), "int32")],
                            input_output_aliases={0: 0, 1: 1, 2: 2, 3: 3},
                            input_layouts=[None, None, None, (1, 0)],
                            output_layouts=[None, None, None, (1, 0), None], vmap_method="sequential")
    return call(dl, d, du, b)
