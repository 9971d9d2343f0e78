"""Tile memory: where each render target lives in a tile record, and the
driver's own tile programs (Mesa's agx_tilebuffer + the bg/eot "meta" shaders).

Sole responsibility: map render-target formats to tile-buffer formats (the
``st_tile``/``ld_tile`` memory formats of the ISA, whose bytes equal the
image's, so the PBE stores them unconverted; a format whose channels are stored
in another order than RGBA, such as ``B8G8R8A8_UNORM`` or ``B5G6R5_UNORM``, is
its memory format with a ``swizzle`` that every tile program and the fragment
epilogue apply at ``st_tile``/``ld_tile``), lay the render targets out in a
record, choose the tile size, and assemble the background programs (clear
from uniforms, load through ``texture_load``) the render command runs at the
start of every tile. The end-of-tile pipeline needs no program: its USC_PBE
records make the PBE store each render target."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import layout
from uapi.isa import assemble
from uapi.isa.semantics import PACKED16_UNORM_BITS

__all__ = ["RTSlot", "TileLayout", "tile_format", "make_tile_layout", "clear_program", "load_program",
           "tile_size_px"]


IDENTITY = (0, 1, 2, 3)


@dataclass(frozen=True)
class RTSlot:
    """One render target in the tile record: ``mem_format`` (ISA memory format),
    ``components`` stored, ``base_type`` float/int/uint, ``offset_B`` in the record;
    ``swizzle[j]`` is the RGBA channel (0-3) stored as memory component j.
    ``spilled``: the target did not fit in tile memory and lives in its image
    only (no offset in the record; shaders and tile programs reach it with image
    loads and writes, as Mesa's agx_tilebuffer spills)."""
    mem_format: str
    components: int
    base_type: str
    offset_B: int
    size_B: int
    swizzle: tuple[int, ...] = IDENTITY
    spilled: bool = False


@dataclass(frozen=True)
class TileLayout:
    slots: tuple[RTSlot | None, ...]
    record_B: int


_PACKED = {"R10G10B10A2_UNORM": "rgb10a2", "R10G10B10X2_UNORM": "rgb10a2", "R11G11B10_FLOAT": "rg11b10f",
           "R9G9B9E5_FLOAT": "rgb9e5", "R10G10B10A2_UINT": "rgb10a2ui"}
#: luminance and intensity are stored from red (GL's luminance render targets take the
#: red component, as Mesa's)
_CHANNEL_INDEX = {"R": 0, "G": 1, "B": 2, "A": 3, "X": 3, "L": 0, "I": 0}
#: the channel sets a render target may store (in any order): R, RG, RGB, RGBA/RGBX, and A
#: alone (GL_ALPHA* renderbuffers of the compatibility profile: memory component 0 holds alpha),
#: L, LA and I (the compatibility profile's luminance and intensity formats)
_RENDERABLE_SETS = ({"R"}, {"R", "G"}, {"R", "G", "B"}, {"R", "G", "B", "A"}, {"R", "G", "B", "X"}, {"A"},
                    {"L"}, {"L", "A"}, {"I"})


@lru_cache(maxsize=None)
def tile_format(name: str) -> tuple[str, int, str, tuple[int, ...]] | None:
    """(mem_format, components, base_type, swizzle) of a colour format, or None when
    it cannot be rendered through tile memory (channels other than a permutation of
    R, RG, RGB, RGBA/RGBX, mixed sizes other than the ISA's packed formats,
    block-compressed, depth/stencil). ``swizzle[j]``: the RGBA channel stored as
    memory component j, from the layout format's channel order (the bytes of the
    tile record equal the image's)."""
    fmt = layout.get_format(name)
    if fmt.is_compressed or fmt.is_depth_or_stencil:
        return None
    if name in _PACKED:
        n = 4 if "A2" in name or "X2" in name else 3
        return _PACKED[name], n, "uint" if fmt.is_integer else "float", IDENTITY[:n]
    chans = list(fmt.channels)
    letters = [c.name for c in chans]
    if set(letters) not in _RENDERABLE_SETS or len(set(letters)) != len(letters):
        return None
    swizzle = tuple(_CHANNEL_INDEX[c] for c in letters)
    n = len(chans)
    bits = tuple(c.bits for c in chans)
    types = {c.type for c in chans if c.name != "X"}
    if len(types) != 1:
        return None
    t = types.pop()
    if swizzle != IDENTITY[:n] and t in ("UINT", "SINT"):
        return None                     # integer epilogues do not reorder channels
    packed16 = [m for m, widths in PACKED16_UNORM_BITS.items() if widths == bits]
    if packed16 and t == "UNORM" and not fmt.is_srgb:
        return packed16[0], n, "float", swizzle
    if len(set(bits)) != 1:
        return None
    b = bits[0]
    if fmt.is_srgb:
        # srgba8 encodes memory components 0-2: alpha must be component 3
        ok = b == 8 and "A" not in letters[:3] and "X" not in letters[:3]
        return ("srgba8", n, "float", swizzle) if ok else None
    table = {(8, "UNORM"): "unorm8", (8, "SNORM"): "snorm8", (16, "UNORM"): "unorm16", (16, "SNORM"): "snorm16",
             (16, "FLOAT"): "f16", (32, "FLOAT"): "i32", (8, "UINT"): "i8", (8, "SINT"): "i8",
             (16, "UINT"): "i16", (16, "SINT"): "i16", (32, "UINT"): "i32", (32, "SINT"): "i32"}
    mem = table.get((b, t))
    if mem is None:
        return None
    base = {"UINT": "uint", "SINT": "int"}.get(t, "float")
    return mem, n, base, swizzle


#: tile memory of one tile (32x32 pixels of 16 bytes)
TILE_MEMORY_B = 16 << 10
#: the smallest tile the kernel takes (16x16): a record may use TILE_MEMORY_B over its pixels
SMALLEST_TILE_PX = 16


def make_tile_layout(formats: tuple[str | None, ...], samples: int = 1) -> TileLayout:
    """Render targets in order, each aligned to its element size; records are
    a multiple of 4 bytes. A single-sampled target that would make the record
    larger than a 16x16 tile holds (64 bytes a pixel) is spilled: it keeps no
    place in the record (agx_build_tilebuffer_layout). Multisampled targets are
    never spilled (their shaders would have to write every covered sample)."""
    slots, offset = [], 0
    limit_B = TILE_MEMORY_B // (SMALLEST_TILE_PX * SMALLEST_TILE_PX)
    for name in formats:
        if name is None:
            slots.append(None)
            continue
        tf = tile_format(name)
        assert tf is not None, f"{name} is not renderable"
        size = layout.get_format(name).block_size_B
        align = min(size, 4) if size & (size - 1) == 0 else 1
        start = -(-offset // align) * align
        if samples == 1 and -(-(start + size) // 4) * 4 > limit_B:
            slots.append(RTSlot(tf[0], tf[1], tf[2], 0, size, tf[3], spilled=True))
            continue
        offset = start
        slots.append(RTSlot(tf[0], tf[1], tf[2], offset, size, tf[3]))
        offset += size
    return TileLayout(tuple(slots), max(4, -(-offset // 4) * 4))


def tile_size_px(record_B: int, samples: int) -> int:
    """Square tile size: tile memory holds 16 KiB per tile (32x32 of 16 B), so
    larger records or more samples give smaller tiles (agx_select_tile_size;
    single-sampled records fit 16x16 tiles, make_tile_layout spills)."""
    per_px = record_B * samples
    for size in (32, 16, 8):
        if size * size * per_px <= TILE_MEMORY_B:
            return size
    return 8


def _regs(first: int, n: int) -> str:
    return "_".join(f"r{first + i}" for i in range(n))


def _store(slot: RTSlot, first: int, mask: int) -> list[str]:
    """``st_tile`` of the RGBA value in r{first}..r{first+3} into ``slot`` (memory
    components in the slot's order, gathered into r36.. when it is not RGBA's);
    ``mask``: bit j = memory component j."""
    n = slot.components
    if slot.swizzle[:n] == IDENTITY[:n]:
        return [f"st_tile.{slot.mem_format} {_regs(first, n)}, {slot.offset_B}, {mask}"]
    return [f"mov r{36 + j}, r{first + slot.swizzle[j]}" for j in range(n)] + \
        [f"st_tile.{slot.mem_format} {_regs(36, n)}, {slot.offset_B}, {mask}"]


@lru_cache(maxsize=256)
def clear_program(tl: TileLayout, clear_mask: int, load_mask: int, samples: int, rect: bool = False) -> bytes:
    """Background program: render target i is set from uniforms u[4i..4i+3]
    (raw 32-bit values) when bit i of clear_mask is set, loaded from texture i
    (texture_load at the pixel, and sample) when bit i of load_mask is set.
    ``rect``: the clear applies inside the rectangle u32..u35 (floats x0, y0, x1,
    y1; u36 = 0.5) only; cleared targets are loaded outside it."""
    if rect:
        load_mask |= clear_mask
    # a spilled target is in its image already: nothing to load, a clear is written there
    spilled = sum(1 << i for i, slot in enumerate(tl.slots) if slot is not None and slot.spilled)
    load_mask &= ~spilled | (clear_mask if rect else 0)
    lines = []
    if load_mask or clear_mask & spilled:
        lines += ["get_sr r4, pixel_x", "get_sr r5, pixel_y", "mov_imm r6, 0"]
        if samples > 1:
            lines.append("get_sr r7, sample_id")
    for i, slot in enumerate(tl.slots):
        if slot is None:
            continue
        n = slot.components
        mask = (1 << n) - 1
        # the RGBA channels the store reads: the first n, or the swizzle's (an A8 target
        # stores alpha, channel 3, as its one memory component)
        chans = range(4) if slot.spilled else sorted(set(slot.swizzle[:n]))
        if slot.spilled and not clear_mask >> i & 1:
            continue
        if clear_mask >> i & 1 and not rect:
            lines += [f"mov r{8 + c}, u{4 * i + c}" for c in chans]
        elif load_mask >> i & 1:
            if samples > 1:
                lines.append(f"texture_load.2d_ms.ms {_regs(8, 4)}, r4_r5, {i}, r6, r7, 0")
            else:
                lines.append(f"texture_load.2d {_regs(8, 4)}, r4_r5, {i}, r6, 0")
            lines.append("wait 0")
            if rect and clear_mask >> i & 1:
                lines += ["convert.f32.u32 r20, r4", "convert.f32.u32 r21, r5", "fadd r20, r20, u36",
                          "fadd r21, r21, u36"]
                for c in chans:
                    v, d = f"u{4 * i + c}", f"r{8 + c}"
                    lines += [f"fcmpsel.ge r22, r20, u32, {v}, {d}", f"fcmpsel.lt r22, r20, u34, r22, {d}",
                              f"fcmpsel.ge r22, r21, u33, r22, {d}", f"fcmpsel.lt {d}, r21, u35, r22, {d}"]
        else:
            continue
        if slot.spilled:
            # the image view of texture i, written at the pixel (RGBA, converted by its format)
            lines.append(f"image_write.2d {_regs(8, 4)}, r4_r5, {i}, 0")
            continue
        lines += _store(slot, 8, mask)
    lines.append("stop")
    return assemble("\n".join(lines))


def load_program(tl: TileLayout, samples: int) -> bytes:
    """Partial-render background program: every render target in tile memory is
    loaded back (spilled ones stay in their images)."""
    mask = sum(1 << i for i, s in enumerate(tl.slots) if s is not None and not s.spilled)
    return clear_program(tl, 0, mask, samples)


def _resolve_lines(x: str, y: str, samples: int, dst: int) -> list[str]:
    """r{dst}..r{dst+3} = the mean of the ``samples`` samples of source texel
    (``x``, ``y``) (u32 registers; texture 2 is the multisampled source)."""
    lines = [f"mov_imm r{dst + c}, 0" for c in range(4)] + [f"mov r40, {x}", f"mov r41, {y}"]
    for s in range(samples):
        lines += [f"mov_imm r15, {s}", "texture_load.2d_ms.ms r24_r25_r26_r27, r40_r41, 2, r14, r15, 0", "wait 0"]
        lines += [f"fadd r{dst + c}, r{dst + c}, r{24 + c}" for c in range(4)]
    return lines + [f"fmul r{dst + c}, r{dst + c}, u11" for c in range(4)]


def _clamped_texel(src: str, dst: str, extent: str) -> list[str]:
    """``dst`` = u32 of float ``src`` (a whole number) clamped to [0, ``extent``]."""
    return [f"fmax {dst}, {src}, 0.0", f"fmin {dst}, {dst}, {extent}", f"convert.u32.f32 {dst}, {dst}"]


@lru_cache(maxsize=64)
def blit_program(slot: RTSlot, samples: int, write_mask: int, bilinear: bool = False,
                 volume: bool = False) -> bytes:
    """Background program of a blit command (one lane per destination pixel).

    Uniforms (32-bit floats): u0..u3 the destination rectangle [x0, x1) x [y0, y1)
    (box clipped to the scissor and the level), u4/u5 source pixels per destination
    pixel (negative: mirrored), u6/u7 the source position of destination (0, 0),
    u8/u9 1/source size, u10 = 0.5, u11 = 1/samples, u12/u13 the source's last
    column and row, u14 (``volume``) the normalised depth coordinate of a 3D source
    (a blit scaled in depth samples between slices, filtered as in the other axes,
    as Mesa's u_blitter does). Texture 0 (sampler 0) is the source, texture 1 the destination
    (loaded where the rectangle does not cover), texture 2 the source as a
    multisample view. ``samples`` > 1: a resolve, the samples of a source texel
    averaged (texture_load of each): at the texel under the destination pixel's
    centre, or with ``bilinear`` (a scaled resolve with a LINEAR filter,
    EXT_framebuffer_multisample_blit_scaled) the bilinear mix of the four resolved
    texels around it, edges clamped (Mesa's u_blitter resolves the same way)."""
    n = slot.components
    lines = ["get_sr r4, pixel_x", "get_sr r5, pixel_y", "mov_imm r14, 0",
             "texture_load.2d r16_r17_r18_r19, r4_r5, 1, r14, 0", "wait 0",
             "convert.f32.u32 r6, r4", "convert.f32.u32 r7, r5", "fadd r6, r6, u10", "fadd r7, r7, u10"]
    if samples > 1 and not bilinear:
        # the source texel under the destination pixel's centre
        lines += ["fma r12, r6, u4, u6", "fma r13, r7, u5, u7", "floor r12, r12", "floor r13, r13"]
        lines += _clamped_texel("r12", "r12", "u12") + _clamped_texel("r13", "r13", "u13")
        lines += _resolve_lines("r12", "r13", samples, 8)
    elif samples > 1:
        # texel centres around the source position: x0 = floor(p - 0.5), weights fract(p - 0.5)
        lines += ["fma r12, r6, u4, u6", "fma r13, r7, u5, u7", "fadd r12, r12, -0.5", "fadd r13, r13, -0.5",
                  "fract r22, r12", "fract r23, r13", "floor r12, r12", "floor r13, r13",
                  "fadd r20, r12, 1.0", "fadd r21, r13, 1.0"]
        lines += (_clamped_texel("r12", "r12", "u12") + _clamped_texel("r13", "r13", "u13")
                  + _clamped_texel("r20", "r20", "u12") + _clamped_texel("r21", "r21", "u13"))
        lines += ["mov_imm r8, 0", "mov_imm r9, 0", "mov_imm r10, 0", "mov_imm r11, 0",
                  "fadd r30, r22.neg, 1.0", "fadd r31, r23.neg, 1.0"]      # 1 - fx, 1 - fy
        for x, y, wx, wy in (("r12", "r13", "r30", "r31"), ("r20", "r13", "r22", "r31"),
                             ("r12", "r21", "r30", "r23"), ("r20", "r21", "r22", "r23")):
            lines += _resolve_lines(x, y, samples, 32)
            lines.append(f"fmul r29, {wx}, {wy}")
            lines += [f"fma r{8 + c}, r{32 + c}, r29, r{8 + c}" for c in range(4)]
    elif volume:
        lines += ["fma r24, r6, u4, u6", "fma r25, r7, u5, u7", "fmul r24, r24, u8", "fmul r25, r25, u9",
                  "mov r26, u14", "texture_sample.3d.lod r8_r9_r10_r11, r24_r25_r26, 0, 0, r14, 0", "wait 0"]
    else:
        lines += ["fma r12, r6, u4, u6", "fma r13, r7, u5, u7", "fmul r12, r12, u8", "fmul r13, r13, u9",
                  "texture_sample.2d.lod r8_r9_r10_r11, r12_r13, 0, 0, r14, 0", "wait 0"]
    for c in range(4):
        src = f"r{8 + c}" if write_mask >> c & 1 else f"r{16 + c}"
        # inside the rectangle: the blitted value, else the destination's own
        lines += [f"fcmpsel.ge r20, r6, u0, {src}, r{16 + c}", f"fcmpsel.lt r20, r6, u2, r20, r{16 + c}",
                  f"fcmpsel.ge r20, r7, u1, r20, r{16 + c}", f"fcmpsel.lt r{28 + c}, r7, u3, r20, r{16 + c}"]
    lines += _store(slot, 28, (1 << n) - 1)
    lines.append("stop")
    return assemble("\n".join(lines))


@lru_cache(maxsize=64)
def copy_program(slot: RTSlot) -> bytes:
    """Background program of a texture copy (BLIT command): inside the destination
    rectangle [u0, u2) x [u1, u3) (integers) the texel at pixel - (u0, u1) + (u4, u5)
    of texture 0 (``texture_load``: exact for every renderable format viewed without
    sRGB), elsewhere the destination's own texel (texture 1)."""
    n = slot.components
    lines = ["get_sr r4, pixel_x", "get_sr r5, pixel_y", "mov_imm r14, 0",
             "texture_load.2d r16_r17_r18_r19, r4_r5, 1, r14, 0", "wait 0",
             "isub r12, r4, u0", "iadd r12, r12, u4", "isub r13, r5, u1", "iadd r13, r13, u5",
             "texture_load.2d r8_r9_r10_r11, r12_r13, 0, r14, 0", "wait 0"]
    for c in range(n):
        d = f"r{16 + c}"
        lines += [f"icmpsel.uge r20, r4, u0, r{8 + c}, {d}", f"icmpsel.ult r20, r4, u2, r20, {d}",
                  f"icmpsel.uge r20, r5, u1, r20, {d}", f"icmpsel.ult r{28 + c}, r5, u3, r20, {d}"]
    lines += _store(slot, 28, (1 << n) - 1)
    lines.append("stop")
    return assemble("\n".join(lines))


def buffer_copy_program(word: bool) -> bytes:
    """Compute kernel copying bytes (or 32-bit words) u0_u1 -> u2_u3; thread i copies
    element min(i, u4) (extra threads of the last group repeat the last element)."""
    fmt, shift = ("i32", 2) if word else ("i8", 0)
    return assemble("\n".join([
        "get_sr r4, thread_position_in_grid.x", "umin r4, r4, u4",
        f"device_load.{fmt} r5, u0_u1, r4, {shift}, 0", "wait 0",
        f"device_store.{fmt} r5, u2_u3, r4, {shift}, 0", "wait 0", "stop"]))
