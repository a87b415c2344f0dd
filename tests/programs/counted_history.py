"""A convergence history in a `while` on data: a list (compiled since graph breaks part 5: its
appends kept in chunks, rt/histories.py), one read otherwise after the loop (refused, NPR034) and
the form NPR034's hint asks for (an array of the most items there can be and a count, both returned)."""

import numpy as np

MAXIT = 50


def listed(u, tol):
    history = []
    change = tol + 1.0
    while change > tol:
        new = 0.5 * (u[2:] + u[:-2])
        change = np.max(np.abs(new - u[1:-1]))
        u[1:-1] = new
        history.append(change)
    return np.array(history)


def listed_tail(u, tol):
    history = []
    change = tol + 1.0
    while change > tol:
        new = 0.5 * (u[2:] + u[:-2])
        change = np.max(np.abs(new - u[1:-1]))
        u[1:-1] = new
        history.append(change)
    return np.array(history[1:])


def counted(u, tol):
    hist = np.zeros(MAXIT, dtype=u.dtype)
    n = 0
    change = tol + 1.0
    while change > tol and n < MAXIT:
        new = 0.5 * (u[2:] + u[:-2])
        change = np.max(np.abs(new - u[1:-1]))
        u[1:-1] = new
        hist[n] = change
        n += 1
    return hist, n
