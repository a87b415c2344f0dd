"""Arrays put into Python containers: NumPy's container holds the array itself (an alias), so it
sees later writes; a copy or a scalar element is a snapshot."""
import numpy as np


def append_written_later(a):
    hist = []
    for i in range(3):
        a[i] += 1
        hist.append(a)           # NPR207: every entry is `a` itself in NumPy
    return np.stack(hist)


def append_once_then_write(a):
    lst = []
    lst.append(a)                # NPR207
    a[1] = 7.0
    return lst[0]


def extend_with_display(a):
    lst = []
    lst += [a]                   # NPR207
    a *= 2
    return lst[0]


def zip_holds_it(a):
    pairs = list(zip([a], [1]))  # NPR207
    a += 1
    return pairs[0][0]


def rows_of_written(a):
    rows = list(a)               # NPR207: the rows are views
    a[0, 0] = 9.0
    return rows[0]


def append_copies(a):
    hist = []
    for i in range(3):
        a[i] += 1
        hist.append(a.copy())
    return np.stack(hist)


def append_elements(a):
    vals = []
    for i in range(3):
        a[i] = a[i] * 2 + 1
        vals.append(a[i])        # a scalar of a 1-D array: a copy in NumPy too
    a[0] = -1.0
    return np.array(vals), a


def append_row_of_written(a):
    rows = []
    rows.append(a[0])            # a row of a 2-D array: a view; refused when traced
    a[0, 0] = 9.0
    return rows[0]


def rebound_each_step(a):
    states = [a]
    for k in range(2):
        a = a + 1                # a new array each step: nothing is written in place
        states.append(a)
    return np.stack(states)


# -- unpacking: NumPy's items of a 2-D array are views of its rows ---------------------------
def unpack_rows_then_write_one(s):
    u, v = s                     # rows of s: views (refused when traced)
    u[0] = 50.0
    return s


def unpack_rows_then_write_base(s):
    u, v = s
    s[0, 0] = 50.0
    return u


def unpack_split(s):
    p, q = np.split(s, 2)        # NPR205
    s[0, 0] = 9.0
    return p


def _halves(s):
    return s[:1], s[1:]


def unpack_helper_views(s):
    a, b = _halves(s)            # NPR205
    a[0, 0] = 1.5
    return s


def unpack_items_of_1d(x):
    i, j, k = x                  # items of a 1-D array: scalars, copies in NumPy too
    x[0] = -1.0
    return i + j * k, x


def unpack_indexed_rows(s):
    u, v = s[0], s[1]            # views, translated as views
    u[1] = -1.0
    return s, v


def comprehension_of_rows(s):
    rows = [r for r in s]        # NPR207
    s[0, 0] = 7.0
    return rows[0]


def comprehension_of_copies_and_elements(s):
    rows = [r.copy() for r in s]
    firsts = [r[0] for r in s]
    shapes = [r.shape for r in s]
    s[0, 0] = 7.0
    return rows[0], np.array(firsts), shapes


# A Python list written element by element holds each value with its own type: a float stored
# into `[0] * n` stays a float (np.array(l) is float64), and `return l` is a list. They were
# int64 arrays (floats truncated) and arrays returned.
def list_of_zeros_written(x):
    m = [[0] * 3 for _ in range(2)]  # NPR207
    for i in range(2):
        for j in range(3):
            m[i][j] = x[i * 3 + j] * 2
    return np.array(m)


def list_returned(x):
    out = [0] * 3  # NPR207
    out[1] = x[1]
    return out


def shallow_copy_written(state, v):
    x = state.copy()  # a list's copy: x[0] is the caller's array, which the write reaches
    x[0] += v
    return x[0].sum()


def dict_copy_written(state, v):
    new = state.copy()
    new["x"] = new["x"] + v
    return new["x"].sum()


def array_copy_written(u0, v):
    u = u0.copy()  # an array's copy: fresh, the caller's u0 untouched
    u += v
    return u


# -- containers passed in and changed: NumPy's caller sees the change ------------------------

def append_to_param(a, hist):
    hist.append(a * 2)
    return len(hist + [a])


def history_of_steps(a, hist):
    for i in range(3):
        a = a * 0.5
        hist.append(a.sum())
    return a


def append_through_a_name(a, hist):
    h = hist
    h.append(a.sum())
    return a


def update_param(a, d):
    d.update(total=a.sum())
    return a * 2


def _record(h, x):
    h.append(x.sum())


def record_through_helper(a, hist):
    _record(hist, a)
    return a + 1


def options_popped(a, *args, **opts):
    scale = opts.pop("scale", 2.0)  # `opts` is the call's own dict: not the caller's
    return a * scale + len(args)
