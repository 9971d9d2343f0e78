"""Textures of several targets and formats, float and integer render targets, uniform
arrays/structs and blocks, depth readback, the compatibility profile."""

import numpy as np
import pytest

from tests.driver.agx.glhelp import context, program, vertices

VS_UV = """#version 300 es
in vec2 pos; out vec2 uv; void main(){ uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }"""
FS_TEXTURE = """#version 300 es
    precision highp float; uniform sampler2D t; in vec2 uv; out vec4 color;
    void main(){ color = texture(t, uv); }"""
QUAD = np.array([[-1, -1], [1, -1], [-1, 1], [1, -1], [1, 1], [-1, 1]], np.float32)


def _nearest(ctx, target):
    ctx.glTexParameteri(target, ctx.GL_TEXTURE_MIN_FILTER, ctx.GL_NEAREST)
    ctx.glTexParameteri(target, ctx.GL_TEXTURE_MAG_FILTER, ctx.GL_NEAREST)


def test_linear_filtering_matches_numpy():
    ctx = context(8, 8)
    p = program(ctx, VS_UV, FS_TEXTURE)
    vertices(ctx, p, QUAD, {"pos": (2, 0)}, 2)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    texels = np.array([[[0, 0, 0, 255], [255, 0, 0, 255]], [[0, 255, 0, 255], [255, 255, 0, 255]]], np.uint8)
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_RGBA8, 2, 2, 0, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE, texels)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MIN_FILTER, ctx.GL_LINEAR)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_WRAP_S, ctx.GL_CLAMP_TO_EDGE)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_WRAP_T, ctx.GL_CLAMP_TO_EDGE)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    img = ctx.read_pixels().astype(float)
    u = np.clip((np.arange(8) + 0.5) / 8 * 2 - 0.5, 0, 1)          # texel-space weight of texel 1
    expect_r = np.tile(u * 255, (8, 1))
    expect_g = np.tile((u * 255)[:, None], (1, 8))
    assert np.abs(img[..., 0] - expect_r).max() <= 2
    assert np.abs(img[..., 1] - expect_g).max() <= 2


@pytest.mark.parametrize("kind", ["2d_array", "3d", "cube"])
def test_texture_targets(kind):
    ctx = context(8, 8)
    sampler, coord, target = {"2d_array": ("sampler2DArray", "vec3(uv, 2.0)", "GL_TEXTURE_2D_ARRAY"),
                              "3d": ("sampler3D", "vec3(uv, 0.7)", "GL_TEXTURE_3D"),
                              "cube": ("samplerCube", "vec3(1.0, uv.y * 2.0 - 1.0, -(uv.x * 2.0 - 1.0))",
                                       "GL_TEXTURE_CUBE_MAP")}[kind]
    fs = f"""#version 300 es
    precision highp float; precision highp {sampler}; uniform {sampler} t; in vec2 uv; out vec4 color;
    void main(){{ color = texture(t, {coord}); }}"""
    p = program(ctx, VS_UV, fs)
    vertices(ctx, p, QUAD, {"pos": (2, 0)}, 2)
    tex = ctx.glGenTextures(1)[0]
    tgt = getattr(ctx, target)
    ctx.glBindTexture(tgt, tex)
    layers = [np.full((4, 4, 4), (40 * i, 255 - 40 * i, 17 * i, 255), np.uint8) for i in range(6)]
    if kind == "cube":
        for face in range(6):
            ctx.glTexImage2D(ctx.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, ctx.GL_RGBA8, 4, 4, 0, ctx.GL_RGBA,
                             ctx.GL_UNSIGNED_BYTE, layers[face])
        expect = layers[0][0, 0]                            # +X face
    else:
        data = np.stack(layers[:4])
        ctx.glTexImage3D(tgt, 0, ctx.GL_RGBA8, 4, 4, 4, 0, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE, data)
        expect = layers[2][0, 0]                            # layer 2 / slice floor(0.7 * 4) = 2
    _nearest(ctx, tgt)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    img = ctx.read_pixels()
    assert (np.abs(img.astype(int) - expect).max(axis=-1) <= 1).all(), (img[0, 0], expect)


def test_mipmaps_with_explicit_lod():
    ctx = context(8, 8)
    fs = """#version 300 es
    precision highp float; uniform sampler2D t; in vec2 uv; out vec4 color;
    void main(){ color = textureLod(t, uv, 2.0); }"""
    p = program(ctx, VS_UV, fs)
    vertices(ctx, p, QUAD, {"pos": (2, 0)}, 2)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    for level, size in enumerate((8, 4, 2, 1)):
        data = np.full((size, size, 4), (60 * level, 0, 255 - 60 * level, 255), np.uint8)
        ctx.glTexImage2D(ctx.GL_TEXTURE_2D, level, ctx.GL_RGBA8, size, size, 0, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE, data)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MIN_FILTER, ctx.GL_NEAREST_MIPMAP_NEAREST)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    assert (ctx.read_pixels() == [120, 0, 135, 255]).all()


@pytest.mark.parametrize("internal, fmt, typ, value, dtype", [
    ("GL_RGBA16F", "GL_RGBA", "GL_FLOAT", (0.5, -2.0, 100.0, 1.0), np.float32),
    ("GL_R32F", "GL_RED", "GL_FLOAT", (3.25, 0, 0, 1), np.float32),
    ("GL_RGBA32UI", "GL_RGBA_INTEGER", "GL_UNSIGNED_INT", (7, 70000, 3, 1), np.uint32),
])
def test_float_and_integer_render_targets(internal, fmt, typ, value, dtype):
    ctx = context(8, 8)
    integer = "UI" in internal
    out_t = "uvec4" if integer else "vec4"
    fs = f"""#version 300 es
    precision highp float; precision highp int; uniform {out_t} c; out {out_t} color; void main(){{ color = c; }}"""
    p = program(ctx, """#version 300 es
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }""", fs)
    vertices(ctx, p, QUAD, {"pos": (2, 0)}, 2)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, getattr(ctx, internal), 8, 8, 0, getattr(ctx, fmt), getattr(ctx, typ), None)
    _nearest(ctx, ctx.GL_TEXTURE_2D)
    ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, 0)
    assert ctx.glCheckFramebufferStatus(ctx.GL_FRAMEBUFFER) == ctx.GL_FRAMEBUFFER_COMPLETE
    loc = ctx.glGetUniformLocation(p, "c")
    (ctx.glUniform4ui if integer else ctx.glUniform4f)(loc, *value)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    comps = 1 if fmt == "GL_RED" else 4
    read_fmt = ctx.GL_RGBA_INTEGER if integer else ctx.GL_RGBA
    raw = ctx.glReadPixels(0, 0, 8, 8, read_fmt, ctx.GL_UNSIGNED_INT if integer else ctx.GL_FLOAT)
    px = np.frombuffer(bytes(raw), dtype).reshape(8, 8, 4)
    assert np.allclose(px[..., :comps], np.array(value, dtype)[:comps]), px[0, 0]


def test_uniform_arrays_structs_and_blocks():
    ctx = context(8, 8)
    fs = """#version 300 es
    precision highp float;
    struct S { float a; vec3 b; };
    uniform S s; uniform float w[3];
    layout(std140) uniform Block { vec4 tint; float gain; };
    out vec4 color;
    void main(){ color = vec4(s.b * s.a, w[0] + w[1] + w[2]) * tint * gain; }"""
    p = program(ctx, """#version 300 es
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }""", fs)
    vertices(ctx, p, QUAD, {"pos": (2, 0)}, 2)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "s.a"), 0.5)
    ctx.glUniform3f(ctx.glGetUniformLocation(p, "s.b"), 1.0, 0.5, 0.25)
    ctx.glUniform1fv(ctx.glGetUniformLocation(p, "w"), 3, [0.1, 0.2, 0.3])
    block = np.zeros(8, np.float32)
    block[:4] = (1.0, 1.0, 2.0, 1.0)
    block[4] = 1.0
    ubo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_UNIFORM_BUFFER, ubo)
    ctx.glBufferData(ctx.GL_UNIFORM_BUFFER, block.nbytes, block, ctx.GL_STATIC_DRAW)
    ctx.glUniformBlockBinding(p, ctx.glGetUniformBlockIndex(p, "Block"), 3)
    ctx.glBindBufferBase(ctx.GL_UNIFORM_BUFFER, 3, ubo)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    img = ctx.read_pixels().astype(int)
    expect = np.array([0.5, 0.25, 0.25, 0.6]) * 255
    assert np.abs(img - expect).max() <= 1, img[0, 0]


def test_depth_readback_desktop():
    ctx = context(8, 8, api="gl33")
    p = program(ctx, """#version 330
    in vec3 pos; void main(){ gl_Position = vec4(pos, 1.0); }""", """#version 330
    out vec4 color; void main(){ color = vec4(1.0); }""")
    vertices(ctx, p, np.array([[-1, -1, 0.5], [3, -1, 0.5], [-1, 3, 0.5]], np.float32), {"pos": (3, 0)}, 3)
    ctx.glEnable(ctx.GL_DEPTH_TEST)
    ctx.glClear(ctx.GL_DEPTH_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    raw = ctx.glReadPixels(0, 0, 8, 8, ctx.GL_DEPTH_COMPONENT, ctx.GL_FLOAT)
    z = np.frombuffer(bytes(raw), np.float32)
    assert np.allclose(z, 0.75, atol=1e-6)


def test_compat_quads_with_legacy_arrays():
    ctx = context(16, 16, api="compat")
    program(ctx, """#version 120
    void main(){ gl_Position = gl_Vertex; gl_FrontColor = gl_Color; }""", """#version 120
    void main(){ gl_FragColor = gl_Color; }""")
    quad = np.array([[-1, -1], [0, -1], [0, 0], [-1, 0], [0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    cols = np.repeat(np.array([[1, 0, 0, 1], [0, 0, 1, 1]], np.float32), 4, 0)
    ctx.glEnableClientState(ctx.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, ctx.GL_FLOAT, 0, quad)
    ctx.glEnableClientState(ctx.GL_COLOR_ARRAY)
    ctx.glColorPointer(4, ctx.GL_FLOAT, 0, cols)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_QUADS, 0, 8)
    img = ctx.read_pixels()
    assert (img[:8, :8] == [255, 0, 0, 255]).all() and (img[8:, 8:] == [0, 0, 255, 255]).all()
    assert (img[:8, 8:] == 0).all() and (img[8:, :8] == 0).all()


def test_normalized_and_integer_attributes():
    ctx = context(8, 8)
    vs = """#version 300 es
    in vec2 pos; in vec4 col; in ivec2 k; out vec4 v;
    void main(){ gl_Position = vec4(pos, 0.0, 1.0); v = col * float(k.x + k.y) / 10.0; }"""
    p = program(ctx, vs, """#version 300 es
    precision highp float; in vec4 v; out vec4 color; void main(){ color = v; }""")
    vao = vertices(ctx, p, np.array([[-1, -1], [3, -1], [-1, 3]], np.float32), {"pos": (2, 0)}, 2)
    cols = np.array([[255, 128, 0, 255]] * 3, np.uint8)
    ks = np.array([[3, 7]] * 3, np.int16)
    for name, data, n, typ in (("col", cols, 4, ctx.GL_UNSIGNED_BYTE), ("k", ks, 2, ctx.GL_SHORT)):
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(ctx.GL_ARRAY_BUFFER, data.nbytes, data, ctx.GL_STATIC_DRAW)
        loc = ctx.glGetAttribLocation(p, name)
        if name == "k":
            ctx.glVertexAttribIPointer(loc, n, typ, 0, 0)
        else:
            ctx.glVertexAttribPointer(loc, n, typ, True, 0, 0)
        ctx.glEnableVertexAttribArray(loc)
    assert vao
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    assert (np.abs(ctx.read_pixels().astype(int) - [255, 128, 0, 255]).max(axis=-1) <= 1).all()


def test_shadow_sampler_compares_depth():
    ctx = context(8, 8)
    p = program(ctx, VS_UV, """#version 300 es
    precision highp float; precision highp sampler2DShadow; uniform sampler2DShadow t; in vec2 uv; out vec4 color;
    void main(){ color = vec4(texture(t, vec3(uv, 0.5))); }""")
    vertices(ctx, p, QUAD, {"pos": (2, 0)}, 2)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    depth = np.tile(np.array([0.25, 0.75], np.float32), (2, 1))     # left column 0.25, right 0.75
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_DEPTH_COMPONENT32F, 2, 2, 0, ctx.GL_DEPTH_COMPONENT, ctx.GL_FLOAT,
                     depth)
    _nearest(ctx, ctx.GL_TEXTURE_2D)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_COMPARE_MODE, ctx.GL_COMPARE_REF_TO_TEXTURE)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_COMPARE_FUNC, ctx.GL_LEQUAL)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    img = ctx.read_pixels()[..., 0]
    assert (img[:, :4] == 0).all() and (img[:, 4:] == 255).all()     # 0.5 <= 0.25 fails, <= 0.75 passes


def test_clip_distance_and_point_size():
    ctx = context(16, 16, api="gl33")
    p = program(ctx, """#version 330
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); gl_ClipDistance[0] = pos.x; gl_PointSize = 4.0; }""",
                """#version 330
    out vec4 color; void main(){ color = vec4(1.0); }""")
    vertices(ctx, p, np.array([[-1, -1], [3, -1], [-1, 3], [-0.5, -0.5]], np.float32), {"pos": (2, 0)}, 2)
    ctx.glEnable(ctx.GL_CLIP_DISTANCE0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = ctx.read_pixels()[..., 0]
    assert (img[:, 8:] == 255).all() and (img[:, :8] == 0).all()      # x < 0 clipped away
    ctx.glDisable(ctx.GL_CLIP_DISTANCE0)
    ctx.glEnable(ctx.GL_PROGRAM_POINT_SIZE)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_POINTS, 3, 1)
    img = ctx.read_pixels()[..., 0]
    assert (img[2:6, 2:6] == 255).all() and img.sum() == 16 * 255     # a 4x4 point at pixel (4, 4)


def test_atomic_counters_in_compute():
    ctx = context(4, 4, api="gles31")
    from tests.driver.agx.glhelp import compute_program
    compute_program(ctx, """#version 310 es
    layout(local_size_x = 32) in;
    layout(binding = 0, offset = 4) uniform atomic_uint hits;
    void main(){ if (gl_GlobalInvocationID.x % 3u == 0u) atomicCounterIncrement(hits); }""")
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_ATOMIC_COUNTER_BUFFER, buf)
    ctx.glBufferData(ctx.GL_ATOMIC_COUNTER_BUFFER, 8, np.array([7, 100], np.uint32), ctx.GL_DYNAMIC_COPY)
    ctx.glBindBufferBase(ctx.GL_ATOMIC_COUNTER_BUFFER, 0, buf)
    ctx.glDispatchCompute(4, 1, 1)
    view = ctx.glMapBufferRange(ctx.GL_ATOMIC_COUNTER_BUFFER, 0, 8, ctx.GL_MAP_READ_BIT)
    out = np.frombuffer(bytes(view), np.uint32)
    assert list(out) == [7, 100 + len(range(0, 128, 3))]


def test_compat_flat_shading_and_alpha_test():
    ctx = context(16, 16, api="compat")
    program(ctx, """#version 120
    void main(){ gl_Position = gl_Vertex; gl_FrontColor = gl_Color; }""", """#version 120
    void main(){ gl_FragColor = gl_Color; }""")
    tri = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)
    cols = np.array([[1, 0, 0, 0.2], [0, 1, 0, 0.2], [0, 0, 1, 0.9]], np.float32)   # last vertex provokes
    ctx.glEnableClientState(ctx.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, ctx.GL_FLOAT, 0, tri)
    ctx.glEnableClientState(ctx.GL_COLOR_ARRAY)
    ctx.glColorPointer(4, ctx.GL_FLOAT, 0, cols)
    ctx.glShadeModel(ctx.GL_FLAT)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = ctx.read_pixels()
    assert (img == [0, 0, 255, 230]).all()
    ctx.glShadeModel(ctx.GL_SMOOTH)
    ctx.glEnable(ctx.GL_ALPHA_TEST)
    ctx.glAlphaFunc(ctx.GL_GREATER, 0.5)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = ctx.read_pixels().astype(int)
    X, Y = np.meshgrid((np.arange(16) + 0.5) / 8 - 1, (np.arange(16) + 0.5) / 8 - 1)
    alpha = 0.2 + 0.7 * (Y + 1) / 4                      # interpolated alpha: 0.2 at y=-1 .. 0.9 at y=3
    assert (img[alpha < 0.48] == 0).all() and (img[alpha > 0.52][:, 3] > 127).all()


def test_point_coord():
    ctx = context(8, 8, api="gl33")
    p = program(ctx, """#version 330
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); gl_PointSize = 4.0; }""", """#version 330
    out vec4 color; void main(){ color = vec4(gl_PointCoord, 0.0, 1.0); }""")
    vertices(ctx, p, np.array([[0, 0]], np.float32), {"pos": (2, 0)}, 2)
    ctx.glEnable(ctx.GL_PROGRAM_POINT_SIZE)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_POINTS, 0, 1)
    img = ctx.read_pixels().astype(int)
    centres = (np.arange(4) + 0.5) / 4
    assert np.abs(img[2:6, 2:6, 0] - np.round(centres * 255)[None, :]).max() <= 1       # s grows rightwards
    assert np.abs(img[2:6, 2:6, 1] - np.round(centres[::-1] * 255)[:, None]).max() <= 1  # t from the top
    assert (img[:2] == 0).all() and (img[6:] == 0).all()


def test_a_shader_the_backend_cannot_compile_is_a_gl_error_not_a_silent_skip(monkeypatch, capsys):
    """Nothing is drawn, the program sees GL_INVALID_OPERATION at each such draw, and
    stderr gets one line naming the failure the first time."""
    from compiler.backend import BackendError
    ctx = context(8, 8)

    def refuse(state, key):
        raise BackendError("an operation this test pretends is unsupported")
    monkeypatch.setattr(ctx.screen, "compile_fn", refuse)        # for the shader CSOs made at link
    p = program(ctx, """#version 300 es
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }""", """#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(1.0); }""")
    vertices(ctx, p, np.array([[-1, -1], [3, -1], [-1, 3]], np.float32), {"pos": (2, 0)}, 2)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    for _ in range(2):
        ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
        assert ctx.glGetError() == ctx.GL_INVALID_OPERATION
    assert ctx.pipe.stats["skipped"] == 2 and (ctx.read_pixels() == 0).all()
    lines = [ln for ln in capsys.readouterr().err.splitlines() if "pretends" in ln]
    assert len(lines) == 1 and "draw skipped: a shader variant failed to compile" in lines[0]
    assert ctx.gl.internal_errors == []           # reported as such, not through the guard


def test_a_failed_shader_variant_is_a_khr_debug_message(monkeypatch):
    import driver
    from compiler.backend import BackendError
    messages = []
    with driver.Context("gl43", 8, 8) as ctx:
        g = ctx.gl
        g.glEnable(ctx.GL_DEBUG_OUTPUT)
        g.glDebugMessageCallback(lambda *m: messages.append(m), None)
        monkeypatch.setattr(ctx.screen, "compile_fn",
                            lambda state, key: (_ for _ in ()).throw(BackendError("no variant")))
        prog = g.glCreateProgram()
        for kind, src in ((ctx.GL_VERTEX_SHADER, "#version 330 core\nvoid main() "
                           "{ gl_Position = vec4(0.0); }\n"),
                          (ctx.GL_FRAGMENT_SHADER, "#version 330 core\nout vec4 o;\n"
                           "void main() { o = vec4(1.0); }\n")):
            sh = g.glCreateShader(kind)
            g.glShaderSource(sh, 1, [src])
            g.glCompileShader(sh)
            g.glAttachShader(prog, sh)
        g.glLinkProgram(prog)
        g.glUseProgram(prog)
        g.glBindVertexArray(g.glGenVertexArrays(1)[0])
        g.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
        assert g.glGetError() == ctx.GL_INVALID_OPERATION
    # the compiler's message, then the GL error itself as an API message (GL 4.6 section 20.2)
    compiler_msgs = [m for m in messages if m[0] == ctx.GL_DEBUG_SOURCE_SHADER_COMPILER]
    source, type_, _id, severity, _length, text, _user = compiler_msgs[-1]
    assert (source, type_, severity) == (ctx.GL_DEBUG_SOURCE_SHADER_COMPILER,
                                         ctx.GL_DEBUG_TYPE_ERROR, ctx.GL_DEBUG_SEVERITY_HIGH)
    assert "no variant" in text
    assert messages[-1][:2] == (ctx.GL_DEBUG_SOURCE_API, ctx.GL_DEBUG_TYPE_ERROR)


def test_etc2_compressed_texture_matches_layout_decoder():
    import layout
    ctx = context(8, 8)
    p = program(ctx, VS_UV, FS_TEXTURE)
    vertices(ctx, p, QUAD, {"pos": (2, 0)}, 2)
    blocks = np.random.default_rng(4).integers(0, 256, (2, 2, 8), np.uint8)      # 8x8 texels of ETC2 RGB8
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glCompressedTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_COMPRESSED_RGB8_ETC2, 8, 8, 0, blocks.nbytes, blocks)
    _nearest(ctx, ctx.GL_TEXTURE_2D)
    assert ctx.glGetError() == 0
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 6)
    img = ctx.read_pixels().astype(int)
    want = layout.decompress_image("ETC2_RGB8", blocks, 8, 8)
    want = np.round(np.asarray(want, np.float64).reshape(8, 8, 4) * (255 if np.asarray(want).max() <= 1 else 1))
    assert np.abs(img[..., :3] - want[..., :3]).max() <= 1
