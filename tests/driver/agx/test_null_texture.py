"""Texture slots without a view (an incomplete or unbound texture): GL 4.6
section 11.1.3.5 says sampling them returns (0, 0, 0, 1), integer 1 for the
integer samplers. The driver gives them a descriptor of its own; before, the
slot's descriptor was all zeros and the texture unit faulted reading address 0."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E

from .glhelp import context, program

QUAD_VS = ("#version 330\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
           " gl_Position = vec4(p, 0.0, 1.0); }\n")


def _render(decl: str, body: str, texture=None) -> list:
    ctx = context(2, 1, api="gl43")
    if texture is not None:
        texture(ctx)
    program(ctx, QUAD_VS, f"#version 330\nuniform {decl} t; out vec4 o;\nvoid main() {{ {body} }}\n")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glClearColor(1.0, 1.0, 1.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(ctx.glReadPixels(0, 0, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(2, 4).tolist()


def _one_level_mipmapped(ctx):
    """A 2D texture with level 0 only and the default mipmapping filter: incomplete."""
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([200] * 16))


@pytest.mark.parametrize("decl, body", [
    ("sampler2D", "o = texture(t, vec2(0.5));"),
    ("sampler2D", "o = texelFetch(t, ivec2(1, 0), 0);"),
    ("samplerCube", "o = texture(t, vec3(0.3, -0.2, 1.0));"),
    ("sampler2DArray", "o = texture(t, vec3(0.5, 0.5, 2.0));"),
    ("sampler3D", "o = texture(t, vec3(0.5));"),
    ("sampler2DMS", "o = texelFetch(t, ivec2(0), 1);"),
])
def test_unbound_samplers_return_0001(decl, body):
    assert _render(decl, body) == [[0, 0, 0, 255]] * 2


def test_incomplete_texture_returns_0001():
    assert _render("sampler2D", "o = texture(t, vec2(0.5));", _one_level_mipmapped) == [[0, 0, 0, 255]] * 2


def test_unbound_integer_sampler_returns_integer_one():
    # alpha 1 (not the bits of 1.0f, 0x3F800000): green marks each check passed
    got = _render("usampler2D", "uvec4 v = texelFetch(t, ivec2(0), 0);"
                  " o = vec4(v.w == 1u, v.xyz == uvec3(0u), 0.0, 1.0);")
    assert got == [[255, 255, 0, 255]] * 2


def test_the_null_descriptor_is_a_full_pack_of_its_fields_once_per_batch_and_kind():
    """encode._null_texture packs through a packer of the texel's address (one per kind),
    the bytes kept per batch: the same bytes as uapi's full pack, per kind."""
    from driver.agx import encode
    from uapi import packets as P
    ctx = context(4, 4)
    batch = ctx.pipe.render_batch()
    S_ = P.Swizzle
    for integer in (False, True):
        for one_d in (False, True):
            got = encode._null_texture(batch, integer, one_d)
            want = P.pack("TEXTURE", target=P.TextureTarget.TEXTURE_1D if one_d else P.TextureTarget.TEXTURE_2D,
                          tiling=P.Tiling.LINEAR, format_id=encode._fid("R8G8B8A8_UINT" if integer else "R8G8B8A8_UNORM"),
                          swizzle_r=S_.ZERO, swizzle_g=S_.ZERO, swizzle_b=S_.ZERO, swizzle_a=S_.ONE, width_px=1,
                          height_px=1, depth_px=1, levels=1, address=batch.usc_cache["null texel"], linear_stride_B=16)
            assert got == want, (integer, one_d)
            assert encode._null_texture(batch, integer, one_d) is got
    ctx.destroy()
