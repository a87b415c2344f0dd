"""A layer loop nested in a time loop, with parameters and gradients updated in place.

    python examples/pipelined_layers.py

`train` is plain NumPy: a stack of tanh layers `W[l]` trained by gradient descent. Each step
runs the layers forward over a few micro-batches, back-propagates layer by layer, accumulates
the gradient of each layer into `gW[l]` in place, and updates `W` in place. np2ref turns the
three nested Python loops into nested `fori_loop`s (scans) whose bodies read `W[l]` from a ref
and add into `gW[l]` through a ref: the parameters and their gradients live in one buffer each
for the whole run, with no per-layer copies carried through the scans. The script compares it
with the NumPy original and with a functional JAX version (`jax.grad` inside `lax.scan`s) and
prints the memory XLA plans for each (`compiled.lower(...).compile().memory_analysis()`).
"""

import numpy as np


def train(W, gW, x, y, lr, steps, micro):
    """Train W (layers, d, d) in place on (x, y); gW holds the last step's gradient.
    Returns the loss of every step."""
    layers = W.shape[0]
    n = x.shape[0] // micro
    xs = x.reshape(micro, n, x.shape[1])                 # micro-batches
    ys = y.reshape(micro, n, y.shape[1])
    acts = np.zeros((layers + 1, n, x.shape[1]))
    losses = np.zeros(steps)
    for t in range(steps):
        gW.fill(0.0)
        for m in range(micro):
            acts[0] = xs[m]
            for i in range(layers):                      # forward, layer by layer
                acts[i + 1] = np.tanh(acts[i] @ W[i])
            err = acts[layers] - ys[m]
            losses[t] += 0.5 * np.sum(err * err) / x.shape[0]
            delta = err / x.shape[0]
            for k in range(layers):                      # backward, last layer first
                l = layers - 1 - k
                delta = delta * (1.0 - acts[l + 1] * acts[l + 1])
                gW[l] += acts[l].T @ delta
                delta = delta @ W[l].T
        W -= lr * gW
    return losses


def make_inputs(layers=4, d=16, batch=32, steps=20, micro=4, seed=0):
    rng = np.random.default_rng(seed)
    W = rng.standard_normal((layers, d, d)) / np.sqrt(d)
    x = rng.standard_normal((batch, d))
    y = np.tanh(x @ rng.standard_normal((d, d)) / np.sqrt(d))
    return dict(W=W, gW=np.zeros_like(W), x=x, y=y, lr=0.5, steps=steps, micro=micro)


def functional_train(W, x, y, lr, steps, micro):
    """The same training in functional JAX: jax.grad of the loss inside lax.scan over steps."""
    import jax
    import jax.numpy as jnp

    n = x.shape[0] // micro
    xs, ys = x.reshape(micro, n, -1), y.reshape(micro, n, -1)

    def loss(W, xm, ym):
        def layer(a, w):
            return jnp.tanh(a @ w), None
        out, _ = jax.lax.scan(layer, xm, W)
        err = out - ym
        return 0.5 * jnp.sum(err * err) / x.shape[0]

    def step(W, _):
        def one(acc, batch):
            value, g = jax.value_and_grad(loss)(W, *batch)
            return (acc[0] + value, acc[1] + g), None
        (total, gW), _ = jax.lax.scan(one, (jnp.zeros((), W.dtype), jnp.zeros_like(W)), (xs, ys))
        return W - lr * gW, total

    W, losses = jax.lax.scan(step, W, None, length=steps)
    return losses, W


def memory_report(compiled, inputs):
    """{variant: memory_analysis numbers in bytes} for the np2ref program and the functional one."""
    import functools

    import jax

    def numbers(lowered):
        m = lowered.compile().memory_analysis()
        return {"argument": m.argument_size_in_bytes, "output": m.output_size_in_bytes,
                "alias": m.alias_size_in_bytes, "temp": m.temp_size_in_bytes}

    fixed = {k: inputs[k] for k in ("lr", "steps", "micro")}
    functional = jax.jit(functools.partial(functional_train, steps=fixed["steps"], micro=fixed["micro"]))
    with jax.enable_x64(True):
        func = numbers(functional.lower(inputs["W"], inputs["x"], inputs["y"], fixed["lr"]))
    return {"np2ref (refs)": numbers(compiled.lower(**inputs)), "functional (jax.grad + scan)": func}


def main():
    import jax

    import np2ref

    inputs = make_inputs()
    original = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()}
    losses_np = train(**original)

    compiled = np2ref.compile(train)
    converted = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()}
    losses_ref = compiled(**converted)

    with jax.enable_x64(True):
        losses_fn, W_fn = functional_train(inputs["W"], inputs["x"], inputs["y"], inputs["lr"],
                                           inputs["steps"], inputs["micro"])

    print(f"loss: first {losses_np[0]:.6f}, last {losses_np[-1]:.6f}")
    print(f"np2ref vs NumPy:     losses {np.max(np.abs(losses_ref - losses_np)):.1e}, "
          f"W {np.max(np.abs(converted['W'] - original['W'])):.1e}, "
          f"gW {np.max(np.abs(converted['gW'] - original['gW'])):.1e}")
    print(f"functional vs NumPy: losses {np.max(np.abs(np.asarray(losses_fn) - losses_np)):.1e}, "
          f"W {np.max(np.abs(np.asarray(W_fn) - original['W'])):.1e}")
    print("memory_analysis (bytes):")
    for name, m in memory_report(compiled, inputs).items():
        print(f"  {name:30s} " + "  ".join(f"{k} {v:>8,}" for k, v in m.items()))


if __name__ == "__main__":
    main()
