import logging
import numpy as np
ENTRY = "relax_logged"
log = logging.getLogger(__name__)

def relax_logged(u, nsteps):
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        if step % 3 == 0:
            log.info("step %d residual %.4e", step, np.abs(u).max())
    return u
def make_inputs(size="small"):
    u = np.zeros(8); u[-1] = 1.0
    return dict(u=u, nsteps=7)
