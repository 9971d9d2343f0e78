"""The backend's buffer-texture lowering (compiler/backend/texel_buffers.py): no
buffer dimension reaches the ISA; fetches and image accesses become 2D accesses at
(i % W, i // W) with the index checked against the element count the driver passes
(one uniform slot per descriptor); textureSize/imageSize read that slot. The values
these accesses give are checked against numpy in tests/driver/gl/test_texel_buffer_large.py."""

from compiler.backend import IMAGE_DESCRIPTOR_BASE, TEXEL_BUFFER_MAX_ROWS, TEXEL_BUFFER_WIDTH_PX
from compiler.compile import compile_glsl
from compiler.backend.texel_buffers import OUT_OF_RANGE_INDEX
from uapi import packets as P

CS = """#version 430
layout(local_size_x = 4) in;
uniform usamplerBuffer tb;
layout(r32ui) uniform uimageBuffer img;
layout(std430, binding = 0) buffer B { uint out_[]; };
void main() {
    int i = int(gl_GlobalInvocationID.x) * 5000;
    out_[gl_GlobalInvocationID.x] = texelFetch(tb, i).x + imageLoad(img, i).x
                                    + uint(textureSize(tb) + imageSize(img));
    imageStore(img, i + 1, uvec4(7u));
}
"""


def test_the_width_is_the_descriptors_widest_image():
    width = P.TEXTURE.by_name["width_px"]
    height = P.TEXTURE.by_name["height_px"]
    assert TEXEL_BUFFER_WIDTH_PX == width.decode((1 << width.size) - 1) == 16384
    assert TEXEL_BUFFER_MAX_ROWS == height.decode((1 << height.size) - 1) == 16384
    # an out-of-range index lands below the tallest image a descriptor describes
    assert OUT_OF_RANGE_INDEX // TEXEL_BUFFER_WIDTH_PX >= TEXEL_BUFFER_MAX_ROWS


def test_buffer_accesses_become_2d_with_the_element_count():
    c = compile_glsl(CS, "compute")
    counts = sorted(s.binding for s in c.uniforms if s.kind == "texel_buffer_elements")
    sampler_slot = 0
    assert counts == [sampler_slot, IMAGE_DESCRIPTOR_BASE + 0]
    asm = c.assembly
    assert ".1d" not in asm, asm
    for op in ("texture_load", "image_load", "image_write"):
        lines = [ln for ln in asm.splitlines() if ln.strip().startswith(op)]
        assert lines and all(".2d" in ln for ln in lines), (op, lines)
    assert "texture_size" not in asm      # textureSize/imageSize read the count's uniform
