import numpy as np
ENTRY = "random_walk"

def random_walk(x, nsteps, sigma):
    np.random.seed(42)
    for step in range(nsteps):
        x += sigma * np.random.randn(x.size)
        if step % 3 == 0:
            print("step", step, "spread", x.std())
    return x
def make_inputs(size="small"):
    return dict(x=np.zeros(5), nsteps=7, sigma=0.5)
