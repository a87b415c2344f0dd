import numpy as np
ENTRY = "relax"

def relax(u, nsteps, tol):
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[:-2] + u[2:])
    residual = np.abs(u[1:-1] - 0.5 * (u[:-2] + u[2:])).max()
    try:
        assert residual < tol, f"not converged: {residual:.3e}"
        status = "converged"
    except AssertionError as err:
        status = str(err)
    finally:
        print(f"relax: {nsteps} sweeps")
    return u, status

def make_inputs(size="small"):
    u = np.zeros(24)
    u[-1] = 1.0
    return dict(u=u, nsteps=300, tol=1e-3)
