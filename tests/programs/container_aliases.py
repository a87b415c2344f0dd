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
