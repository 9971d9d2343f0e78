"""The compatibility profile's per-vertex block in the later stages (GLSL 1.50 / 4.00
compatibility, section 7.1): the tessellation stages' gl_in[] and the control stage's
gl_out[] carry gl_ClipVertex, the colours, gl_TexCoord[] and gl_FogFragCoord as the
geometry stage's gl_in[] does; a redeclared gl_PerVertex may size gl_TexCoord[]; a
compatibility geometry shader may declare its outputs `varying` (as Mesa). Colours by
hand."""

from __future__ import annotations

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

W = H = 4
QUAD = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)
TRIANGLES = np.array([-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1], np.float32)


def _image(ctx):
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return img.reshape(H, W, 4)


def _clear(ctx):
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)


def test_colours_through_the_tessellation_stages_per_vertex_blocks():
    """gl_out[i].gl_FrontColor and gl_TexCoord[1] written by the control stage from
    gl_in[i], read by the evaluation stage from its gl_in[] and passed on; the fragment
    stage reads gl_Color and gl_TexCoord[1]."""
    vs = """#version 150 compatibility
in vec2 pos;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    gl_FrontColor = vec4(0.0, 1.0, 0.0, 1.0);
    gl_TexCoord[1] = vec4(0.25, 0.5, 0.75, 1.0);
}
"""
    tcs = """#version 150 compatibility
#extension GL_ARB_tessellation_shader : require
layout(vertices = 3) out;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_out[gl_InvocationID].gl_FrontColor = gl_in[gl_InvocationID].gl_FrontColor;
    gl_out[gl_InvocationID].gl_TexCoord[1] = gl_in[gl_InvocationID].gl_TexCoord[1];
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
}
"""
    tes = """#version 150 compatibility
#extension GL_ARB_tessellation_shader : require
layout(triangles) in;
void main() {
    gl_Position = gl_in[0].gl_Position * gl_TessCoord.x + gl_in[1].gl_Position * gl_TessCoord.y
                + gl_in[2].gl_Position * gl_TessCoord.z;
    gl_FrontColor = gl_in[1].gl_FrontColor;
    gl_TexCoord[1] = gl_in[2].gl_TexCoord[1];
}
"""
    fs = """#version 150 compatibility
void main() {
    bool ok = gl_Color == vec4(0.0, 1.0, 0.0, 1.0) && gl_TexCoord[1] == vec4(0.25, 0.5, 0.75, 1.0);
    gl_FragColor = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}
"""
    ctx = glhelp.context(W, H, api="compat")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_TESS_CONTROL_SHADER: tcs,
                             E.GL_TESS_EVALUATION_SHADER: tes, E.GL_FRAGMENT_SHADER: fs})
    glhelp.vertices(ctx, prog, TRIANGLES, {"pos": (2, 0)}, 2)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    assert (_image(ctx) == [0, 255, 0, 255]).all()


def test_gl_per_vertex_redeclared_with_five_texture_coordinates():
    """The vertex stage's out gl_PerVertex and the geometry stage's gl_in[] redeclared
    with gl_TexCoord[5]; element 3 reaches the fragment stage."""
    vs = """#version 150 compatibility
in vec2 pos;
out gl_PerVertex { vec4 gl_Position; vec4 gl_TexCoord[5]; };
void main() {
    for (int i = 0; i < 5; i++) gl_TexCoord[i] = vec4(0.0, float(i) / 4.0, 0.0, 1.0);
    gl_Position = vec4(pos, 0.0, 1.0);
}
"""
    gs = """#version 150 compatibility
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex { vec4 gl_Position; vec4 gl_TexCoord[5]; } gl_in[];
out vec4 gl_TexCoord[5];
void main() {
    for (int k = 0; k < 3; k++) {
        gl_Position = gl_in[k].gl_Position;
        for (int j = 0; j < 5; j++) gl_TexCoord[j] = gl_in[k].gl_TexCoord[j];
        EmitVertex();
    }
}
"""
    fs = """#version 150 compatibility
in vec4 gl_TexCoord[5];
void main() { gl_FragColor = gl_TexCoord[3] + vec4(0.0, 0.25, 0.0, 0.0); }
"""
    ctx = glhelp.context(W, H, api="compat")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_GEOMETRY_SHADER: gs, E.GL_FRAGMENT_SHADER: fs})
    glhelp.vertices(ctx, prog, QUAD, {"pos": (2, 0)}, 2)
    _clear(ctx)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    assert (_image(ctx) == [0, 255, 0, 255]).all()


def test_a_compatibility_geometry_shader_declares_varying_outputs():
    """`varying float v;` in a GLSL 1.50 compatibility geometry shader is an output the
    fragment stage reads; a core geometry shader still refuses it."""
    vs = """#version 150 compatibility
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
    gs = """#version 150 {profile}
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
varying float v;
void main() {{
    for (int k = 0; k < 3; k++) {{ gl_Position = gl_in[k].gl_Position; v = 0.75; EmitVertex(); }}
}}
"""
    fs = """#version 150 compatibility
in float v;
void main() { gl_FragColor = vec4(0.0, v + 0.25, 0.0, 1.0); }
"""
    ctx = glhelp.context(W, H, api="compat")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_GEOMETRY_SHADER: gs.format(profile="compatibility"),
                             E.GL_FRAGMENT_SHADER: fs})
    glhelp.vertices(ctx, prog, QUAD, {"pos": (2, 0)}, 2)
    _clear(ctx)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    assert (_image(ctx) == [0, 255, 0, 255]).all()
    s = ctx.glCreateShader(E.GL_GEOMETRY_SHADER)
    ctx.glShaderSource(s, 1, [gs.format(profile="core")])
    ctx.glCompileShader(s)
    assert not ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0]
    assert "`varying' variables may not be declared in the geometry shader" in ctx.glGetShaderInfoLog(s)


def test_one_control_source_in_a_core_and_a_compatibility_context(monkeypatch, tmp_path):
    """The same '#version 400' control stage is a core shader in a GL 4.3 core context
    and a compatibility one in a compatibility context, whose gl_out[] is larger: the
    kernel compiled for one is not served for the other (the profile is in the compile
    key), so both draw their two patches (the second patch read an empty record)."""
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    vs = """#version 400
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
    tcs = """#version 400
layout(vertices = 3) out;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
}
"""
    tes = """#version 400
layout(triangles) in;
void main() {
    gl_Position = gl_in[0].gl_Position * gl_TessCoord.x + gl_in[1].gl_Position * gl_TessCoord.y
                + gl_in[2].gl_Position * gl_TessCoord.z;
}
"""
    fs = """#version 400
out vec4 c;
void main() { c = vec4(0.0, 1.0, 0.0, 1.0); }
"""
    for api in ("gl43", "compat", "gl43"):
        ctx = glhelp.context(W, H, api=api)
        prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_TESS_CONTROL_SHADER: tcs,
                                 E.GL_TESS_EVALUATION_SHADER: tes, E.GL_FRAGMENT_SHADER: fs})
        glhelp.vertices(ctx, prog, TRIANGLES, {"pos": (2, 0)}, 2)
        ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
        _clear(ctx)
        q = ctx.glGenQueries(1)[0]
        ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, q)
        ctx.glDrawArrays(E.GL_PATCHES, 0, 6)
        ctx.glEndQuery(E.GL_PRIMITIVES_GENERATED)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT)[0] == 2, api
        assert (_image(ctx) == [0, 255, 0, 255]).all(), api
