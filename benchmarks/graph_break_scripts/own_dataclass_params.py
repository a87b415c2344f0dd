import numpy as np
from dataclasses import dataclass
ENTRY = "react_diffuse"

@dataclass
class Config:
    dt: float = 0.2
    du: float = 0.16
    dv: float = 0.08
    feed: float = 0.035
    kill: float = 0.065

def react_diffuse(u, v, nsteps):
    cfg = Config()
    for step in range(nsteps):
        lu = u[:-2] - 2.0 * u[1:-1] + u[2:]
        lv = v[:-2] - 2.0 * v[1:-1] + v[2:]
        uvv = u[1:-1] * v[1:-1] ** 2
        u[1:-1] += cfg.dt * (cfg.du * lu - uvv + cfg.feed * (1.0 - u[1:-1]))
        v[1:-1] += cfg.dt * (cfg.dv * lv + uvv - (cfg.feed + cfg.kill) * v[1:-1])
    print(f"{cfg}: mean v {v.mean():.8f}")
    return u, v

def make_inputs(size="small"):
    x = np.linspace(-1.0, 1.0, 64)
    return dict(u=1.0 - 0.5 * np.exp(-20 * x ** 2), v=0.25 * np.exp(-20 * x ** 2), nsteps=100)
