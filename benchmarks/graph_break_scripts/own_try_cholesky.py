import numpy as np
ENTRY = "smooth_solve"

def smooth_solve(K, f, nsweeps):
    for sweep in range(nsweeps):
        f[1:-1] = 0.5 * f[1:-1] + 0.25 * (f[:-2] + f[2:])
    try:
        L = np.linalg.cholesky(K)
        shifted = False
    except np.linalg.LinAlgError:
        K += 1e-6 * np.eye(K.shape[0])
        L = np.linalg.cholesky(K)
        shifted = True
    y = np.linalg.solve(L, f)
    x = np.linalg.solve(L.T, y)
    for sweep in range(nsweeps):
        x[1:] -= 0.05 * x[:-1]
    print("shifted" if shifted else "positive definite", f"{x.sum():.10f}")
    return x, shifted

def make_inputs(size="small"):
    n = 8
    v = np.linspace(1.0, 2.0, n)
    return dict(K=np.outer(v, v), f=np.sin(np.arange(n, dtype=float)), nsweeps=15)

CHECKS = {
    "smooth_solve": lambda: make_inputs(),
    "smooth_solve#spd": lambda: dict(make_inputs(), K=4.0 * np.eye(8) - np.eye(8, k=1) - np.eye(8, k=-1)),
}
