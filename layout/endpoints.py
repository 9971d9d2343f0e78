"""Endpoint fitting shared by the block-compression encoders (S3TC/RGTC/LATC in
``bc``, BPTC in ``bptc``): the two texels at the ends of a block's principal
axis, and the nearest palette entry of each texel."""

from __future__ import annotations

import numpy as np

__all__ = ["nearest_entry", "principal_extremes"]


def principal_extremes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 16, c) texels -> (n,) positions of the texels at the two ends of each
    block's principal axis (power iteration on the covariance): the endpoints of
    a simple encoder, exact for blocks of two colours."""
    n = values.shape[0]
    centred = values - values.mean(1, keepdims=True)
    cov = np.einsum("nki,nkj->nij", centred, centred)
    # start from the covariance row of the most varying channel (never orthogonal
    # to the principal axis when the block varies at all)
    axis = cov[np.arange(n), np.argmax(np.diagonal(cov, axis1=1, axis2=2), 1)] + 1e-9
    for _ in range(8):
        axis = np.einsum("nij,nj->ni", cov, axis)
        axis /= np.maximum(np.linalg.norm(axis, axis=1, keepdims=True), 1e-12)
    proj = np.einsum("nki,ni->nk", centred, axis)
    return proj.argmin(1), proj.argmax(1)


def nearest_entry(values: np.ndarray, palette: np.ndarray) -> np.ndarray:
    """(n, 16, c) values, (n, k, c) palette -> (n, 16) index of the nearest entry."""
    d = ((values[:, :, None, :] - palette[:, None, :, :]) ** 2).sum(-1)
    return np.argmin(d, axis=2)
