import numpy as np
ENTRY = "decay"

def decay(u, nsteps):
    for step in range(nsteps):
        u *= 0.5
        if step % 2 == 0:
            print(f"step {step}: u = {u}")
    print("final", u)
    return u
def make_inputs(size="small"):
    return dict(u=np.array([1.0, 2.0, 3.0]), nsteps=5)
