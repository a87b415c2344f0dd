import numpy as np
ENTRY = "integrate"

def rhs(y):
    return np.array([y[1], -y[0] - 0.1 * y[1]])

def integrate(y, t_end, tol, h):
    t = 0.0
    ts = [t]
    ys = [y.copy()]
    while t < t_end:
        h = min(h, t_end - t)
        k1 = rhs(y)
        k2 = rhs(y + h * k1)
        err = 0.5 * h * np.max(np.abs(k2 - k1))
        if err > tol:
            h *= 0.5
            continue
        y += 0.5 * h * (k1 + k2)
        t += h
        ts.append(t)
        ys.append(y.copy())
        h *= 1.5
    print(f"{len(ts) - 1} accepted steps")
    return np.array(ts), np.array(ys)

def make_inputs(size="small"):
    return dict(y=np.array([1.0, 0.0]), t_end=2.0 if size == "small" else 50.0, tol=1e-4, h=0.1)
