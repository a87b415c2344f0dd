"""Well-stirred reactor with a bang-bang controller, written the way tutorial code is: the
control decision is a conditional expression on the simulated state (`q = q_max if T < T_set
else 0.0`), a safety factor uses `and`/`or` on array values, the rate law is a lambda applied
through a masked update (`c[c > eps] = rate(c[c > eps], T_arr[c > eps])`, a log that would warn on
the masked-out zeros), and a guarded division picks its operand only when it is defined."""
import numpy as np

ENTRY = "simulate"


def simulate(c, T0, steps, dt, k0, Ea, q_max, T_set):
    n = c.shape[0]
    T = T0
    history = np.zeros((steps, 3))
    rate = lambda conc, temp: conc * np.exp(np.log(k0) - Ea / temp)  # noqa: E731
    eps = 1e-9
    for s in range(steps):
        q = q_max if T < T_set else 0.0
        T_arr = np.full(n, T)
        active = c > eps
        c[active] = c[active] - dt * rate(c[active], T_arr[active])
        burned = c.sum()
        safe = (T < 2.0 * T_set and burned > 0.0) or q == 0.0
        T = T + dt * (q - 0.01 * (T - T0)) * (1.0 if safe else 0.5)
        ratio = c[0] / c[n - 1] if c[n - 1] != 0.0 else -1.0
        history[s, 0] = T
        history[s, 1] = ratio
        history[s, 2] = burned
    return history, c


def make_inputs(size="small"):
    n, steps = (7, 6) if size == "small" else (100000, 400)
    rng = np.random.default_rng(11)
    c = rng.uniform(0.0, 1.0, n)
    c[::3] = 0.0
    return dict(c=c, T0=300.0, steps=steps, dt=0.05, k0=2.0, Ea=500.0, q_max=40.0, T_set=320.0)


if __name__ == "__main__":
    history, c = simulate(**make_inputs("large"))
    print(f"T = {history[-1, 0]:.6f}, left = {c.sum():.6f}")
