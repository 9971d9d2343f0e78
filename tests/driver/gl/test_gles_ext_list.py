"""The GLES extension surface Mesa's llvmpipe exposes: every name is listed from the
ES version its specification requires (and not before), and the names whose other
tests live elsewhere are exercised there (ISSUE_LIST says where). The names whose
own tests are here: NV_image_formats (GLSL ES image formats beyond GLSL ES 3.10's
table), EXT_color_buffer_float (float colour buffers in GLES 3.0), the compressed
formats of EXT_texture_compression_bptc and KHR_texture_compression_astc_ldr
uploaded and sampled in GLES, EXT_primitive_bounding_box's EXT entry point, and
OES_viewport_array (GLES 3.1 and 3.2: indexed viewports, scissors and depth ranges,
gl_ViewportIndex and gl_MaxViewports) and OES_required_internalformat (sized internal
formats in GLES 1/2), and the GLES 3.1 names of GLES 3.2's stages (geometry,
tessellation, gpu_shader5) used by GLSL ES 3.10 shaders in GLES 3.1 and 3.2 contexts
(their GLES 3.1 entry points, limits and queries: test_gles31_stages.py)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.extensions import advertised
from tests.driver.gl.helpers import compile_source as _compile, expect
from tests.driver.gl.helpers import link_sources as _program

T2 = E.GL_TEXTURE_2D

#: name -> (the lowest GLES version listing it, the test exercising what it specifies)
ISSUE_LIST = {
    "GL_OES_texture_float": ((2, 0), "test_gles_ext.py"),
    "GL_OES_texture_half_float": ((2, 0), "test_gles_ext.py"),
    "GL_OES_texture_float_linear": ((2, 0), "test_gles_ext.py"),
    "GL_OES_texture_half_float_linear": ((2, 0), "test_gles_ext.py"),
    "GL_EXT_color_buffer_float": ((3, 0), "test_gles_ext_list.py"),
    "GL_EXT_color_buffer_half_float": ((2, 0), "test_gles_ext.py"),
    "GL_EXT_frag_depth": ((2, 0), "test_gles_ext.py"),
    "GL_EXT_draw_instanced": ((2, 0), "test_gles_ext_commands.py"),
    "GL_EXT_base_instance": ((3, 0), "test_gles_ext_commands.py"),
    "GL_OES_draw_elements_base_vertex": ((2, 0), "test_gles_ext_commands.py"),
    "GL_EXT_clear_texture": ((3, 1), "test_gles_ext_commands.py"),
    "GL_EXT_disjoint_timer_query": ((2, 0), "test_gles_ext_commands.py"),
    "GL_EXT_occlusion_query_boolean": ((2, 0), "test_gles_ext_commands.py"),
    "GL_EXT_polygon_offset_clamp": ((2, 0), "test_gles_ext_commands.py"),
    "GL_EXT_render_snorm": ((3, 1), "test_es_render_snorm.py"),
    "GL_EXT_texture_norm16": ((3, 1), "test_formats_internal.py"),
    "GL_EXT_texture_format_BGRA8888": ((2, 0), "test_formats_internal.py"),
    "GL_EXT_texture_compression_bptc": ((3, 0), "test_gles_ext_list.py"),
    "GL_EXT_texture_compression_rgtc": ((3, 0), "test_online_compression.py"),
    "GL_EXT_texture_compression_s3tc": ((2, 0), "test_online_compression.py"),
    "GL_KHR_texture_compression_astc_ldr": ((2, 0), "test_gles_ext_list.py"),
    "GL_OES_compressed_ETC1_RGB8_texture": ((2, 0), "test_gles1_etc1.py"),
    "GL_OES_vertex_half_float": ((2, 0), "test_gles_ext.py"),
    "GL_NV_read_depth": ((2, 0), "test_gles_ext_commands.py"),
    "GL_NV_read_stencil": ((2, 0), "test_gles_ext_commands.py"),
    "GL_NV_read_depth_stencil": ((2, 0), "test_gles_ext_commands.py"),
    "GL_NV_image_formats": ((3, 1), "test_gles_ext_list.py"),
    "GL_KHR_debug": ((2, 0), "test_gles_ext_commands.py"),
    "GL_KHR_parallel_shader_compile": ((2, 0), "test_gles_ext.py"),
    "GL_KHR_blend_equation_advanced": ((2, 0), "test_blend_advanced.py"),
    "GL_OES_sample_variables": ((3, 0), "test_num_samples.py"),
    "GL_OES_shader_image_atomic": ((3, 1), "test_gles_ext_glsl.py"),
    "GL_OES_texture_buffer": ((3, 1), "test_gles_ext_glsl.py"),
    "GL_OES_texture_cube_map_array": ((3, 1), "test_gles_ext_glsl.py"),
    "GL_EXT_copy_image": ((3, 0), "test_gles_ext_commands.py"),
    "GL_EXT_primitive_bounding_box": ((3, 1), "test_gles_ext_list.py"),
    "GL_OES_viewport_array": ((3, 1), "test_gles_ext_list.py"),
    "GL_OES_required_internalformat": ((2, 0), "test_gles_ext_list.py"),
    "GL_EXT_blend_func_extended": ((2, 0), "test_gles_blend_func_extended.py"),
    "GL_OES_texture_view": ((3, 1), "test_gles_texture_view.py"),
}
ES_VERSIONS = [(2, 0), (3, 0), (3, 1), (3, 2)]
#: the ones GLES 1.1 contexts list too (the specification names GLES 1.0)
ES1_TOO = {"GL_OES_compressed_ETC1_RGB8_texture", "GL_OES_required_internalformat",
           "GL_KHR_debug"}      # (KHR_debug: as llvmpipe's ES 1.1 contexts list it; test_gles1_khr_debug.py)


@pytest.mark.parametrize("name", sorted(ISSUE_LIST))
def test_listed_from_the_version_its_specification_requires(name):
    lowest, test_file = ISSUE_LIST[name]
    for version in ES_VERSIONS:
        assert (name in advertised(True, False, version)) == (version >= lowest), (name, version)
    assert (name in advertised(True, False, (1, 1))) == (name in ES1_TOO)
    import pathlib
    assert name.removeprefix("GL_") in (pathlib.Path(__file__).parent / test_file).read_text()


def _texture(ctx, ifmt, fmt, type, data, w=1, h=1):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexStorage2D(T2, 1, ifmt, w, h)
    ctx.glTexSubImage2D(T2, 0, 0, 0, w, h, fmt, type, data)
    return t


def _read(ctx, t, fmt, type, dtype, n=4):
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, t, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, fmt, type), dtype)[:n]


def test_nv_image_formats_rg16f_r16_and_r8_images_in_glsl_es():
    """GLSL ES 3.10 allows 13 image formats; with `#extension GL_NV_image_formats`
    the others (here rg16f, r16 - EXT_texture_norm16's - and r8) compile, and a
    compute shader reads and writes them: r8 = rg16f.r + r16.r = 0.25 + 13107/65535
    (= 0.2) = 0.45 -> 0.45 * 255 = 114.75 -> 115."""
    ctx = driver.Context(api="gles31", width=1, height=1)
    body = ("layout(local_size_x = 1) in;\n"
            "layout(rg16f, binding = 0) uniform readonly highp image2D a;\n"
            "layout(r16, binding = 1) uniform readonly highp image2D b;\n"
            "layout(r8, binding = 2) uniform writeonly highp image2D c;\n"
            "void main() { imageStore(c, ivec2(0), vec4(imageLoad(a, ivec2(0)).r + imageLoad(b, ivec2(0)).r)); }")
    for version in ("310 es", "320 es"):
        _, ok, log = _compile(ctx, E.GL_COMPUTE_SHADER, f"#version {version}\n" + body)
        assert not ok and "rg16f" in log and "GL_NV_image_formats" in log, log
    a = _texture(ctx, E.GL_RG16F, E.GL_RG, E.GL_FLOAT, np.array([0.25, 0.75], np.float32))
    b = _texture(ctx, E.GL_R16, E.GL_RED, E.GL_UNSIGNED_SHORT, np.array([13107], np.uint16))
    c = _texture(ctx, E.GL_R8, E.GL_RED, E.GL_UNSIGNED_BYTE, np.array([0], np.uint8))
    for unit, (t, fmt, access) in enumerate(((a, E.GL_RG16F, E.GL_READ_ONLY), (b, E.GL_R16, E.GL_READ_ONLY),
                                             (c, E.GL_R8, E.GL_WRITE_ONLY))):
        ctx.glBindImageTexture(unit, t, 0, False, 0, access, fmt)
    src = "#version 310 es\n#extension GL_NV_image_formats : require\n" + body
    s, ok, log = _compile(ctx, E.GL_COMPUTE_SHADER, src)
    assert ok, log
    prog = ctx.glCreateProgram()
    ctx.glAttachShader(prog, s)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    expect(ctx, E.GL_NO_ERROR)
    assert list(_read(ctx, c, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.uint8)) == [115, 0, 0, 255]


def test_nv_image_formats_is_not_in_es30():
    ctx = driver.Context(api="gles3", width=1, height=1)
    n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    assert "GL_NV_image_formats" not in {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}


# -- EXT_color_buffer_float -------------------------------------------------------------------

@pytest.mark.parametrize("ifmt, colour, want", [
    (E.GL_RGBA32F, (2.5, -1.0, 0.25, 100.0), (2.5, -1.0, 0.25, 100.0)),
    (E.GL_RGBA16F, (2.5, -1.0, 0.25, 100.0), (2.5, -1.0, 0.25, 100.0)),
    (E.GL_RG32F, (-3.0, 7.5, 9.0, 9.0), (-3.0, 7.5, 0.0, 1.0)),
    (E.GL_R16F, (1000.0, 9.0, 9.0, 9.0), (1000.0, 0.0, 0.0, 1.0)),
    # unsigned 11/11/10-bit floats: 0.5, 3.0 and 1024.0 are exact; alpha reads as 1
    (E.GL_R11F_G11F_B10F, (0.5, 3.0, 1024.0, 9.0), (0.5, 3.0, 1024.0, 1.0)),
])
def test_ext_color_buffer_float_renders_and_reads_unclamped_floats(ifmt, colour, want):
    """GLES 3.0 with EXT_color_buffer_float: the 16/32-bit float and R11F_G11F_B10F
    formats are colour-renderable; a shader writes values outside [0, 1] and
    glReadPixels(RGBA, FLOAT) returns them unclamped."""
    ctx = driver.Context(api="gles3", width=1, height=1)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexStorage2D(T2, 1, ifmt, 1, 1)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, t, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    fs = ("#version 300 es\nprecision highp float;\nuniform vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n")
    vs = "#version 300 es\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
    prog = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)])
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c"), *colour)
    _draw_full(ctx)
    got = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_FLOAT), np.float32)
    expect(ctx, E.GL_NO_ERROR)
    assert got.tolist() == list(want)


def _draw_full(ctx):
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    data = np.array([(-1, -1), (3, -1), (-1, 3)], np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)


# -- compressed formats in GLES -----------------------------------------------------------------

def _fetch_4x4(ctx, internal_format, block: bytes) -> np.ndarray:
    """Upload one 4x4 block with glCompressedTexImage2D and draw it texel for texel
    (texelFetch) into the 4x4 RGBA8 window; the 4x4x4 bytes read back."""
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glCompressedTexImage2D(T2, 0, internal_format, 4, 4, 0, len(block), block)
    expect(ctx, E.GL_NO_ERROR)
    vs = "#version 300 es\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
    fs = ("#version 300 es\nprecision highp float;\nuniform highp sampler2D t;\nout vec4 o;\n"
          "void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), 0); }\n")
    prog = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)])
    _draw_full(ctx)
    return np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4, 4)


def _formats(ctx) -> set[int]:
    n = ctx.glGetIntegerv(E.GL_NUM_COMPRESSED_TEXTURE_FORMATS)[0]
    return set(ctx.glGetIntegerv(E.GL_COMPRESSED_TEXTURE_FORMATS)[:n]) if n else set()


def test_ext_texture_compression_bptc_block_sampled_in_es3():
    """A BC7 mode 6 block decoded by hand (tests/layout/test_bptc.py mode6_block):
    texel 0 = endpoint 0 (1, 255, 129, 255), texel 1 = endpoint 1 (255, 1, 129, 255),
    texel 2 weight 34: (136, 120, 129, 255), rows 1-3 endpoint 0. The formats are
    GLES 3.0's (the extension requires it): a GLES 2.0 context neither lists nor
    takes them."""
    from tests.layout.test_bptc import mode6_block
    ctx = driver.Context(api="gles3", width=4, height=4)
    assert E.GL_COMPRESSED_RGBA_BPTC_UNORM in _formats(ctx)
    got = _fetch_4x4(ctx, E.GL_COMPRESSED_RGBA_BPTC_UNORM, mode6_block().tobytes())
    assert got[0, :3].tolist() == [[1, 255, 129, 255], [255, 1, 129, 255], [136, 120, 129, 255]]
    assert (got[1:] == [1, 255, 129, 255]).all()
    es2 = driver.Context(api="gles2", width=4, height=4)
    assert E.GL_COMPRESSED_RGBA_BPTC_UNORM not in _formats(es2)
    (t,) = es2.glGenTextures(1)
    es2.glBindTexture(T2, t)
    es2.glCompressedTexImage2D(T2, 0, E.GL_COMPRESSED_RGBA_BPTC_UNORM, 4, 4, 0, 16, bytes(16))
    expect(es2, E.GL_INVALID_ENUM)


def test_khr_texture_compression_astc_ldr_block_sampled_in_es3():
    """An ASTC 4x4 block of CEM 8 (RGB direct) decoded by hand in
    tests/layout/test_astc.py: 16-bit texels (2570, 5140, 7710), (51400, 25700, 12850),
    (18592, 11886, 9397), (35378, 18954, 11163) on row 0, the first of these elsewhere;
    sampled as unorm16 and written to RGBA8 (x * 255 / 65535 rounded, within one step)."""
    from tests.layout.test_astc import cem8_block
    ctx = driver.Context(api="gles3", width=4, height=4)
    assert E.GL_COMPRESSED_RGBA_ASTC_4x4 in _formats(ctx)
    got = _fetch_4x4(ctx, E.GL_COMPRESSED_RGBA_ASTC_4x4, cem8_block((10, 200, 20, 100, 30, 50)).tobytes())
    row0 = np.array([[2570, 5140, 7710, 65535], [51400, 25700, 12850, 65535],
                     [18592, 11886, 9397, 65535], [35378, 18954, 11163, 65535]]) * 255 / 65535
    assert np.abs(got[0].astype(float) - row0).max() <= 1.0, got[0]
    assert (np.abs(got[1:].astype(float) - row0[0]) <= 1.0).all()


# -- EXT_primitive_bounding_box -------------------------------------------------------------------

def test_ext_primitive_bounding_box_entry_point_and_query_in_es31():
    """GLES 3.1's EXT name: glPrimitiveBoundingBoxEXT sets the eight floats
    PRIMITIVE_BOUNDING_BOX_EXT returns (default (-1, -1, -1, 1, 1, 1, 1, 1))."""
    ctx = driver.Context(api="gles31", width=1, height=1)
    GL_PRIMITIVE_BOUNDING_BOX_EXT = 0x92BE
    assert ctx.glGetFloatv(GL_PRIMITIVE_BOUNDING_BOX_EXT) == [-1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    ctx.glPrimitiveBoundingBoxEXT(-0.5, -0.25, 0.0, 1.0, 0.5, 0.75, 1.0, 2.0)
    assert ctx.glGetFloatv(GL_PRIMITIVE_BOUNDING_BOX_EXT) == [-0.5, -0.25, 0.0, 1.0, 0.5, 0.75, 1.0, 2.0]
    expect(ctx, E.GL_NO_ERROR)
    es3 = driver.Context(api="gles3", width=1, height=1)
    es3.glPrimitiveBoundingBoxEXT(0, 0, 0, 1, 1, 1, 1, 1)
    expect(es3, E.GL_INVALID_OPERATION)


# -- OES_viewport_array -------------------------------------------------------------------------

@pytest.mark.parametrize("api, version, gs_ext", [
    ("gles32", "320 es", ""),
    ("gles31", "310 es", "#extension GL_OES_geometry_shader : require\n")])
def test_oes_viewport_array_two_viewports_a_scissor_and_depth_ranges(api, version, gs_ext):
    """GLES 3.2 (or 3.1 with OES_geometry_shader) with OES_viewport_array: a geometry shader sends a full-screen triangle
    to viewport 0 (left half of an 8x4 window) and viewport 1 (right half, its scissor
    test enabled on the bottom two rows only); the fragment shader reads
    gl_ViewportIndex (0 -> red, 1 -> green). Indexed depth ranges, MAX_VIEWPORTS and
    gl_MaxViewports (= 16) agree; without the #extension the built-ins are unknown."""
    ctx = driver.Context(api=api, width=8, height=4)
    assert ctx.glGetIntegerv(E.GL_MAX_VIEWPORTS) == [16]
    vs = f"#version {version}\nin vec2 p;\nvoid main() {{ gl_Position = vec4(p, 0.0, 1.0); }}\n"
    gs = (f"#version {version}\n{gs_ext}#extension GL_OES_viewport_array : require\n"
          "layout(triangles) in;\nlayout(triangle_strip, max_vertices = 6) out;\n"
          "void main() { for (int v = 0; v < 2; v++) { for (int i = 0; i < 3; i++) {\n"
          "  gl_Position = gl_in[i].gl_Position; gl_ViewportIndex = v; EmitVertex(); }\n"
          "  EndPrimitive(); } }\n")
    fs_body = ("precision highp float;\nout vec4 o;\n"
               "void main() { o = gl_ViewportIndex == 0 ? vec4(1, 0, 0, 1)"
               " : vec4(0, float(gl_MaxViewports) / 16.0, 0, 1); }\n")
    _, ok, log = _compile(ctx, E.GL_FRAGMENT_SHADER, f"#version {version}\n" + fs_body)
    assert not ok and "gl_ViewportIndex" in log
    fs = f"#version {version}\n#extension GL_OES_viewport_array : require\n" + fs_body
    prog = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, fs)])
    ctx.glViewportArrayvOES(0, 2, [0, 0, 4, 4, 4, 0, 4, 4])
    ctx.glScissorIndexedOES(1, 4, 0, 4, 2)
    ctx.glEnableiOES(E.GL_SCISSOR_TEST, 1)
    assert ctx.glIsEnablediOES(E.GL_SCISSOR_TEST, 1) and not ctx.glIsEnablediOES(E.GL_SCISSOR_TEST, 0)
    ctx.glDepthRangeIndexedfOES(1, 0.25, 0.75)
    ctx.glDepthRangeArrayfvOES(2, 1, [0.5, 1.0])
    assert ctx.glGetFloati_vOES(E.GL_VIEWPORT, 1) == [4.0, 0.0, 4.0, 4.0]
    assert ctx.glGetFloati_vOES(E.GL_DEPTH_RANGE, 1) == [0.25, 0.75]
    assert ctx.glGetFloati_vOES(E.GL_DEPTH_RANGE, 2) == [0.5, 1.0]
    assert ctx.glGetIntegeri_v(E.GL_SCISSOR_BOX, 1) == [4, 0, 4, 2]
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    _draw_full(ctx)
    expect(ctx, E.GL_NO_ERROR)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 8, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 8, 4)
    assert (px[:, :4] == (255, 0, 0, 255)).all()
    assert (px[:2, 4:] == (0, 255, 0, 255)).all()
    assert (px[2:, 4:] == (0, 0, 0, 255)).all()


def test_oes_viewport_array_is_refused_in_es30():
    ctx = driver.Context(api="gles3", width=1, height=1)
    ctx.glViewportIndexedfOES(1, 0, 0, 1, 1)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glDepthRangeIndexedfOES(1, 0.0, 1.0)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glEnablei(E.GL_SCISSOR_TEST, 1)
    expect(ctx, E.GL_INVALID_ENUM)


# -- OES_required_internalformat ---------------------------------------------------------------

def _sample_texel(ctx, internalformat, fmt, type, data) -> np.ndarray:
    """A 1x1 texture of ``internalformat`` from ``data``, drawn by a GLSL ES 1.00 shader
    into the 1x1 window; the RGBA8 pixel read back."""
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexImage2D(T2, 0, internalformat, 1, 1, 0, fmt, type, data)
    expect(ctx, E.GL_NO_ERROR)
    vs = "attribute vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
    fs = ("precision mediump float;\nuniform sampler2D t;\n"
          "void main() { gl_FragColor = texture2D(t, vec2(0.5)); }\n")
    prog = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)])
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    tri = np.array([(-1, -1), (3, -1), (-1, 3)], np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    return np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).astype(int)


@pytest.mark.parametrize("api", ["gles1", "gles2"])
def test_oes_required_internalformat_is_listed_in_es1_and_es2(api):
    ctx = driver.Context(api=api, width=1, height=1)
    assert "GL_OES_required_internalformat" in ctx.glGetString(E.GL_EXTENSIONS).split()


@pytest.mark.parametrize("internalformat, fmt, type, data, want, tolerance", [
    # exact formats: the texel as given (ALPHA: (0, 0, 0, A); LUMINANCE_ALPHA: (L, L, L, A))
    (E.GL_RGBA8, E.GL_RGBA, E.GL_UNSIGNED_BYTE, [200, 100, 50, 25], [200, 100, 50, 25], 0),
    (E.GL_ALPHA8, E.GL_ALPHA, E.GL_UNSIGNED_BYTE, [77], [0, 0, 0, 77], 0),
    (E.GL_LUMINANCE8, E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE, [91], [91, 91, 91, 255], 0),
    (E.GL_LUMINANCE8_ALPHA8, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE, [91, 17], [91, 91, 91, 17], 0),
    # at least 4 / 5-6-5 / 5-5-5-1 bits per channel: within half a step of the narrowest width
    (E.GL_RGBA4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, [200, 100, 50, 255], [200, 100, 50, 255], 9),
    (E.GL_RGB565, E.GL_RGB, E.GL_UNSIGNED_BYTE, [200, 100, 50], [200, 100, 50, 255], 5),
    (E.GL_RGB5_A1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, [200, 100, 50, 255], [200, 100, 50, 255], 5),
    # packed client data: 5-6-5 (31, 0, 31) and 4-4-4-4 (15, 8, 0, 15) expand exactly
    (E.GL_RGB565, E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5, [0xF81F], [255, 0, 255, 255], 0),
    (E.GL_RGBA4, E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4, [0xF80F], [255, 136, 0, 255], 0),
])
def test_oes_required_internalformat_sized_textures_in_es2(internalformat, fmt, type, data, want, tolerance):
    """GLES 2.0 takes the extension's sized internal formats with the format/type of
    its table 3.3 and stores at least their precision."""
    ctx = driver.Context(api="gles2", width=1, height=1)
    dtype = np.uint16 if type in (E.GL_UNSIGNED_SHORT_5_6_5, E.GL_UNSIGNED_SHORT_4_4_4_4) else np.uint8
    got = _sample_texel(ctx, internalformat, fmt, type, np.array(data, dtype))
    assert np.abs(got - np.array(want)).max() <= tolerance, got


def test_oes_required_internalformat_errors_in_es2():
    """A sized format with another format or type of the table: INVALID_OPERATION; a
    sized format the extension does not name: INVALID_VALUE."""
    ctx = driver.Context(api="gles2", width=1, height=1)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGB, E.GL_UNSIGNED_BYTE, bytes(3))
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glTexImage2D(T2, 0, E.GL_RGB565, 1, 1, 0, E.GL_RGB, E.GL_UNSIGNED_SHORT_4_4_4_4, bytes(2))
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glTexImage2D(T2, 0, E.GL_RGBA16F, 1, 1, 0, E.GL_RGBA, E.GL_FLOAT, bytes(16))
    expect(ctx, E.GL_INVALID_VALUE)


# -- GLES 3.2's stages under their GLES 3.1 names ------------------------------------------------

ES31_STAGE_NAMES = ["GL_EXT_geometry_shader", "GL_EXT_gpu_shader5", "GL_EXT_tessellation_shader",
                    "GL_OES_geometry_shader", "GL_OES_gpu_shader5", "GL_OES_tessellation_shader"]


@pytest.mark.parametrize("name", ES31_STAGE_NAMES)
def test_es31_stage_names_are_listed_from_es31(name):
    assert name in advertised(True, False, (3, 2))
    assert name in advertised(True, False, (3, 1))
    assert name not in advertised(True, False, (3, 0))


@pytest.mark.parametrize("api", ["gles31", "gles32"])
def test_glsl_es_310_geometry_and_tessellation_with_the_oes_names(api):
    """A GLES 3.1 or 3.2 context runs GLSL ES 3.10 stages enabled by the GLES 3.1 names: a
    geometry shader (#extension GL_OES_geometry_shader) passes a full-screen triangle
    through with gl_PrimitiveID = 7, which the fragment shader reads (7 / 255 in red);
    a tessellation control/evaluation pair (#extension GL_EXT_tessellation_shader,
    glPatchParameteriOES) draws the triangle blue; a vertex shader with
    #extension GL_OES_gpu_shader5 uses precise and fma (2 * 0.25 + 0 = 0.5 in green)."""
    ctx = driver.Context(api=api, width=2, height=2)
    vs = "#version 310 es\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
    gs = ("#version 310 es\n#extension GL_OES_geometry_shader : require\nlayout(triangles) in;\n"
          "layout(triangle_strip, max_vertices = 3) out;\n"
          "void main() { for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position;"
          " gl_PrimitiveID = 7; EmitVertex(); } EndPrimitive(); }\n")
    fs = ("#version 310 es\n#extension GL_OES_geometry_shader : require\nprecision highp float;\nout vec4 o;\n"
          "void main() { o = vec4(float(gl_PrimitiveID) / 255.0, 1.0, 0.0, 1.0); }\n")
    _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, fs)])
    _draw_full(ctx)
    px = lambda: np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).tolist()
    assert px() == [7, 255, 0, 255]
    tcs = ("#version 310 es\n#extension GL_EXT_tessellation_shader : require\nlayout(vertices = 3) out;\n"
           "void main() { gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n"
           "  gl_TessLevelOuter[0] = 1.0; gl_TessLevelOuter[1] = 1.0; gl_TessLevelOuter[2] = 1.0;"
           " gl_TessLevelInner[0] = 1.0; }\n")
    tes = ("#version 310 es\n#extension GL_EXT_tessellation_shader : require\nlayout(triangles) in;\n"
           "void main() { gl_Position = gl_TessCoord.x * gl_in[0].gl_Position"
           " + gl_TessCoord.y * gl_in[1].gl_Position + gl_TessCoord.z * gl_in[2].gl_Position; }\n")
    fs2 = "#version 310 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(0.0, 0.0, 1.0, 1.0); }\n"
    _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_TESS_CONTROL_SHADER, tcs),
                   (E.GL_TESS_EVALUATION_SHADER, tes), (E.GL_FRAGMENT_SHADER, fs2)])
    ctx.glPatchParameteriOES(E.GL_PATCH_VERTICES, 3)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    assert px() == [0, 0, 255, 255]
    vs5 = ("#version 310 es\n#extension GL_OES_gpu_shader5 : require\nin vec2 p;\nout float g;\n"
           "void main() { precise float x = fma(2.0, 0.25, 0.0); g = x; gl_Position = vec4(p, 0.0, 1.0); }\n")
    fs5 = "#version 310 es\nprecision highp float;\nin float g;\nout vec4 o;\nvoid main() { o = vec4(0.0, g, 0.0, 1.0); }\n"
    _program(ctx, [(E.GL_VERTEX_SHADER, vs5), (E.GL_FRAGMENT_SHADER, fs5)])
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert px() in ([0, 127, 0, 255], [0, 128, 0, 255])
    expect(ctx, E.GL_NO_ERROR)


@pytest.mark.parametrize("api", ["gles31", "gles32"])
def test_glsl_es_310_geometry_invocations_with_the_ext_name(api):
    """`layout(invocations = N) in;` belongs to the geometry extensions of GLSL ES 3.10
    (piglit's oes_viewport_array render-viewport-2 uses it): four invocations of one
    point each emit a point at x = gl_InvocationID of a 4x1 window; without the
    #extension a GLSL ES 3.10 geometry shader is refused."""
    ctx = driver.Context(api=api, width=4, height=1)
    body = ("layout(points, invocations = 4) in;\nlayout(points, max_vertices = 1) out;\n"
            "void main() { gl_Position = vec4(-0.75 + 0.5 * float(gl_InvocationID), 0.0, 0.0, 1.0);"
            " EmitVertex(); EndPrimitive(); }\n")
    _, ok, log = _compile(ctx, E.GL_GEOMETRY_SHADER, "#version 310 es\n" + body)
    assert not ok, log
    vs = "#version 310 es\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
    gs = "#version 310 es\n#extension GL_EXT_geometry_shader : require\n" + body
    fs = "#version 310 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(1.0, 0.0, 0.0, 1.0); }\n"
    _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, fs)])
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 8, np.zeros(2, np.float32).tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4)
    expect(ctx, E.GL_NO_ERROR)
    assert (px == (255, 0, 0, 255)).all(), px
