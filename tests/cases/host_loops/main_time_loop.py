# A main() that seeds NumPy's generator stays host code; its time loop is lifted into a
# compiled function, defined before main(), and called where the loop stood.
import numpy as np


def main(nt=100):
    np.random.seed(1)
    u = np.random.rand(32)
    alpha = 0.2
    peak = 0.0
    for t in range(nt):
        u[1:-1] += alpha * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        peak = max(peak, float(u.max()))
    print(f"{peak:.6f}")
    return u


if __name__ == "__main__":
    main()
# output
# A main() that seeds NumPy's generator stays host code; its time loop is lifted into a
# compiled function, defined before main(), and called where the loop stood.
import numpy as np
import jax
import jax.numpy as jnp
from np2ref.rt import npr_at, npr_float, npr_for, npr_jit, npr_max, npr_pyreturn, npr_range


@npr_jit(mutated=('u',))
def _main_loop_11(alpha, nt, peak, u):
    _peak_passed = peak
    def _loop_t(t, peak):
        npr_at(u)[1:-1] += alpha * (u[...][2:] - 2.0 * u[...][1:-1] + u[...][:-2])
        peak = npr_max(peak, npr_float(u[...].max()))
        return peak
    peak = npr_for(npr_range(nt), _loop_t, peak)
    return npr_pyreturn(peak, 'passed', _peak_passed)


def main(nt=100):
    np.random.seed(1)
    u = np.random.rand(32)
    alpha = 0.2
    peak = 0.0
    peak = _main_loop_11(alpha, nt, peak, u)
    print(f"{peak:.6f}")
    return u


if __name__ == "__main__":
    main()
