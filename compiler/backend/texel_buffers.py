"""Buffer textures and buffer images as 2D images (Mesa's Asahi lowers them so).

A TEXTURE descriptor's width is a 14-bit field: one row holds at most
``TEXEL_BUFFER_WIDTH_PX`` (16,384) texels, fewer than GL's minimum
MAX_TEXTURE_BUFFER_SIZE (65,536). So a buffer of n elements is bound as a linear
2D image ``W = TEXEL_BUFFER_WIDTH_PX`` texels wide and ceil(n / W) rows tall (the
last row partial), and every access by element index i becomes an access to
texel (i % W, i // W) (a mask and a shift: W is a power of two).

Bounds. The image covers up to W - 1 texels past the buffer's end, so the index is
checked against the real element count n, which the driver passes in the uniform
slot ``texel_buffer_elements`` of the descriptor (``abi.py``). An index outside
[0, n) (compared unsigned, so a negative index is outside too) is replaced by
0xFFFFFFFF, whose texel (W - 1, 2^32 / W - 1) lies below every image a descriptor
can describe (its height is at most ``TEXEL_BUFFER_MAX_ROWS``): the texture unit
reads (0, 0, 0, 0) there, and the image unit drops stores and atomics there (an
atomic returns 0): out-of-range fetches read 0 and out-of-range stores are
discarded, as GL specifies for buffer textures under robust access.

Sizes: ``textureSize(samplerBuffer)`` and ``imageSize(imageBuffer)`` answer n.

Invariant after this pass: no ``Tex`` and no image intrinsic has dimension ``buf``.
"""

from __future__ import annotations

from compiler.ir.builder import Builder
from compiler.ir.core import Intrinsic, Shader, Tex, replace_uses, walk_instrs

from .abi import IMAGE_DESCRIPTOR_BASE, TEXEL_BUFFER_MAX_ROWS, TEXEL_BUFFER_WIDTH_PX

__all__ = ["lower_texel_buffers", "OUT_OF_RANGE_INDEX"]

_SHIFT = TEXEL_BUFFER_WIDTH_PX.bit_length() - 1
#: The index an out-of-range access is sent to: its row is beyond every descriptor's height.
OUT_OF_RANGE_INDEX = 0xFFFFFFFF
assert OUT_OF_RANGE_INDEX >> _SHIFT >= TEXEL_BUFFER_MAX_ROWS

_IMAGE_OPS = ("image_load", "image_store", "image_atomic", "image_atomic_swap", "image_size")


def _coord_2d(b: Builder, index, elements):
    """(i % W, i // W) of an index in range, else of OUT_OF_RANGE_INDEX."""
    i = b.channel(index, 0) if index.num_components > 1 else index
    inside = b.alu("ult", i, elements)
    i = b.alu("bcsel", inside, i, b.const(OUT_OF_RANGE_INDEX))
    return b.vec(b.alu("iand", i, b.const(TEXEL_BUFFER_WIDTH_PX - 1)), b.alu("ushr", i, b.const(_SHIFT)))


def lower_texel_buffers(shader: Shader) -> bool:
    """Rewrite every buffer-texture fetch/size and buffer-image access (see the
    module's docstring). Returns whether anything changed."""
    progress = False
    for func in shader.functions:
        replaced = {}
        for instr in list(walk_instrs(func.body)):
            if isinstance(instr, Tex) and instr.dim == "buf":
                b = Builder(func, shader).before(instr)
                elements = b.intrinsic("load_texel_buffer_elements", descriptor=instr.texture)
                if instr.op == "txs":
                    replaced[instr.dest] = elements
                    instr.block.remove(instr)
                else:
                    assert instr.op == "txf", f"{instr.op} of a buffer texture"
                    coord = _coord_2d(b, instr.src("coord"), elements)
                    instr.srcs = [("coord", coord)] + [(k, d) for k, d in instr.srcs
                                                       if k not in ("coord", "lod", "offset")]
                    instr.dim = "2d"
                progress = True
            elif isinstance(instr, Intrinsic) and instr.name in _IMAGE_OPS and instr.indices.get("dim") == "buf":
                b = Builder(func, shader).before(instr)
                elements = b.intrinsic("load_texel_buffer_elements",
                                       descriptor=IMAGE_DESCRIPTOR_BASE + instr.indices["image"])
                if instr.name == "image_size":
                    replaced[instr.dest] = elements
                    instr.block.remove(instr)
                else:
                    instr.srcs[0] = _coord_2d(b, instr.srcs[0], elements)
                    instr.indices["dim"] = "2d"
                progress = True
        replace_uses(func.body, replaced)
    return progress
