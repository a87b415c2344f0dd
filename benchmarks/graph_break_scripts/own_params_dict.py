import numpy as np
ENTRY = "run_model"

def run_model(x, params, nsteps):
    dt = params["dt"]
    for step in range(nsteps):
        x += dt * (params["growth"] * x * (1.0 - x / params["capacity"]))
    return x

def make_inputs(size="small"):
    return dict(x=np.linspace(0.1, 1.0, 6), params={"dt": 0.1, "growth": 0.8, "capacity": 5.0}, nsteps=20)
