"""Blits (pipe blit): scaled copies with format conversion and MSAA resolve.

Sole responsibility: one pipe_blit_info done on the CPU through ``layout``
(unpack -> sample nearest/bilinear -> pack), after the context has waited for
the GPU on both resources. Colour resolves average the samples; depth/stencil
copy the planes' values with nearest filtering (GL allows only NEAREST there)."""

from __future__ import annotations

import numpy as np

import layout
from driver.gallium import BlitInfo, PipeMask, PipeTexFilter

from .resource import layout_format

__all__ = ["cpu_blit"]


def _coords(d0: int, dn: int, s0: int, sn: int, n_dst: int) -> np.ndarray:
    """Source coordinates (float, texel space) of destination pixel centres."""
    d = np.arange(n_dst) + 0.5
    return s0 + (d / dn) * sn


def cpu_blit(info: BlitInfo) -> None:
    src, dst = info.src, info.dst
    sb, db = src.box, dst.box
    # normalise mirrored boxes: a negative extent mirrors
    sx0, sw = (sb.x, sb.width) if sb.width >= 0 else (sb.x + sb.width, -sb.width)
    sy0, sh = (sb.y, sb.height) if sb.height >= 0 else (sb.y + sb.height, -sb.height)
    dx0, dw = (db.x, db.width) if db.width >= 0 else (db.x + db.width, -db.width)
    dy0, dh = (db.y, db.height) if db.height >= 0 else (db.y + db.height, -db.height)
    flip_x = (sb.width < 0) != (db.width < 0)
    flip_y = (sb.height < 0) != (db.height < 0)
    if dw == 0 or dh == 0 or sw == 0 or sh == 0:
        return
    sres, dres = src.resource, dst.resource
    sw_lvl, sh_lvl, _ = sres.level_size_px(src.level)
    dw_lvl, dh_lvl, _ = dres.level_size_px(dst.level)
    # destination pixels inside the image (and the scissor)
    xs = np.arange(dx0, dx0 + dw)
    ys = np.arange(dy0, dy0 + dh)
    keep_x = (xs >= 0) & (xs < dw_lvl)
    keep_y = (ys >= 0) & (ys < dh_lvl)
    if info.scissor is not None:
        sc = info.scissor
        keep_x &= (xs >= sc.minx) & (xs < sc.maxx)
        keep_y &= (ys >= sc.miny) & (ys < sc.maxy)
    if not keep_x.any() or not keep_y.any():
        return
    u = _coords(dx0, dw, sx0, sw, dw)
    v = _coords(dy0, dh, sy0, sh, dh)
    if flip_x:
        u = (2 * sx0 + sw) - u
    if flip_y:
        v = (2 * sy0 + sh) - v
    depth = max(1, min(abs(sb.depth), abs(db.depth)))
    src_all = sres.read_region(src.level, 0, 0, sb.z, sw_lvl, sh_lvl, depth)     # (d, h, w, bytes)
    x_lo, x_hi = int(np.flatnonzero(keep_x)[0]), int(np.flatnonzero(keep_x)[-1]) + 1
    y_lo, y_hi = int(np.flatnonzero(keep_y)[0]), int(np.flatnonzero(keep_y)[-1]) + 1
    region = dres.read_region(dst.level, dx0 + x_lo, dy0 + y_lo, db.z, x_hi - x_lo, y_hi - y_lo, depth)
    sname, dname = layout_format(src.format), layout_format(dst.format)
    sfmt, dfmt = layout.get_format(sname), layout.get_format(dname)
    u, v = u[x_lo:x_hi], v[y_lo:y_hi]
    kx, ky = keep_x[x_lo:x_hi], keep_y[y_lo:y_hi]
    s_samples, d_samples = sres.samples, dres.samples
    if sfmt.is_depth_or_stencil:
        # nearest copy of the raw texels (same packed format on both sides, or Z/S plane values)
        ix = np.clip(np.floor(u).astype(np.int64), 0, sw_lvl - 1)
        iy = np.clip(np.floor(v).astype(np.int64), 0, sh_lvl - 1)
        texels = src_all[:, iy[:, None], ix[None, :]]
        if sname == dname and s_samples == d_samples:
            out = texels
        else:
            bpp = sfmt.block_size_B
            out = np.repeat(texels.reshape(texels.shape[:3] + (s_samples, bpp))[:, :, :, :1], d_samples, 3)
            out = out.reshape(region.shape)
        mask = ky[:, None] & kx[None, :]
        region[:, mask] = out[:, mask]
        dres.write_region(dst.level, dx0 + x_lo, dy0 + y_lo, db.z, x_hi - x_lo, y_hi - y_lo, depth, region)
        return
    # colour: unpack (resolving samples), filter, pack; between equal sample counts every
    # sample is copied to the same sample (GL 4.6 section 18.3.1; such blits do not scale)
    bpp = sfmt.block_size_B
    per_sample = s_samples > 1 and s_samples == d_samples
    raw = src_all.reshape(src_all.shape[:3] + (s_samples, bpp))
    rgba = layout.unpack(sname, raw)
    if per_sample:
        pass
    elif s_samples > 1:
        rgba = rgba.astype(np.float64).mean(axis=3) if not sfmt.is_integer else rgba[:, :, :, 0]
    else:
        rgba = rgba[:, :, :, 0]
    if info.filter == PipeTexFilter.LINEAR and (sw != dw or sh != dh) and not sfmt.is_integer and not per_sample:
        fx, fy = u - 0.5, v - 0.5
        x0 = np.floor(fx).astype(np.int64)
        y0 = np.floor(fy).astype(np.int64)
        ax, ay = (fx - x0)[None, None, :, None], (fy - y0)[None, :, None, None]
        X0, X1 = np.clip(x0, 0, sw_lvl - 1), np.clip(x0 + 1, 0, sw_lvl - 1)
        Y0, Y1 = np.clip(y0, 0, sh_lvl - 1), np.clip(y0 + 1, 0, sh_lvl - 1)
        r = rgba.astype(np.float64)
        top = r[:, Y0][:, :, X0] * (1 - ax) + r[:, Y0][:, :, X1] * ax
        bot = r[:, Y1][:, :, X0] * (1 - ax) + r[:, Y1][:, :, X1] * ax
        val = top * (1 - ay) + bot * ay
    else:
        ix = np.clip(np.floor(u).astype(np.int64), 0, sw_lvl - 1)
        iy = np.clip(np.floor(v).astype(np.int64), 0, sh_lvl - 1)
        val = rgba[:, iy[:, None], ix[None, :]]
    if sfmt.is_srgb and not dfmt.is_srgb:
        pass    # unpack already returned linear values; pack encodes for sRGB destinations
    if dfmt.is_integer:
        val = np.asarray(val).astype(np.int64)
    else:
        val = np.asarray(val, np.float64).astype(np.float32)
    old = layout.unpack(dname, region.reshape(region.shape[:3] + (d_samples, dfmt.block_size_B)))
    old = old if per_sample else old[:, :, :, 0]
    m = int(info.mask & PipeMask.RGBA)
    chan = np.array([(m >> c) & 1 for c in range(4)], bool)
    val = np.where(chan, val, old)
    packed = layout.pack(dname, val)                                 # (d, h, w[, samples], bytes)
    if not per_sample:
        packed = np.repeat(packed[:, :, :, None, :], d_samples, 3)
    packed = packed.reshape(region.shape)
    mask = ky[:, None] & kx[None, :]
    region[:, mask] = packed[:, mask]
    dres.write_region(dst.level, dx0 + x_lo, dy0 + y_lo, db.z, x_hi - x_lo, y_hi - y_lo, depth, region)
