"""Loops whose slot has a whole axis before the loop variable and an index after it
(tests/loops/test_lane_whole_axes.py): `out[:, i, 0]` is the element 0 of the lane's block out[:, i]
along its last axis, `slot[:, 0]`, never `slot[0]`."""


def column_into_plane(out, x):
    for i in range(out.shape[1]):
        out[:, i, 0] = x[:, i] * 2.0
    return out.sum()


def scalar_then_whole(out, x):
    for i in range(out.shape[2]):
        out[1, :, i, 1] = x[:, i] - 1.0


def rows_of_blocks(out, x):
    for i in range(out.shape[1]):
        for j in range(out.shape[2]):
            out[:, i, j, :] = (x[:, j] * i + x[:, i])[:, None]
