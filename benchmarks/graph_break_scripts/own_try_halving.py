import numpy as np
ENTRY = "grow_until_overflow"

def grow_until_overflow(u, rate, nsteps):
    halvings = 0
    for step in range(nsteps):
        u[1:-1] = 0.25 * u[:-2] + 0.5 * u[1:-1] + 0.25 * u[2:]
        try:
            with np.errstate(over="raise"):
                trial = u * rate
        except FloatingPointError:
            rate = np.sqrt(rate)
            halvings += 1
            continue
        u[:] = trial
        u[0] = u[-1] = 0.0
    print(f"{halvings} rate halvings, max {u.max():.6e}")
    return u, rate

def make_inputs(size="small"):
    return dict(u=np.exp(-np.linspace(-3.0, 3.0, 32) ** 2) * 1e250, rate=1e20, nsteps=40)
