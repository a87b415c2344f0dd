import numpy as np
ENTRY = "grow"

def grow(u, rate, nsteps):
    overflowed = 0
    for step in range(nsteps):
        try:
            with np.errstate(over="raise"):
                u = u * rate
        except FloatingPointError:
            overflowed += 1
            u = u / rate
    return u, overflowed

def make_inputs(size="small"):
    return dict(u=np.array([1.0, 1e300, 2.0]), rate=10.0, nsteps=4)
