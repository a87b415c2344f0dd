import numpy as np
ENTRY = "smooth_and_fit"

def smooth_and_fit(A, b, nsweeps):
    for sweep in range(nsweeps):
        b[1:-1] = 0.25 * b[:-2] + 0.5 * b[1:-1] + 0.25 * b[2:]
    try:
        x = np.linalg.solve(A, b)
        print("solved exactly")
    except np.linalg.LinAlgError:
        x = np.linalg.lstsq(A, b, rcond=None)[0]
        print("singular: least squares")
    r = b - A @ x
    for sweep in range(nsweeps):
        x[1:] += 0.1 * r[1:] - 0.05 * x[:-1]
    return x

def make_inputs(size="small"):
    n = 6
    A = np.vander(np.linspace(0.0, 1.0, n), n)
    A[-1] = A[-2]  # two equal rows: singular (an exact zero pivot)
    return dict(A=A, b=np.sin(np.arange(n, dtype=float)), nsweeps=20)

CHECKS = {
    "smooth_and_fit": lambda: make_inputs(),
    "smooth_and_fit#regular": lambda: dict(A=np.eye(6) * 4.0 + np.diag(np.ones(5), 1),
                                           b=np.sin(np.arange(6, dtype=float)), nsweeps=20),
}
