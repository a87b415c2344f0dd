"""Stiff chemical kinetics: Robertson's three-species problem (rates 0.04, 3e7, 1e4) integrated by
implicit Euler with Newton iterations, in the pattern of chemical-engineering course codes: the
right-hand side and its analytic Jacobian written into arrays handed in, `np.linalg.solve` of
(I - h J) per Newton step, a Newton loop that gives up after a few iterations (`return None`),
the step halved and retried in a `while t < t_end` on failure and grown by 1.5 after a quick
success, the conservation y1 + y2 + y3 = 1 checked, and an explicit Euler run that blows up
under np.errstate (overflow counted, not raised); a `try`/`except LinAlgError` around a solve of
a singular Jacobian in the driver.
"""
import numpy as np

K1, K2, K3 = 0.04, 3.0e7, 1.0e4
Y0 = [1.0, 0.0, 0.0]


def rhs(y, out):
    out[0] = -K1 * y[0] + K3 * y[1] * y[2]
    out[1] = K1 * y[0] - K3 * y[1] * y[2] - K2 * y[1] * y[1]
    out[2] = K2 * y[1] * y[1]


def jacobian(y, J):
    J[0] = [-K1, K3 * y[2], K3 * y[1]]
    J[1] = [K1, -K3 * y[2] - 2.0 * K2 * y[1], -K3 * y[1]]
    J[2, :] = 0.0
    J[2, 1] = 2.0 * K2 * y[1]


def newton_step_none(y, h, tol=1e-10, max_it=4):
    """The first form: None when Newton fails (NPR128: None or a tuple, as the data decides)."""
    z = y.copy()
    f = np.empty(3)
    J = np.empty((3, 3))
    for k in range(max_it):
        rhs(z, f)
        g = z - y - h * f
        jacobian(z, J)
        dz = np.linalg.solve(np.eye(3) - h * J, -g)
        z += dz
        if np.abs(dz).max() <= tol * (1.0 + np.abs(z).max()):
            return z, k + 1
    return None


def newton_step(y, h, tol=1e-10, max_it=4):
    """One implicit Euler step: solve z - y - h f(z) = 0 from z = y; 0 iterations: it failed."""
    z = y.copy()
    f = np.empty(3)
    J = np.empty((3, 3))
    for k in range(max_it):
        rhs(z, f)
        g = z - y - h * f
        jacobian(z, J)
        dz = np.linalg.solve(np.eye(3) - h * J, -g)
        z += dz
        if np.abs(dz).max() <= tol * (1.0 + np.abs(z).max()):
            return z, k + 1
    return z, 0


def integrate(y, t_end, h, h_max=1e4):
    t = 0.0
    steps = rejected = 0
    while t < t_end:
        h = min(h, t_end - t, h_max)
        z, iters = newton_step(y, h)
        if iters == 0:
            h *= 0.5
            rejected += 1
            continue
        y[:] = z
        t += h
        steps += 1
        if iters <= 3:
            h *= 2.0
    return t, steps, rejected


def explicit_euler(y, h, n):
    f = np.empty(3)
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(n):
            rhs(y, f)
            y += h * f
    return int(np.isfinite(y).sum())


CHECKS = {
    "rhs": lambda: (np.array([0.9, 3e-5, 0.1]), np.zeros(3)),
    "jacobian": lambda: (np.array([0.9, 3e-5, 0.1]), np.full((3, 3), 7.0)),
    "newton_step_none": lambda: (np.array([1.0, 0.0, 0.0]), 10.0, 1e-14, 2),
    "newton_step": lambda: (np.array([1.0, 0.0, 0.0]), 1e-3),
    "newton_step#fails": lambda: (np.array([1.0, 0.0, 0.0]), 10.0, 1e-14, 2),
    "integrate": lambda: (np.array(Y0), 40.0, 1e-4),
    "integrate#rejections": lambda: (np.array(Y0), 4.0, 1.0),
    "explicit_euler": lambda: (np.array(Y0), 1e-3, 40),
    "explicit_euler#stable": lambda: (np.array(Y0), 1e-8, 20),
}

if __name__ == "__main__":
    y = np.array(Y0)
    for t_end, h0 in [(0.4, 1e-4), (4.0, 0.1), (40.0, 1.0)]:
        t, steps, rejected = integrate(y, t_end, h0)
        print("t_end", t_end, "steps", steps, "rejected", rejected, "y", np.array2string(y, precision=8))
        print("  mass", "%.12f" % y.sum())
        y[:] = Y0
    y = np.array(Y0)
    t, steps, rejected = integrate(y, 40.0, 1e-4)
    print("y2 / 1e-5", "%.8f" % (y[1] / 1e-5), "ok", bool(abs(y.sum() - 1.0) < 1e-9))
    blown = np.array(Y0)
    print("finite entries after explicit Euler", explicit_euler(blown, 1e-3, 40))
    J = np.zeros((3, 3))
    jacobian(np.array([1.0, 0.0, 0.0]), J)
    try:
        np.linalg.solve(J, np.ones(3))
        print("solved")
    except np.linalg.LinAlgError as err:
        print("singular Jacobian:", err)
