"""Photometric augmentation: phones, lamps, halftone prints and grey photos all look different."""

from __future__ import annotations

import cv2
import numpy as np

from recognizer.geometry import LUMA


def photometric(img: np.ndarray, rng: np.random.Generator, grey_p: float = 0.25, shuffle_p: float = 0.0) -> np.ndarray:
    """Random brightness, contrast, colour cast, faded colour, blur, noise and greyscale on a uint8 RGB image.

    ``shuffle_p``: chance of permuting the colour channels, so a set printed in other inks still reads by shape.
    """
    x: np.ndarray = img.astype(np.float32)
    if rng.random() < shuffle_p:
        x = x[..., rng.permutation(3)]
    x = x * rng.uniform(0.65, 1.3) + rng.uniform(-30, 30)
    mean = x.mean()
    x = (x - mean) * rng.uniform(0.7, 1.3) + mean
    x = x * rng.uniform(0.88, 1.12, size=3)[None, None, :]
    g = (x @ LUMA)[..., None]
    if rng.random() < grey_p:
        x = np.repeat(g, 3, axis=2)
    elif rng.random() < 0.3:  # faded or dark inks: a set's green dragon may be printed nearly black
        x = g + (x - g) * rng.uniform(0.0, 0.8)
    if rng.random() < 0.3:
        k = int(rng.choice([3, 5]))
        x = cv2.GaussianBlur(x, (k, k), 0)
    if rng.random() < 0.3:
        x = x + rng.normal(0, rng.uniform(2, 10), x.shape).astype(np.float32)
    return np.clip(x, 0, 255).astype(np.uint8)
