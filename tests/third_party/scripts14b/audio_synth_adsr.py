"""A tiny subtractive synthesizer (the pattern of "write a synth in NumPy" tutorials): note
events from a module-level score, phase-accumulating oscillators (sine, saw by `np.mod`,
square by `np.sign` with its zeros, triangle), an ADSR envelope written segment by segment
into a preallocated float32 buffer with early returns for short notes, each note mixed into
the song through a view `song[start:start + n] += ...`, a one-pole low-pass filter element by
element on float32 state, a feedback echo written in place, normalisation, and the int16
output by `np.clip(..., out=)` then `astype(np.int16)`, with a peak meter printed per bar.
"""
import numpy as np

RATE = 2000
BPM = 150.0
BEAT = int(RATE * 60.0 / BPM)
SCORE = [(57, 0, 2, "saw"), (60, 1, 1, "square"), (64, 2, 1, "sine"), (62, 3, 2, "tri"),
         (69, 4, 1, "saw"), (67, 5, 3, "square"), (72, 6, 1, "sine"), (45, 6, 2, "tri")]


def midi_hz(note):
    return 440.0 * 2.0 ** ((note - 69) / 12.0)


def oscillator(kind, freq, n, phase0=0.0):
    phase = (phase0 + freq * np.arange(n, dtype=np.float32) / RATE) % 1.0
    if kind == "sine":
        return np.sin(2.0 * np.pi * phase).astype(np.float32)
    if kind == "saw":
        return (2.0 * phase - 1.0).astype(np.float32)
    if kind == "square":
        return np.sign(np.sin(2.0 * np.pi * phase)).astype(np.float32)
    return (4.0 * np.abs(phase - 0.5) - 1.0).astype(np.float32)


def adsr(env, attack, decay, sustain, release):
    n = env.shape[0]
    a, d, r = int(attack * RATE), int(decay * RATE), int(release * RATE)
    env[:] = sustain
    if n <= a:
        env[:] = np.linspace(0.0, n / max(a, 1), n)
        return n
    env[:a] = np.linspace(0.0, 1.0, a, endpoint=False)
    if n <= a + d:
        env[a:] = np.linspace(1.0, sustain, d)[: n - a]
        return a + d
    env[a:a + d] = np.linspace(1.0, sustain, d, endpoint=False)
    if r > 0 and n - r > a + d:
        env[n - r:] *= np.linspace(1.0, 0.0, r)
    return n


def lowpass(x, cutoff):
    alpha = np.float32(1.0 - np.exp(-2.0 * np.pi * cutoff / RATE))
    y = np.empty_like(x)
    state = np.float32(0.0)
    for i in range(x.shape[0]):
        state += alpha * (x[i] - state)
        y[i] = state
    return y


def echo(x, delay, feedback):
    for i in range(delay, x.shape[0]):
        x[i] += feedback * x[i - delay]


def render(score, total_beats):
    song = np.zeros(total_beats * BEAT, dtype=np.float32)
    env = np.empty(4 * BEAT, dtype=np.float32)
    for note, start, beats, kind in score:
        n = beats * BEAT
        tone = oscillator(kind, midi_hz(note), n)
        adsr(env[:n], 0.01, 0.05, 0.6, 0.08)
        song[start * BEAT:start * BEAT + n] += 0.3 * tone * env[:n]
    return song


def to_int16(x, headroom=0.9):
    peak = np.max(np.abs(x))
    y = x * (headroom / peak) if peak > 0 else x.copy()
    np.clip(y * 32767.0, -32768.0, 32767.0, out=y)
    return y.astype(np.int16), peak


def meter(pcm):
    for bar in range(pcm.shape[0] // (4 * BEAT)):
        seg = pcm[bar * 4 * BEAT:(bar + 1) * 4 * BEAT]
        print("bar", bar, "peak", int(np.abs(seg.astype(np.int32)).max()), "rms", float(np.sqrt(np.mean(seg.astype(np.float64) ** 2))))


CHECKS = {
    "oscillator": lambda: ("square", 250.0, 64),
    "oscillator#tri": lambda: ("tri", 130.0, 50, 0.25),
    "adsr": lambda: (np.zeros(300, dtype=np.float32), 0.01, 0.05, 0.6, 0.08),
    "adsr#short": lambda: (np.zeros(15, dtype=np.float32), 0.01, 0.05, 0.6, 0.08),
    "adsr#decay": lambda: (np.zeros(70, dtype=np.float32), 0.01, 0.05, 0.6, 0.08),
    "lowpass": lambda: (np.random.default_rng(2).standard_normal(200).astype(np.float32), 300.0),
    "echo": lambda: (np.random.default_rng(3).standard_normal(300).astype(np.float32), 70, 0.4),
    "render": lambda: (SCORE[:3], 4),
    "to_int16": lambda: (np.linspace(-2.0, 1.5, 41, dtype=np.float32),),
    "to_int16#silent": lambda: (np.zeros(8, dtype=np.float32),),
}

if __name__ == "__main__":
    song = render(SCORE, 8)
    print("song", song.dtype, song.shape, float(np.abs(song).max()))
    wet = lowpass(song, 600.0)
    echo(wet, BEAT // 2, 0.35)
    pcm, peak = to_int16(wet)
    print("pcm", pcm.dtype, "peak before", peak, type(peak).__name__)
    meter(pcm)
    print("zero crossings", int(np.count_nonzero(np.diff(np.signbit(pcm)))))
