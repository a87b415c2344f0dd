"""Lists appended under an `if` of the trip (tests/loops/test_guarded_appends.py): snapshots
every N steps, the last step too, a record of times and states, an `else`, none taken, a test
that reads array data, a value that is no array."""
import numpy as np


def snapshots_every(u, nsteps, every, alpha):
    snaps = []
    for step in range(nsteps):
        u[1:-1] += alpha * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        if step % every == 0:
            snaps.append(u.copy())
            print(f"step {step:4d}  mean {u.mean():.6f}")
    return np.array(snaps)


def frames_and_last(u, nsteps, every):
    frames = [u.copy()]
    for n in range(1, nsteps + 1):
        u[1:-1] += 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
        if n % every == 0 or n == nsteps:
            frames.append(u.copy())
    return frames


def times_and_states(pos, vel, dt, nsteps, save_every):
    times, traj, energy = [], [], []
    for step in range(nsteps):
        vel -= dt * pos
        pos += dt * vel
        energy.append(float(0.5 * np.sum(vel**2 + pos**2)))
        if step % save_every == 0:
            times.append(step * dt)
            traj.append(pos.copy())
        else:
            vel *= 1.0
    return np.array(times), np.array(traj), energy, len(traj)


def none_taken(x, nsteps, every):
    kept = []
    for step in range(nsteps):
        x = x * 0.5
        if step % every == every - 1:
            kept.append(x.sum())
    return x, kept, len(kept)


def none_taken_stacked(u, nsteps, every):
    snaps = []
    for step in range(nsteps):
        u[0] -= u[-1] * 0.25
        if step >= every:
            snaps.append(u.copy())
    return np.array(snaps), np.array(snaps, dtype=np.float32), len(snaps)


def none_taken_stack(u, nsteps, every):
    snaps = []
    for step in range(nsteps):
        u[0] -= u[-1] * 0.25
        if step >= every:
            snaps.append(u.copy())
    return np.stack(snaps)


def on_data(x, nsteps):
    kept = []
    for step in range(nsteps):
        x = x * 0.5
        if x.sum() > 1.0:
            kept.append(x.sum())
    return x, kept


def labels_every(x, nsteps, every):
    labels = []
    for step in range(nsteps):
        x += 1.0
        if step % every == 0:
            labels.append(f"step {step}")
    return x, labels


def rebound_to_arrays(u, nsteps, every):
    snaps = []
    energy = []
    for step in range(nsteps):
        u[1:-1] += 0.2 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        energy.append(float(np.sum(u * u)))
        if step % every == 0:
            snaps.append(u.copy())
            print(f"step {step}: E = {energy[-1]:.6f}")
    snaps = np.array(snaps)
    energy = np.asarray(energy)
    print(snaps.shape, energy.shape, repr(snaps.sum()))
    return snaps, energy.max(), energy


def asarray_history(u, nsteps):
    energy = []
    for step in range(nsteps):
        u *= 0.5
        energy.append(float(np.sum(u * u)))
    return np.asarray(energy)
