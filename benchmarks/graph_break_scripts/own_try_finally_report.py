import numpy as np
ENTRY = "relax_report"

def relax_report(u, nsteps, tol):
    for it in range(nsteps):
        change = 0.25 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u[1:-1] += change
        if np.abs(change).max() < tol:
            break
    try:
        assert np.abs(change).max() < tol, "not converged"
        status = "converged"
    except AssertionError as err:
        status = str(err)
    finally:
        print(f"after {it + 1} sweeps: {status}")
    return u, it

def make_inputs(size="small"):
    u = np.zeros(12)
    u[-1] = 1.0
    return dict(u=u, nsteps=400, tol=1e-4)

CHECKS = {
    "relax_report": lambda: make_inputs(),
    "relax_report#short": lambda: dict(make_inputs(), nsteps=5),
}
