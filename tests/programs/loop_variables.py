"""A for loop's variable read after the loop, and in a loop whose trip count is traced: NumPy's
Python int (weak under NEP 50) in every use, for tests/loops/test_loop_variables.py."""

import numpy as np


def break_then_aug(b, c):  # the saved fuzz program fuzz_b8081a3698: a lax loop left by `break`
    v0 = c.T
    for k in range(v0.shape[0]):
        break
    b[...] += k


def data_break_then_arith(b, n):  # the break on array data: a lax loop whose carry holds k
    for k in range(n):
        if b[k] > 5:
            break
    return b + k, b * k, k


def data_break_then_store(b, n):
    for k in range(n):
        if b[k] > 100:
            break
    b[1] = k
    b[2] += k


def data_break_then_wrap(b, n):  # k + 300 is a Python int: stored into uint8, OverflowError
    for k in range(n):
        if b[k] > 100:
            break
    b[0] = k + 300


def data_break_then_big_operand(b, n):  # an array op with the Python int 300: OverflowError
    for k in range(n):
        if b[k] > 100:
            break
    return b + (k + 300)


def data_break_then_aug_wrap(b, n):  # `b += k + 254`: NumPy adds in uint8 and wraps
    for k in range(n):
        if b[k] > 100:
            break
    b += k + 254


def bound_in_branch(b, n):  # k bound only on one path of an `if` on data, inside the loop
    j = 0
    for k in range(n):
        if b[k] > 100:
            j = k
    return b - j


def traced_count_in_body(b, n):  # `n` traced (a Python int argument): the index is weak too
    for k in range(n):
        b[k] += k + 253
    return b - k
