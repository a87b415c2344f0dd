"""Every diagnostic code, with the long explanation `np2ref explain CODE` prints."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Code:
    code: str
    title: str
    why: str
    before: str
    after: str


CODES = {c.code: c for c in [
    Code("NPR001", "unreadable source",
         "The file is missing, a folder, binary, or not in its encoding (UTF-8 unless a PEP 263 "
         "coding line says otherwise, as Python reads it). Nothing is written for it.",
         "$ np2ref convert data.bin", "$ np2ref convert solver.py"),
    Code("NPR002", "syntax error",
         "The file does not parse as Python. np2ref converts nothing in it and writes no output.",
         "u[1:-1] = (u[2:] + u[:-2]", "u[1:-1] = (u[2:] + u[:-2]) / 2"),
    Code("NPR003", "call to a function np2ref cannot see into",
         "A function np2ref translates may call NumPy, `math`, Python builtins and functions of the "
         "same module. A function that calls another library through an absolute import (scipy, "
         "numba, a package of yours) is not refused: it stays NumPy host code (NPR021, a note), and "
         "the functions np2ref converts are called from it as from any host code. NPR003 refuses a "
         "call np2ref cannot resolve at all, such as a helper imported relatively from the same "
         "package: np2ref converts one module at a time and cannot tell whether it writes its arguments.",
         "from .helpers import smooth\ndef step(u):\n    u += smooth(u)",
         "def smooth(u):  # moved into this module\n    out = np.zeros_like(u)\n"
         "    out[1:-1] = u[2:] - 2 * u[1:-1] + u[:-2]\n    return out\n\ndef step(u):\n    u += smooth(u)"),
    Code("NPR004", "NumPy function outside np2ref's table",
         "Each NumPy function np2ref translates is in a table that maps it to a jax.numpy function "
         "with the same dtypes and values. A function outside the table is refused rather than guessed. "
         "Functions whose result shape depends on data (np.nonzero, np.unique, boolean-mask reads) "
         "cannot have a static shape under jit; np.nonzero(m) used as an index (`x[np.nonzero(m)]`, "
         "`idx = np.nonzero(m)[0]` then only `x[idx]`) is the mask m itself, and is translated as "
         "`x[m]` is.",
         "count = len(np.nonzero(mask)[0])", "count = np.count_nonzero(mask)"),
    Code("NPR010", "global / nonlocal", "Rebinding module state is not translated.",
         "def step():\n    global t\n    t += 1", "def step(t):\n    return t + 1"),
    Code("NPR011", "loop that rebinds a written array np2ref cannot follow",
         "A written array that a loop's body rebinds to a new array (`y += v; y = y % L`) is "
         "translated: the loop runs on one Ref of its own, refilled with the new array at the end "
         "of each iteration, the caller's buffer given what the first iteration wrote "
         "(docs/loops.md). Refused: such a loop on array data (a `while` on data, a range read "
         "from data) when another name also sees the caller's array, or, when the call runs, when "
         "it ran no iteration (the name would still be the caller's array; checked before anything "
         "is written back, skipped by `.pure`); a rebinding inside an `if` on data (the name would "
         "be one buffer or another depending on the data); a `return` inside a `while` on data. A "
         "helper that returns its parameter itself on every path (`u = clamp(u)`) rebinds nothing. "
         "A test of sizes and Python ints alone (`while size <= N:`) is concrete when traced: that "
         "loop runs as Python's (NPR033).",
         "while err > tol:\n    u = smooth(u)\n    err = residual(u)",
         "while err > tol:\n    u[...] = smooth(u)\n    err = residual(u)"),
    Code("NPR012", "break / continue (no longer refused)", "`break` and `continue` are translated: "
         "the loop carries a break flag and the rest of the body runs under `if not skip:` (a "
         "`for` with a `break` is a fori_loop whose remaining iterations do nothing, so jax.grad "
         "and vmap go through it; see docs/loops.md; a loop variable read after the loop is the "
         "break's trip). A loop whose body assigns its variable that is read after it, one "
         "with a `return`, or a `for` over an iterator that may not end keeps Python's own "
         "`break`: exact while its conditions are concrete; a condition on array data there is "
         "refused when traced. np2ref no longer reports this code.",
         "for k in range(n):\n    if u.max() < tol: break\n    u[1:] *= 0.5",
         "(translated as written)"),
    Code("NPR013", "generator or coroutine", "np2ref translates functions that return values.",
         "def frames(u):\n    yield u.copy()", "def frames(u, n):\n    out = np.zeros((n,) + u.shape)\n    ...\n    return out"),
    Code("NPR014", "nested function, lambda or class that np2ref cannot lift",
         "A nested `def`, or a `name = lambda ...`, at the top of a function's body or of a loop "
         "body becomes a module function whose closure is passed in at each call (a closure reads "
         "its variables when it runs, and the call passes them then: the same objects). That is "
         "exact only when the helper is only ever called (not returned, stored or passed on: it "
         "would escape its frame), is not recursive, is defined before any call (in a loop body: "
         "called only later in that same body, where each pass defines it anew; not in a branch), "
         "is bound once, has literal defaults, uses no `nonlocal`, and no scope around a call "
         "rebinds a name it captures. The message says which condition failed. Classes inside "
         "functions are not translated.",
         "def f(u):\n    g = lambda x: x * 2\n    u[:] = np.array(list(map(g, u)))",
         "def f(u):\n    g = lambda x: x * 2\n    u[:] = g(u)"),
    Code("NPR015", "try / with", "Array code under jit cannot catch exceptions or hold context managers; "
         "`with np.errstate(...)` of 'ignore' and 'warn' is translated, its other modes are not.",
         "try:\n    u[i] = v\nexcept IndexError:\n    pass", "if 0 <= i < len(u):\n    u[i] = v"),
    Code("NPR016", "del", "Deleting names is not translated.", "del tmp", "(let tmp go out of scope)"),
    Code("NPR017", "unknown decorator", "np2ref removes its own and JIT-compiler decorators; others "
         "could change the function in ways it cannot see.", "@functools.lru_cache\ndef f(u): ...",
         "def f(u): ..."),
    Code("NPR018", "async", "Async functions are not translated.", "async def f(u): ...", "def f(u): ..."),
    Code("NPR019", "name defined nowhere",
         "A name the function reads is bound nowhere in the module and is not a builtin. NumPy "
         "raises NameError only if that line runs; np2ref traces every line of a loop or branch "
         "body, so it refuses the function rather than fail inside JAX.",
         "def f(u, flag):\n    if flag:\n        u[:] = undefined_name", "def f(u, flag):\n    if flag:\n        u[:] = 0.0"),
    Code("NPR020", "no source", "np2ref.compile needs a module-level Python function whose source "
         "it can read: not a lambda, builtin, method or a function typed at the prompt.",
         "fast = np2ref.compile(lambda u: u * 2)", "@np2ref.compile\ndef double(u):\n    return u * 2"),
    Code("NPR021", "host work in a compiled function", "Printing, file I/O, random set-up (seeding, "
         "making a generator) and calls np2ref cannot see into (a method of a module-level object, a "
         "function passed in as an argument (but a module function np2ref converts that writes none of "
         "its arguments: `rk4(rhs, y0)` with the module's `rhs`), a method of an argument that is not an "
         "array method, a "
         "library outside NumPy and math) stay NumPy code; a function doing them is not compiled (the "
         "functions it calls are). Compiling it would run such a call once, while tracing, and freeze "
         "its result into the program: a helper that draws random numbers would return the same draw "
         "on every call. Draws from `np.random` or from a Generator passed in are not host work: they "
         "run on the host at run time (see NPR023); so does `np.random.seed(s)` in a function given to "
         "np2ref.compile, in program order (in a converted module a function that seeds stays host code: "
         "a script's set-up, whose loops `convert` lifts).",
         "@np2ref.compile\ndef run(u):\n    print(u.sum())", "@np2ref.compile\ndef run(u):\n    return u.sum()"),
    Code("NPR022", "closure", "np2ref.compile of a nested function reads the enclosing function's "
         "variables (its closure) as values, again at every call; it refuses a closure it cannot read "
         "so: one that rebinds them (`nonlocal`), one over a variable not bound yet, or one that calls "
         "a function of the enclosing scope (it would run once, while tracing).",
         "def make(k):\n    n = 0\n    def f(u):\n        nonlocal n\n        n += 1\n        u *= k\n    return f",
         "def make(k):\n    def f(u):\n        u *= k\n    return f"),
    Code("NPR023", "random draw np2ref cannot make at run time",
         "A draw from `np.random` or a NumPy Generator inside a compiled function runs on the host "
         "when the program runs (an ordered io_callback), from the caller's generator, so the values "
         "are NumPy's own stream. It is refused when its parameters are being differentiated (a host "
         "draw has no derivative) or batched by jax.vmap (NumPy would draw once per batch member), "
         "when the receiver is not a NumPy generator, or when the draw's shape cannot be found "
         "without its parameters' values. Found at trace time.",
         "def noisy(mu, rng):\n    return rng.normal(mu, 1.0).sum()   # jax.grad over mu",
         "def noisy(mu, rng):\n    return (mu + rng.standard_normal(mu.shape)).sum()"),
    Code("NPR024", "a name imported as two different modules",
         "Imports inside function bodies name modules for the whole file, as module-level ones do. "
         "A name imported as two different things (`import numpy as np` at the top, `import math "
         "as np` in a function) could mean either at a given use, so np2ref refuses its uses "
         "rather than guess which calls are NumPy's.",
         "import numpy as np\n\ndef f(u):\n    import math as np\n    return u * np.pi",
         "import numpy as np\nimport math\n\ndef f(u):\n    return u * math.pi"),
    Code("NPR025", "structured dtype",
         "A structured dtype makes each element a record with named fields (`[('U', float), ('V', "
         "float)]`, `{'names': ..., 'formats': ...}`, `'f8,f8'`), and `Z['U']` is a view of one field that "
         "writes reach the records through. JAX arrays have no fields, so a function that makes one is "
         "refused where the dtype is written. Keep one array per field, or the fields along a last "
         "axis, where `Z[:, 0]` is a view as a field is.",
         "Z = np.zeros(n, [('U', float), ('V', float)])\nU = Z['U']\nU += 1",
         "Z = np.zeros((n, 2))\nU = Z[:, 0]\nU += 1"),
    Code("NPR030", "branch that had to stay Python",
         "A branch, `and`/`or` or `not` on array data that np2ref could not turn into lax.cond (a "
         "`return`, `break` or `continue` inside it, or a name it rebinds to values of different "
         "shapes) needs a Python bool, which traced data does not have. Found at trace time. Also an "
         "`assert` on array data whose message formats array data (`f\"drift {e}\"`; the loop index alone is "
         "kept). `sum(1 for s in sizes if s > 0)`: `int(np.count_nonzero([s > 0 for s in sizes]))`.",
         "if u.max() > 1.0:\n    return u", "u[...] = np.where(u.max() > 1.0, u, 0.0)"),
    Code("NPR031", "Python value from array data",
         "A size, a range bound, an index used as a Python int, or `int(x[0])` is computed from "
         "array data, which is only known when the compiled program runs. Found at trace time "
         "(`np2ref.compile`); `convert` cannot see it statically. Raised when the call runs: a "
         "Python number from array data that np2ref's traced float64/int64 cannot hold where "
         "Python's would (`n * n` or `math.floor(v)` beyond the int64 range, a negative float to "
         "a non-integer power, which is a complex in Python, int / int of ints beyond 2**53). "
         "`hists.append(hist.tolist())` in a compiled loop: append the array, `.tolist()` after the call.",
         "i = int(idx[0])\nu[i] = 1.0", "u[idx[0]] = 1.0"),
    Code("NPR032", "array data turned into a NumPy array",
         "Code inside the function calls np.asarray/np.array on traced data in a way np2ref does not "
         "translate (a NumPy call outside the table, a list built from array elements).",
         "vals = np.array([u[0], u[1]]).tolist()", "vals = u[:2]"),
    Code("NPR033", "loop that runs as a Python loop (a note)",
         "np2ref turns `for` loops into lax loops, whose compile time does not depend on the trip "
         "count. A loop it keeps as a Python loop is exact, but tracing runs its body once per "
         "iteration, so compile time (not the result) grows with the trip count. The reason is "
         "given: the body changes a Python container that outlives an iteration (`hist.extend(x)`, "
         "two appends to one list a trip, an append under an `if`: one `hist.append(x)` a trip is "
         "stacked by the lax loop instead), "
         "`return` or `else:` in the loop, the loop variable read after the loop, a written array "
         "rebound, or (found at trace time by `np2ref.compile`, which then warns with "
         "np2ref.PythonLoopWarning, the line and the trip count) a body that needs the loop "
         "variable as a Python int: it indexes a tuple or list with it, or slices or sizes with it. "
         "Loops over Python sequences and literal ranges of at most 16 trips are Python loops by "
         "design and get no note.",
         "hist = []\nfor t in range(steps):\n    u[1:-1] += c * (u[2:] - u[:-2])\n    hist.extend([u.sum(), u.max()])",
         "hist = []\nfor t in range(steps):\n    u[1:-1] += c * (u[2:] - u[:-2])\n"
         "    hist.append((u.sum(), u.max()))  # one append a trip: stacked by the lax loop"),
    Code("NPR034", "Python container changed a data-dependent number of times",
         "A list, dict or set changed (`hist.append(x)`, `seen.add(k)`, or passed to a function "
         "that changes it) under an `if` or `while` whose condition depends on array data, or in "
         "a loop that runs as Python but whose trip count is read from array data. Inside the "
         "compiled program the number of changes is known only at run time, while a Python "
         "container is built when the program is traced: np2ref refuses rather than return a "
         "list of the wrong length. Found by `check` where the condition reads a written array, "
         "else at trace time. In a `while` loop (a convergence history, accepted steps), store "
         "into an array of the most items there can be, with a count (`hist[n] = x; n += 1`, "
         "`n < maxit` in the loop's condition), return both and take `hist[:n]` after the call.",
         "for t in range(steps):\n    u *= 0.5\n    if u.max() > tol:\n        hist.append(u.max())",
         "hist = np.full(steps, np.nan)\nfor t in range(steps):\n    u *= 0.5\n    if u.max() > tol:\n"
         "        hist[t] = u.max()"),
    Code("NPR035", "loop too long to unroll",
         "A loop that must run as a Python loop (NPR033 says why: a slice or a Python tuple indexed "
         "with the loop variable, a list extended) is traced one iteration at a time, so "
         "compile time grows with the trip count. Past the unroll limit (1,000 iterations; "
         "NP2REF_UNROLL_LIMIT sets it, `none` lifts it) np2ref.compile refuses instead of making "
         "you wait minutes for XLA without knowing why. A `# np2ref: unroll` comment on the loop "
         "line (or just above it) opts that loop in. The message names the construct.",
         "for t in range(5000):\n    hist.extend([u.sum(), u.max()])\n    u *= 0.5",
         "for t in range(5000):  # np2ref: unroll\n    hist.extend([u.sum(), u.max()])\n    u *= 0.5\n"
         "(or, one append a trip, stacked: hist.append((u.sum(), u.max())))"),
    Code("NPR036", "graph break: a host loop with compiled steps (a note)",
         "A loop of a host function (a `main()` that seeds or plots) whose body holds a call np2ref "
         "cannot compile (plotting, a method of a module-level object, a helper of a module it does "
         "not translate, file I/O) stays a host loop, and `convert` lifts the array work between "
         "those calls into compiled steps: the calls run on the host at their place in program "
         "order, on the very NumPy arrays the program holds there (each step writes back what it "
         "changes and returns what it rebinds). A host call in the loop's own `for` or `while` line "
         "(a progress bar `for step in tqdm(range(n))`, `trange(n)`, a clock `while time.time() < "
         "end`) does the same: the line runs on the host each pass, the body becomes steps. One note "
         "names the steps, one each statement that stays host code and why: a host call, or a read "
         "of a Python int that changes on each pass (the loop index: compiled, a step would compile "
         "once per value).",
         "for it in range(nt):\n    F[1:] += tau * F[:-1]\n    if it % 10 == 0:\n        plt.imshow(F)",
         "def _main_step_2(F, tau):\n    F[1:] += tau * F[:-1]   # compiled\n...\nfor it in range(nt):\n"
         "    _main_step_2(F, tau)\n    if it % 10 == 0:\n        plt.imshow(F)"),
    Code("NPR037", "trace budget spent",
         "A loop that runs as a Python loop, or a list comprehension, is traced one iteration at a "
         "time: each trip adds its body to the program, so a comprehension of 100,000 reductions "
         "traces (and XLA then compiles) for minutes, and a recursive one can run out of memory. "
         "A first call stops past its budget (20,000 traced equations, or 60 seconds spent unrolling) "
         "and names the innermost loop or comprehension being traced and its trip count. "
         "`trace_budget=` of np2ref.compile, the `trace_budget` config key or NP2REF_TRACE_BUDGET "
         "sets the equations (`none` lifts it), NP2REF_TRACE_SECONDS the seconds.",
         "D = np.array([[np.sum((x - y) ** 2) for x in X] for y in Y])",
         "D = np.sum((X[None, :, :] - Y[:, None, :]) ** 2, axis=-1)"),
    Code("NPR039", "host calls in every iteration of a loop (a note)",
         "A random draw np2ref cannot make in advance (under an `if`, two in one statement, a size "
         "that changes, a generator a helper also draws from), a function passed in, or a print runs "
         "on the host at its place in program order: inside a compiled loop that is one round trip "
         "from the device to Python and back per call per iteration, which dominates a loop of small "
         "array work (a Metropolis step with a host draw ran 10x slower than NumPy). The note names "
         "the loop, the calls and how many run per call of the function; calls that are all under "
         "an `if` of the body (`if step % every == 0: print(...)`) are a round trip only on the trips "
         "that take it, and the note says \"up to\" (2,000 trips of a small stencil: 1 ms with a "
         "print every 1,000 trips, 855 ms with one every trip). Draws made once per "
         "iteration, unconditionally, with arguments the loop does not change, are made before the "
         "loop in one host call (rewrite/rules/loop_draws.py) and get no note.",
         "for i in range(n):\n    x[0] += rng.random() - rng.normal()",
         "for i in range(n):\n    u = rng.random()\n    z = rng.normal()\n    x[0] += u - z"),
    Code("NPR040", "an object's call returned another shape or type than its first call",
         "A method of an object np2ref cannot see into (`SOURCE.draw(n)` on a module-level object, "
         "`sampler.next_batch(n)` on one passed in, in a function that writes none of its arguments) "
         "runs on the host at run time, in program order, as often as NumPy calls it. Its first call, "
         "made on the host (the original NumPy function's own call), fixes the shape, dtype and "
         "Python type of what it returns for the compiled program; a later call that returns "
         "another raises this error when the program runs. Arguments must be values known when "
         "the program is traced (sizes, numbers); array data computed in the function is NPR021.",
         "def draw(self, n):\n    self.k += 1\n    return self.rng.random(n + self.k)",
         "def draw(self, n):\n    return self.rng.random(n)"),
    Code("NPR041", "a 0-d array given to a converted function that asks a value's type or text",
         "Traced, a 0-d NumPy array argument is a 0-d JAX value, which np2ref's type(), isinstance() "
         "and repr() read as a NumPy scalar: NumPy's own answer (np.ndarray, `array(3)`) cannot be "
         "given. A converted file's function whose module asks a value's type or text (type, "
         "isinstance, repr, str, print) refuses a 0-d array argument when it is called; "
         "np2ref.compile runs the original NumPy function for such a call instead.",
         "f(np.array(3.0))  # def f(a): print(repr(a))", "f(np.float64(3.0))"),
    Code("NPR042", "a 0-d value that is a 0-d array in some paths and a NumPy scalar in others",
         "NumPy's 0-d arrays (`np.zeros(())`, `np.asarray(s)`, `x[0, ...]`) and its scalars (`x.sum()`, "
         "`x[0]`, `a + 1` of a 0-d array) answer type(), isinstance() and repr() differently; traced, "
         "both are 0-d JAX values, and np2ref knows which one NumPy holds from how the value was made. "
         "A loop or branch on array data whose results are new values loses that where it carries a "
         "0-d array, or makes one inside: `a = np.zeros(())`, then `a = a + x[i]` in the loop, is a "
         "scalar after one iteration and an array after none. Asking such a value's type or repr "
         "(type, isinstance, repr, print), or returning it to the caller (who gets a 0-d array or a "
         "NumPy scalar), is refused rather than answered for one path.",
         "a = np.zeros(())\nfor i in range(n):\n    a = a + x[i]\nprint(repr(a))",
         "a = np.zeros(())\nfor i in range(n):\n    a = a + x[i]\nprint(repr(np.asarray(a)))"),
    Code("NPR101", "unsupported ufunc.at", "np2ref translates .at of add, subtract, multiply, maximum, "
         "minimum (a scatter), and of divide, floor_divide, remainder, fmod, power and the logical and "
         "bitwise and/or/xor (one element at a time, in NumPy's order).",
         "np.hypot.at(a, idx, v)", "a[idx] = np.hypot(a[idx], v)  # idx without repeats"),
    Code("NPR102", "unsupported in-place method", "resize, partition and similar methods have no "
         "exact static-shape translation.", "a.partition(3)", "a.sort()"),
    Code("NPR104", "boolean mask store with values", "`a[mask] = values` with a mask known only at "
         "run time is translated when `values` is a scalar or `b[mask]` of a same-shaped array.",
         "a[mask] = np.arange(mask.sum())", "a[mask] = b[mask]"),
    Code("NPR105", "ufunc.at that casts after each element (no longer raised)", "np.add.at of float "
         "values into an integer array truncates after every addition, which one scatter cannot "
         "reproduce. np2ref used to refuse it; it now applies the elements one at a time in NumPy's "
         "order (a sequential loop: exact, but slow for many indices). Integer values stay one "
         "scatter.", "np.add.at(counts, idx, 0.5)  # one element at a time",
         "np.add.at(counts, idx, 1)  # one scatter"),
    Code("NPR106", "unsupported out=", "A tuple `out=` is not translated, nor a ufunc's `where=` without "
         "`out=` (NumPy leaves the elements where the mask is False uninitialised). A positional out "
         "(`np.add(a, b, c)`) is `out=c`.", "np.divmod(a, b, out=(q, r))",
         "q[...] = a // b\nr[...] = a % b"),
    Code("NPR107", "boolean-mask read of data-dependent size",
         "`x[mask]` has as many elements as `mask` has True values, which jit cannot know. Masked "
         "stores (`x[mask] = v`, `x[mask] *= 2`, `a[m] = f(b[m])`) and reductions (`np.sum(x[mask])`, "
         "`x[m].max()`, `.min()`, `.mean()`, `.prod()`, `.any()`, `.all()`, `.std()`, `.var()`, `np.median`, the "
         "count `len(x[m])` and `np.size(x[m])`; of an elementwise expression of masked reads, "
         "`np.abs(x[m]).max()`, `((x[m] - c) ** 2).sum()`; also of a name bound to the "
         "read and only reduced after it, in its block or one nested in it: `vals = x[m]` then "
         "`vals.mean()`, `np.sum(vals ** 2)`, `vals.size`, `d = vals - vals.mean()` then `d.max()`) are "
         "translated, and so are integers before the mask (`fout[i, m] = fin[8 - i, m]`, `fin[noslip[i], m]`: "
         "a loop's integer, arithmetic of it or a table's entry at it, each checked to be one value) and a selection kept in a name to be stored back under the same mask, reindexed only "
         "beside its selected axis (`b = F[m, :]`, `b = b[:, perm]`, later `F[m, :] = b`: the "
         "lattice-Boltzmann bounce-back) (`f` elementwise: "
         "arithmetic, NumPy's ufuncs, or a helper, nested def or lambda whose body is `return` of "
         "such an expression in its parameters); max and min "
         "of an empty selection raise NumPy's ValueError when the compiled call runs, and mean of an "
         "empty one is nan with NumPy's RuntimeWarnings (issued when the call runs). Rows under a 1-d "
         "mask reduce along axis 0 (`X[y == c].mean(axis=0)`, `.var(0)`, `X[y == c, :]`), and one "
         "element of a selection by an integer literal is translated (`cdf[cdf > 0][0]`, `x[x < t][-1]`, "
         "`np.where(cdf > u)[0][0]`, `np.argwhere(m)[0]`, `x[m].argmax()`, with NumPy's IndexError when "
         "there is none), as are its counts (`X[m].shape[0]`, `len(np.where(m)[0])`). A masked read "
         "kept as an array is not "
         "translated, nor a 0-d boolean index, nor max/min of complex values.",
         "return x[x > 0] * scale", "return np.where(x > 0, x * scale, 0.0)  # in place, zeros elsewhere"),
    Code("NPR108", "np.place with empty values",
         "np.place(a, mask, []) raises in NumPy only if the mask selects something, which depends "
         "on data.", "np.place(a, m, [])", "(drop the call, or pass values)"),
    Code("NPR109", "a NumPy result whose length depends on the data",
         "np.bincount(x) has max(x) + 1 elements, and np.histogram(a, bins) takes its bin edges from "
         "a's min and max (its bins= as an array or a string picks edges from the data too): jit "
         "needs static shapes and static edges. np.bincount of array data is translated with "
         "minlength= (the length then, unless a value is at or past it: NumPy would return a longer "
         "array there, and the compiled function raises this code instead, when it runs); "
         "np.histogram of array data with an integer bins= and range=, or with bins= an array of "
         "edges (NumPy's searchsorted rule; edges known only at run time are checked to increase "
         "then, with NumPy's ValueError). Known values (lists, constants) go through NumPy itself.",
         "counts = np.bincount(labels)\nh, edges = np.histogram(u, bins=20)",
         "counts = np.bincount(labels, minlength=n_labels)\nh, edges = np.histogram(u, bins=20, range=(0.0, 1.0))"),
    Code("NPR110", "slices whose lengths differ at run time",
         "A slice whose bounds move with a loop variable (`x[i:]`, `A[i, :i]`) or are read from data "
         "has a length known only when the compiled program runs; np2ref reads it as a masked "
         "buffer. Two such slices combined elementwise (or stored one into the other) must have the "
         "same length, which NumPy checks when it broadcasts them. The compiled call checks it when "
         "it runs and raises this code where the lengths differ: NumPy would have raised, or "
         "broadcast a slice of length 1. (Under `.pure` or a caller's own jit nothing is checked.)",
         "for i in range(n):\n    out[i] = (x[i:] * x[:i]).sum()",
         "for i in range(n):\n    out[i] = (x[i:] * x[:n - i]).sum()"),
    Code("NPR111", "a slice whose bounds are known only at run time, used where its length matters",
         "A slice whose bounds move with a loop variable or are read from data (`x[i:i + w]`, `x[k:]`, "
         "a CSR row `data[row[i]:row[i + 1]]`) has a length known only when the compiled program runs; "
         "np2ref reads it as a masked buffer, which elementwise arithmetic, reductions, `@`/np.dot "
         "with a vector and stores into a slice of the same kind support. A step with moving bounds, "
         "its shape or `.size`, an index array made from it, or a store of it into a region of static "
         "shape are refused while tracing (a loop with static bounds then runs as a Python loop "
         "instead, NPR033, when its trip count is small).",
         "for i in range(n):\n    out[i] = x[i:n:2].sum()",
         "for i in range(n):\n    out[i] = x[i:n].sum()  # or a static step: x[::2][i // 2:]"),
    Code("NPR112", "a library call translated only in some cases",
         "A few calls outside NumPy have an exact JAX counterpart (np2ref/analysis/library_table.py): "
         "scipy.linalg.solve_banded((1, 1), ab, b) and scipy.linalg.lapack.dgtsv(dl, d, du, b) call "
         "the LAPACK gtsv routine SciPy calls (on CPU jaxlib takes its LAPACK from SciPy), so every "
         "output, pivoting and SciPy's errors included, is SciPy's bit for bit. Refused with this "
         "code: other bands than (1, 1), arrays of mixed or other dtypes than float64/float32 "
         "(float64 only for dgtsv), shapes other than (3, n) / (n,) or (n, k) with n >= 2, and any "
         "backend but CPU. The function is no longer host code for calling them. solve_banded's x is "
         "differentiable (jax.grad, jvp: the solve's own rule, dx = A^-1 (db - dA x)); dgtsv's outputs are not.",
         "x = solve_banded((1, 2), ab, b)", "x = solve_banded((1, 1), ab3, b)  # a tridiagonal system"),
    Code("NPR120", "swap of arrays of different shapes in a loop",
         "Swapping two written arrays inside a compiled loop swaps their contents; that needs the "
         "same shape and dtype, and arrays (not a Python number).", "for k in range(n):\n    a, b = b, a  # a (4,), b (5,)",
         "(swap buffers of one shape)"),
    Code("NPR121", "range step from array data", "A loop's step must be a Python int; start and "
         "stop may come from data.", "for i in range(0, n, int(s[0])):", "for i in range(0, n, 2):"),
    Code("NPR122", "branches give a value different shapes",
         "A data-dependent `if` becomes lax.cond, whose branches must give each name the same shape.",
         "if u.sum() > 0:\n    w = u[:2]\nelse:\n    w = u", "w = np.where(u.sum() > 0, u, 0 * u)"),
    Code("NPR124", "gradient through a loop with a data-dependent trip count",
         "A `for` loop whose bounds are only known when the program runs becomes a while loop, "
         "as does a `while` loop whose condition reads array data; jax.grad cannot differentiate "
         "a while loop in reverse mode. Bounds computed from an enclosing loop's index are made "
         "concrete by running that enclosing loop as Python under grad; bounds read from array "
         "data stay traced. Forward mode (jax.jvp) works.",
         "for i in range(indptr[r], indptr[r + 1]):\n    y[r] += data[i] * x[idx[i]]",
         "y = np.zeros(n)\nnp.add.at(y, rows, data * x[cols])"),
    Code("NPR125", "overlapping self-copy at a traced index",
         "`a[idx] = a[other]` copies a view of the same array. Where the two overlap with different "
         "strides (a row into a column) NumPy copies element by element, so later elements read "
         "earlier writes; np2ref reproduces that order when the indices are Python values, and "
         "refuses it when an index is known only at run time.",
         "a[:, j] = a[i, :]", "a[:, j] = a[i, :].copy()  # if the buffered copy was meant"),
    Code("NPR126", "np.copyto's mask is a view of its destination",
         "`np.copyto(a, v, where=m)` with `m` a view of `a` (a transpose, a shifted slice): NumPy "
         "reads the mask as it writes, so later elements see earlier writes, an order that depends "
         "on NumPy's iteration. np2ref refuses it; a mask that is `a` itself is exact.",
         "np.copyto(a, 0, where=a.T)", "np.copyto(a, 0, where=a.T.copy())"),
    Code("NPR127", "an error in code that may not run",
         "A loop body whose trip count, or a branch whose condition, is known only at run time is "
         "traced whether or not it will run. If NumPy's rules fail there (a cast `same_kind` "
         "forbids, shapes that do not broadcast), NumPy would raise only when the code runs; "
         "np2ref cannot tell, so it refuses the function.",
         "for k in range(int(x.sum()) % 3):\n    flags &= counts",
         "for k in range(int(x.sum()) % 3):\n    flags &= counts.astype(bool)"),
    Code("NPR128", "a conditional expression on array data with operands of different types",
         "`a if c else b`, `a and b`, `a or b` with `c` (or `a`) traced becomes lax.cond, which "
         "evaluates only the operand chosen, as Python does. Python gives back the chosen object, so "
         "when the operands differ in shape or dtype (a NumPy int and a Python float, float32 and "
         "float64) NumPy's later results would depend on which one the data picks: refused, as is a "
         "choice between written arrays. A Python number and a NumPy scalar of one dtype give the "
         "NumPy type, as an `if` does. `max()`/`min()` return an operand too: refused between float16/float32/complex64 "
         "and another dtype, and where the operand's type can show (returned, kept, in arithmetic whose dtype differs by "
         "it: `y32 * (2 * max(x64[0], 0.5))`) between an int and a float or a Python number and a NumPy value. So is a name a data-dependent `if` or a lax loop carries that holds a Python float or "
         "a NumPy integer as the data decides (`best = -np.inf` then `best = x[i]` on int data), or a "
         "Python int its NumPy integer type cannot hold (`best = -1` then `best = u8[i]`). Found at "
         "trace time. Converting: `r = in_place(u) if c else step(u)` written or returned, in_place "
         "returning its argument.",
         "y = x[i] if x[i] > 0 else 0.5   # x: int64", "y = x[i] if x[i] > 0 else 0"),
    Code("NPR129", "a name that may be unbound, read where np2ref cannot check it",
         "A name a data-dependent `if` or loop may leave unbound (bound in one branch only, or in a "
         "loop that may run zero times) is read later. np2ref carries a flag beside it and raises "
         "Python's UnboundLocalError when the program runs, at the reads it can check. It refuses "
         "such a read that passes the name to a nested function (Python raises NameError there, and "
         "only if the helper reads it) or of a name that holds an array that is written.",
         "if x[0] > 0:\n    y = x * 2\ndef f():\n    return y + 1\nreturn f()",
         "y = np.zeros_like(x)\nif x[0] > 0:\n    y = x * 2\ndef f():\n    return y + 1\nreturn f()"),
    Code("NPR130", "a loop on array data changes the shape of a value it carries",
         "A `while` loop whose condition reads array data, or a `for` loop whose trip count is known "
         "only at run time, becomes lax.while_loop / fori_loop, whose carried values keep one shape "
         "from one iteration to the next. A name the body rebinds to a longer array each time "
         "(`hist = np.append(hist, v)`) would end with a shape that depends on how many times the "
         "loop ran, and one that goes from a scalar to an array (`acc = 0.0`, then `acc = acc + x`) "
         "with one that depends on whether it ran at all. Found at trace time.",
         "hist = np.zeros(0)\nwhile x[0] < 3:\n    x[0] += 1\n    hist = np.append(hist, x[0])",
         "hist = np.zeros(n_max)\nk = 0\nwhile x[0] < 3:\n    x[0] += 1\n    hist[k] = x[0]\n    k += 1"),
    Code("NPR131", "an array attribute JAX arrays do not have",
         "NumPy arrays carry their memory layout (`x.strides`, `x.flags`, `x.ctypes`, `x.base`, "
         "`x.data`); a JAX array has values and a shape, no layout. Code that reads one inside the "
         "translated function is refused when it is traced: the value would describe the caller's "
         "buffer, which the compiled program does not see.",
         "row_step = x.strides[0] // x.itemsize",
         "row_step = x.shape[1]   # a C-contiguous 2-d array"),
    Code("NPR201", "the same buffer passed twice", "A helper writes one parameter and reads another, "
         "and the caller passes the same buffer (or overlapping views) for both. In NumPy the helper "
         "would read its own writes; np2ref checks at trace time that the buffers are apart and refuses "
         "otherwise. Not refused where the helper reads the parameter only up to the statement that "
         "first touches the one it writes (`out[1:-1] = u[2:] - u[:-2]`, then stores into `out` "
         "alone): NumPy computes that statement's right-hand side before it stores.",
         "step(u, u)", "step(u, u.copy())"),
    Code("NPR202", "write to a module-level array", "Converted functions may read module constants "
         "but not write module-level arrays: the write would be invisible after jit. That includes a "
         "helper's array default (`def acc(x, buf=np.zeros(3))`) written by a call that leaves it out: "
         "one array, made when the helper is defined, that every such call writes into.",
         "GRID = np.zeros(8)\ndef f():\n    GRID[0] = 1.0", "def f(grid):\n    grid[0] = 1.0"),
    Code("NPR203", "a returned view written by the caller", "A helper returns a view of a parameter "
         "it does not write, and the caller writes through the result (or the base): np2ref would "
         "need the helper to return a reference.", "def inner(a):\n    return a[1:-1]\nv = inner(u)\nv[0] = 1.0",
         "u[1] = 1.0"),
    Code("NPR204", "iterating over rows of a written array", "`for row in A` binds views of A. "
         "When A is written, np2ref translates the loop as the indexed loop it stands for "
         "(`for k in range(len(A)): row = A[k]`; also `enumerate(A, start)`, `zip(A, B)` of written "
         "arrays, `A.T` and basic slices of A by literals and names the loop does not rebind). "
         "Refused: rows iterated from another expression (a call), or zipped with a sequence that is "
         "not a written array.", "for row, w in zip(A, [1.0, 2.0]):\n    row *= w",
         "for i, w in enumerate([1.0, 2.0]):\n    A[i] *= w"),
    Code("NPR205", "write through an unmodelled view", "np2ref models views made by basic slicing, "
         ".T, transpose, reshape, ravel, swapaxes, asarray and view(). Writes through other views "
         "(np.flip, .flat, .real, np.squeeze...) are refused, and so is unpacking views of an array "
         "that is written: `u, v = s` on a 2-D `s` (its rows), `p, q = np.split(s, 2)`, or a helper "
         "returning slices of it; `u, v = s[0], s[1]` is translated as views.", "np.flip(u)[0] = 1.0", "u[-1] = 1.0"),
    Code("NPR206", "overlapping arguments at call time", "The compiled function writes an argument "
         "that shares memory with another argument (an array inside a tuple, list or dict argument, or "
         "an object's attribute, `f(sim.u, sim)`), or with a module-level array it reads (`f(W)` "
         "reading `W`); NumPy would see the writes through both.",
         "f(u, u[1:])", "f(u, u[1:].copy())"),
    Code("NPR207", "a container of written arrays", "A tuple, list or dict that holds arrays which are "
         "written would need references inside a container; np2ref refuses it rather than copy. "
         "That includes `hist.append(u)`, `lst += [u]`, `list(u)` and `list(zip([u], ...))` with `u` "
         "written: NumPy's container holds `u` itself (or views of its rows) and sees every later "
         "write, where a copy would be a snapshot. A copy (`hist.append(u.copy())`) or a scalar "
         "element (`vals.append(u[i])` on a 1-D `u`) translates. A Python list written element by "
         "element (`l = [0] * n` then `l[i] = x[i] / 2`) is refused too: NumPy's list holds each "
         "value with its own type, where an array would cast every value to one dtype.",
         "fields = [u, v]\nfor f in fields:\n    f[0] = 0.0", "u[0] = 0.0\nv[0] = 0.0"),
    Code("NPR208", "unpacked arguments to a function that writes its parameters",
         "`f(*args)` and `f(**kwargs)` bind parameters from a container's contents. np2ref must "
         "know which array each written parameter is (to pass it as a reference) and which other "
         "arguments may share its buffer, so it refuses unpacked arguments to such a function.",
         "def bump(a, s):\n    a += s\nbump(*(u, 1.0))", "bump(u, 1.0)"),
    Code("NPR301", "verification mismatch", "compile(verify=True) ran the original and the "
         "translation on the first call's inputs and they differ. This is a bug in np2ref: please "
         "report it with the printed input.", "", ""),
    Code("NPR302", "float64 operation the backend computes to float32's precision",
         "In dtype_policy='preserve' on a TPU, float64 is emulated with pairs of float32 values and "
         "XLA's float64 transcendental functions lose digits (iir_filter's `np.sin(w0)` cost 5e-7 "
         "of its result). np2ref computes exp, log, log1p, expm1, sin, cos, tan, tanh, sinh, cosh, "
         "the inverse trigonometric and hyperbolic functions, sqrt, cbrt and powers from additions "
         "and multiplications (docs/tpu.md); the others (erf, lgamma, digamma, ...) it refuses "
         "there with this code, as it refuses a float64 sign-bit read (np.signbit, np.copysign, "
         "np.frexp) that the TPU compiler rejects. Raised when the call is traced.",
         "y = scipy.special.erf(x)   # float64, on a TPU",
         "y = np2ref.compile(f, dtype_policy='float32')(x)   # or run it on a CPU"),
]}


def explain(code: str) -> str | None:
    c = CODES.get(code.upper())
    if c is None:
        return None
    parts = [f"{c.code}: {c.title}", "", c.why]
    if c.before:
        parts += ["", "Before:", _indent(c.before), "", "After:", _indent(c.after)]
    return "\n".join(parts)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
