"""Calls outside NumPy that np2ref translates because they have an exact JAX counterpart.

- MATH_FUNCS: functions of Python's math module that run on traced floats (np2ref/rt/pymath.py:
  npr_math, with Python's ValueError/OverflowError kept as run-time checks). Other math
  functions still run only on concrete values (NPR031 on a traced one).
- LIBRARY_CALLS: qualified name -> the runtime shim that computes it on jax arrays, with the
  conditions under which it agrees with the library (each row has a differential test against
  the library in tests/library/test_solve_banded.py). The module analysis (analysis/module.py) does
  not make a function host code for calling one of these.
"""

from __future__ import annotations

MATH_FUNCS = frozenset({
    "sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
    "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fabs", "atan2", "copysign",
    "hypot", "pow", "fmod", "floor", "ceil", "trunc", "isnan", "isinf", "isfinite", "isclose",
    "radians", "degrees",
})

LIBRARY_CALLS = {
    # a tridiagonal system (LAPACK gtsv): see npr_lib_solve_banded / npr_lib_dgtsv
    "scipy.linalg.solve_banded": "npr_lib_solve_banded",
    "scipy.linalg.lapack.dgtsv": "npr_lib_dgtsv",
    # a copy of an array (`u_old = copy.deepcopy(u)`): a new array, as x.copy() (npr_lib_copy)
    "copy.copy": "npr_lib_copy",
    "copy.deepcopy": "npr_lib_deepcopy",
}
