"""``shimgl layout WxH[xD] --format F [--levels N] [--samples S] [--tiling T]``:
print an image layout (level offsets, tile sizes, strides, sizes) for people
learning the hardware."""

from __future__ import annotations

import argparse
import re

__all__ = ["register", "run", "format_layout"]


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "layout", help="print the memory layout of an image (miptree, tiles, strides)",
        description="Print how an image is laid out in memory: per level its offset, "
        "size, tile size and stride; the layer stride, compression metadata and total size.")
    p.add_argument("size", metavar="WxH[xD]", help="width x height [x layers or 3D depth], in pixels")
    p.add_argument("--format", default="R8G8B8A8_UNORM", help="Gallium-style format name (default R8G8B8A8_UNORM)")
    p.add_argument("--levels", type=int, default=1, help="mip levels; any value > 1 gives the full chain")
    p.add_argument("--samples", type=int, default=1, help="samples per pixel: 1, 2 or 4")
    p.add_argument("--tiling", default="twiddled", help="linear, twiddled or twiddled_compressed")
    p.add_argument("--3d", dest="mipmapped_z", action="store_true", help="a 3D image: mipmapped along Z too")
    p.add_argument("--writeable", action="store_true", help="usable as a writeable image (page-aligned layers)")
    p.add_argument("--renderable", action="store_true", help="usable as a render target")
    p.add_argument("--stride", type=int, default=0, help="linear row stride in bytes (0: the smallest)")
    p.set_defaults(func=run)


def _parse_size(text: str) -> tuple[int, int, int]:
    m = re.fullmatch(r"(\d+)x(\d+)(?:x(\d+))?", text.strip().lower())
    if not m:
        raise ValueError(f"size must look like WxH or WxHxD, not {text!r}")
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)


def format_layout(lay) -> str:
    """A human-readable description of a Layout."""
    fmt = lay.fmt
    lines = [
        f"{lay.width_px}x{lay.height_px}x{lay.depth_px} {fmt.name} ({fmt.block_size_B} B per "
        f"{fmt.block_width_px}x{fmt.block_height_px} block), {lay.sample_count_sa} sample(s), "
        f"{lay.tiling}, {lay.levels} level(s)",
        f"{'level':>5} {'size px':>11} {'offset B':>10} {'size B':>10} {'tile el':>9} {'stride el':>9}"
        + ("  metadata" if lay.compressed_levels else ""),
    ]
    for level in range(lay.levels):
        tw, th = lay.tilesize_el[level]
        size = f"{lay.level_width_px(level)}x{lay.level_height_px(level)}"
        meta = ""
        if lay.is_level_compressed(level):
            meta = (f"  +0x{lay.level_offsets_compressed_B[level]:x} "
                    f"({lay.metadata_width_tl(level)}x{lay.metadata_height_tl(level)} tiles)")
        elif lay.compressed_levels:
            meta = "  (not compressed)"
        tile = "linear" if lay.tiling == "linear" else f"{tw}x{th}"
        lines.append(f"{level:>5} {size:>11} {lay.level_offsets_B[level]:>#10x} "
                     f"{lay.level_size_B(level):>#10x} {tile:>9} {lay.stride_el[level]:>9}{meta}")
    if lay.tiling == "linear":
        lines.append(f"row stride: {lay.linear_stride_B} B")
    lines.append(f"layer stride: {lay.layer_stride_B:#x} B"
                 f"{' (page-aligned layers)' if lay.page_aligned_layers else ''}")
    if lay.tiling == "twiddled_compressed":
        lines.append(f"metadata: at {lay.metadata_offset_B:#x}, {lay.compression_layer_stride_B:#x} B per layer, "
                     f"{lay.compressed_levels} compressed level(s)")
    lines.append(f"total size: {lay.size_B:#x} B ({lay.size_B} B)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from .miptree import make_miptree

    try:
        w, h, d = _parse_size(args.size)
        lay = make_miptree(w, h, d, levels=args.levels, format=args.format,
                           sample_count_sa=args.samples, tiling=args.tiling,
                           mipmapped_z=args.mipmapped_z, writeable_image=args.writeable,
                           renderable=args.renderable, linear_stride_B=args.stride)
    except ValueError as e:
        print(f"shimgl layout: {e}")
        return 2
    print(format_layout(lay))
    return 0
