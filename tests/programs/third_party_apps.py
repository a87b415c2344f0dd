"""Reduced reproducers from application kernels in the style of third-party NumPy benchmark
collections (crc, mandelbrot, FFT, azimuthal integration...) that np2ref answered wrongly,
refused without cause or failed on before: tests/test_third_party_apps.py runs each against NumPy."""
import numpy as np


def crc16_ccitt(data):
    crc = 0xFFFF  # a Python int throughout: `^ & |` kept it one (it came back as np.int64)
    for i in range(data.shape[0]):
        crc ^= int(data[i]) << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc, ~crc | 1
