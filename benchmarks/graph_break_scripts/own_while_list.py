import numpy as np
ENTRY = "bisect_history"

def bisect_history(coef, lo, hi, tol):
    mids = []
    while hi - lo > tol and len(mids) < 60:
        mid = 0.5 * (lo + hi)
        f = np.polyval(coef, mid)
        mids.append(mid)
        if f > 0:
            hi = mid
        else:
            lo = mid
    return np.array(mids), lo

def make_inputs(size="small"):
    return dict(coef=np.array([1.0, 0.0, -2.0]), lo=np.float64(0.0), hi=np.float64(2.0), tol=1e-6)
