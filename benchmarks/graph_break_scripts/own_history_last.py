import numpy as np
ENTRY = "cool"

def cool(T, nsteps, rate):
    energies = []
    hottest = []
    for step in range(nsteps):
        T[1:-1] += rate * (T[2:] - 2 * T[1:-1] + T[:-2])
        T *= 0.99
        energies.append(float((T ** 2).sum()))
        hottest.append(int(np.argmax(T)))
        if energies[-1] < 1.0:
            print("cold at", step, hottest[-1])
        print(step, round(energies[-1], 9))
    return energies, hottest

def make_inputs(size="small"):
    return dict(T=np.linspace(0.0, 2.0, 12) ** 2, nsteps=8, rate=0.2)
