"""A Wolfenstein-style raycaster on a 2-D voxel map (the pattern of "raycasting in Python"
tutorials): an int8 map with wall kinds, a camera from module-level set-up, one ray per screen
column stepped through the grid by DDA (`side_x`, `side_y`, an int step of +1/-1, a `while`
until a wall or the step limit), the perpendicular distance for the fisheye fix, wall slices
drawn into a uint8 frame by slice assignment with shading darker on y-sides (`//= 2` on a view),
floor and ceiling filled first, a depth buffer, a minimap written through a
`reshape(-1)` view (written `out.flat[k] = ...` it is NPR205: `.flat` writes are not modelled), and the camera
turned and moved in a loop that rebinds its direction with a rotation matrix.
"""
import math

import numpy as np

MAP = np.zeros((12, 12), dtype=np.int8)
MAP[0, :] = MAP[-1, :] = MAP[:, 0] = MAP[:, -1] = 1
MAP[3:6, 4] = 2
MAP[7, 2:6] = 3
MAP[8:10, 8:10] = 4
COLOURS = np.array([0, 200, 150, 110, 240], dtype=np.uint8)
W, H = 32, 24


def cast(pos, ray, max_steps=64):
    cell = np.floor(pos).astype(np.int64)
    with np.errstate(divide="ignore"):
        delta = np.abs(1.0 / ray)
    step = np.where(ray < 0, -1, 1)
    side_dist = np.where(ray < 0, (pos - cell) * delta, (cell + 1.0 - pos) * delta)
    side = 0
    for _ in range(max_steps):
        if side_dist[0] < side_dist[1]:
            side_dist[0] += delta[0]
            cell[0] += step[0]
            side = 0
        else:
            side_dist[1] += delta[1]
            cell[1] += step[1]
            side = 1
        if MAP[cell[0], cell[1]] > 0:
            break
    dist = side_dist[side] - delta[side]
    return dist, side, MAP[cell[0], cell[1]]


def render(pos, direction, plane, frame, depth):
    frame[: H // 2] = 60
    frame[H // 2:] = 30
    for x in range(W):
        cam = 2.0 * x / W - 1.0
        ray = direction + plane * cam
        dist, side, kind = cast(pos, ray)
        depth[x] = dist
        height = int(H / max(dist, 1e-6))
        top = max(H // 2 - height // 2, 0)
        bottom = min(H // 2 + height // 2, H - 1)
        frame[top:bottom + 1, x] = COLOURS[kind]
        if side == 1:
            frame[top:bottom + 1, x] //= 2
    return frame


def minimap(pos, out):
    out[...] = (MAP > 0) * np.uint8(255)
    i, j = int(pos[0]), int(pos[1])
    flat = out.reshape(-1)
    flat[i * MAP.shape[1] + j] = 128
    return out


def rotate(v, angle):
    c, s = math.cos(angle), math.sin(angle)
    R = np.array([[c, -s], [s, c]])
    return R @ v


def walk(pos, direction, plane, steps, speed, turn):
    frame = np.zeros((H, W), dtype=np.uint8)
    depth = np.zeros(W)
    for k in range(steps):
        render(pos, direction, plane, frame, depth)
        ahead = pos + direction * speed
        if MAP[int(ahead[0]), int(ahead[1])] == 0:
            pos = ahead
        else:
            direction = rotate(direction, turn * 3)
            plane = rotate(plane, turn * 3)
        direction = rotate(direction, turn)
        plane = rotate(plane, turn)
        if k % 4 == 0:
            print("step", k, "mean", frame.mean(), "nearest", depth.min(), "far", int(depth.argmax()))
    return pos, direction, frame


POS = np.array([5.5, 6.5])
DIR = np.array([-1.0, 0.0])
PLANE = np.array([0.0, 0.66])

CHECKS = {
    "cast": lambda: (POS, np.array([-1.0, 0.3])),
    "cast#axis": lambda: (POS, np.array([0.0, 1.0])),
    "render": lambda: (POS, DIR, PLANE, np.zeros((H, W), dtype=np.uint8), np.zeros(W)),
    "minimap": lambda: (POS, np.zeros(MAP.shape, dtype=np.uint8)),
    "rotate": lambda: (DIR, 0.3),
    "walk": lambda: (POS.copy(), DIR.copy(), PLANE.copy(), 3, 0.5, 0.2),
}

if __name__ == "__main__":
    pos, d, frame = walk(POS.copy(), DIR.copy(), PLANE.copy(), 10, 0.4, 0.15)
    print("final position", np.round(pos, 6), "direction", np.round(d, 6))
    print("frame", frame.dtype, int(frame.sum()), frame[:, 0].tolist()[:6])
    mm = minimap(pos, np.zeros(MAP.shape, dtype=np.uint8))
    print("minimap", int((mm == 128).sum()), mm.dtype)
