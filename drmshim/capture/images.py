"""Render targets of a render command, read back as 8-bit RGBA through ``layout``.

Sole responsibility: find the colour attachments of a render (or blit) command
and turn one into an image: ``layout.make_miptree`` from the descriptor, read the
bytes from GPU memory, ``layout.detile``, ``layout.unpack``, then quantise to 8
bits per channel (sample 0 of multisampled targets, layer/level of the view).

Where the attachments are (the GPU model's convention, ``drmshim.gpu.pipeline.
render``): the end-of-tile pipeline (USC words at ``usc_exec_base + eot.usc``)
names each render target with a ``USC_PBE`` record (a ``PBE`` descriptor); the
PBE stores tile memory through it. A pipeline without ``USC_PBE`` records may
store with ``image_write`` itself: then the ``TEXTURE`` descriptors its
``USC_TEXTURE`` records bind are taken as the targets. A descriptor counts only
if it decodes cleanly to an image (a TEXTURE one no larger than the framebuffer).
"""

from __future__ import annotations

import dataclasses

import numpy as np

import layout
from uapi import packets as P

__all__ = ["colour_targets", "pbe_image", "descriptor_image", "save_png", "FORMAT_NAMES"]

FORMAT_NAMES = layout.FORMAT_NAMES   # descriptor format ids: layout's numbering
_TILINGS = {P.Tiling.LINEAR: "linear", P.Tiling.TWIDDLED: "twiddled"}
if hasattr(P.Tiling, "TWIDDLED_COMPRESSED"):
    _TILINGS[P.Tiling.TWIDDLED_COMPRESSED] = "twiddled_compressed"
MAX_TARGETS = 8


def _plausible(rec, cmd) -> bool:
    """A clean descriptor of an image; a TEXTURE (a guess) must also fit the framebuffer."""
    fits = rec.name == "PBE" or (rec.width_px <= max(cmd.width_px, 1) and rec.height_px <= max(cmd.height_px, 1))
    return not rec.problems and rec.format_id < len(FORMAT_NAMES) and rec.tiling in _TILINGS and rec.address != 0 \
        and fits


def colour_targets(cmd, memory, usc_exec_base: int) -> list[tuple[str, object]]:
    """(label, PBE or TEXTURE record) of each colour attachment of a render command (never raises)."""
    if not getattr(cmd, "eot", None) or not cmd.eot.usc:
        return []
    items = P.decode_usc_words(P.memory_reader(memory, "PBE"), usc_exec_base + cmd.eot.usc)
    records = [it.record for it in items if it.record is not None]
    pbes = [r for r in records if r.name == "USC_PBE"]
    found: list[tuple[str, int, object]] = []  # (label, descriptor va, packet)
    if pbes:
        found = [(f"rt{i}", r.descriptor, P.PBE) for i, r in enumerate(pbes[:MAX_TARGETS])]
    else:
        for r in records:
            if r.name == "USC_TEXTURE":
                found += [(f"rt{r.start + i}", r.table + i * P.TEXTURE_DESC_B, P.TEXTURE)
                          for i in range(min(r.count, MAX_TARGETS))]
    out = []
    for label, va, packet in found:
        try:
            desc = P.unpack(packet, bytes(memory.read(va, packet.size_B, "PBE")))
        except Exception:  # noqa: BLE001 - unreadable: not a target
            continue
        if _plausible(desc, cmd):
            out.append((label, desc))
    return out


def descriptor_image(memory, desc) -> np.ndarray:
    """The image a TEXTURE (its first level and layer of the view) or PBE descriptor
    describes, as uint8 (height, width, 4). ValueError when it describes no image."""
    if desc.name == "PBE":
        return pbe_image(memory, desc)
    return _image(memory, desc.format_id, desc.tiling, desc.width_px, desc.height_px, desc.depth_px, desc.levels,
                  desc.sample_count, desc.linear_stride_B, desc.layer_stride_B, desc.address,
                  desc.first_level, 0)


def pbe_image(memory, pbe) -> np.ndarray:
    """The target a PBE descriptor describes, as uint8 (height, width, 4)."""
    return _image(memory, pbe.format_id, pbe.tiling, pbe.width_px, pbe.height_px, pbe.layer + 1, pbe.levels,
                  pbe.sample_count, pbe.linear_stride_B, pbe.layer_stride_B, pbe.address, pbe.level, pbe.layer)


def _image(memory, format_id, tiling_value, width_px, height_px, layers, levels, samples, linear_stride_B,
           layer_stride_B, address, level, layer) -> np.ndarray:
    if format_id >= len(FORMAT_NAMES):
        raise ValueError(f"format id {format_id} is not in layout's table")
    fmt = layout.FORMATS[FORMAT_NAMES[format_id]]
    tiling = _TILINGS.get(tiling_value)
    if tiling is None:
        raise ValueError(f"tiling {tiling_value!r} is not an image layout")
    lay = layout.make_miptree(width_px, height_px, max(layers, 1), levels, fmt.name, samples, tiling,
                              linear_stride_B=linear_stride_B if tiling == "linear" else 0)
    if layer_stride_B:
        lay = dataclasses.replace(lay, layer_stride_B=layer_stride_B)
    level = min(level, lay.levels - 1)
    size_B = max(lay.size_B, lay.layer_stride_B * (layer + 1))
    raw = np.asarray(memory.read(address, size_B, "PBE"), dtype=np.uint8)
    w, h = lay.level_width_px(level), lay.level_height_px(level)
    texels = layout.detile(lay, raw, level, layer, 0, 0, w, h)
    texels = texels.reshape(h, w, samples, -1)[:, :, 0, :]
    rgba = layout.unpack(fmt, texels)
    if np.issubdtype(rgba.dtype, np.floating):
        if "SRGB" in fmt.name:
            rgba = rgba.copy()
            rgba[..., :3] = layout.linear_to_srgb(rgba[..., :3])
        return np.clip(np.rint(np.nan_to_num(rgba) * 255.0), 0, 255).astype(np.uint8)
    return np.clip(rgba, 0, 255).astype(np.uint8)


def save_png(path: str, rgba: np.ndarray) -> None:
    from PIL import Image
    Image.fromarray(np.ascontiguousarray(rgba), "RGBA").save(path)
