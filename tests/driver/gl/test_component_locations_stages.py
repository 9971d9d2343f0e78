"""ARB_enhanced_layouts component qualifiers across the geometry and tessellation
stages: two variables share a location in different components, and each input reads
the output of its location *and* component (GL 4.6 section 7.4.1), through the vertex
records (vertex -> geometry / control) and the patch record (control -> evaluation)."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E

HEAD = ("#version 150\n#extension GL_ARB_enhanced_layouts : require\n"
        "#extension GL_ARB_separate_shader_objects : require\n")
TESS = "#extension GL_ARB_tessellation_shader : require\n"
VS = HEAD + """in vec4 pos;
layout(location = 0) out vec2 xy;
layout(location = 0, component = 2) out float z;
layout(location = 0, component = 3) out float w;
void main() { gl_Position = pos; xy = vec2(0.125, 0.25); z = 0.5; w = 0.75; }
"""
GS = HEAD + """layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0, component = 3) in float w_in[3];     // declared first: matched by component
layout(location = 0) in vec2 xy_in[3];
layout(location = 0, component = 2) in float z_in[3];
layout(location = 1) out vec3 rgb;
layout(location = 1, component = 3) out float a;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        rgb = vec3(w_in[i], xy_in[i].y, z_in[i]);     // (0.75, 0.25, 0.5)
        a = xy_in[i].x;                                // 0.125
        EmitVertex();
    }
}
"""
FS = HEAD + """layout(location = 1, component = 3) in float a;
layout(location = 1) in vec3 rgb;
out vec4 color;
void main() { color = vec4(rgb, a); }
"""
TCS = HEAD + TESS + """layout(vertices = 3) out;
layout(location = 0) in vec2 xy[];
layout(location = 0, component = 3) in float w[];
layout(location = 0, component = 2) in float z[];
layout(location = 2) out vec3 v_rgb[];
layout(location = 2, component = 3) out float v_a[];
layout(location = 3) patch out vec2 p_xy;
layout(location = 3, component = 2) patch out vec2 p_zw;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    v_rgb[gl_InvocationID] = vec3(z[gl_InvocationID], w[gl_InvocationID], xy[gl_InvocationID].x);  // (0.5, 0.75, 0.125)
    v_a[gl_InvocationID] = xy[gl_InvocationID].y;                                                   // 0.25
    p_xy = vec2(0.0625, 0.375);
    p_zw = vec2(0.625, 0.875);
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
}
"""
TES = HEAD + TESS + """layout(triangles) in;
layout(location = 3, component = 2) patch in vec2 q_zw;
layout(location = 2, component = 3) in float t_a[];
layout(location = 3) patch in vec2 q_xy;
layout(location = 2) in vec3 t_rgb[];
layout(location = 1) out vec3 rgb;
layout(location = 1, component = 3) out float a;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
    rgb = t_rgb[0] * vec3(1.0, 1.0, 0.0) + vec3(0.0, 0.0, q_zw.y);     // (0.5, 0.75, 0.875)
    a = t_a[0] + q_xy.x;                                                // 0.3125
}
"""


def _draw(stages, patches=False):
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        prog = ctx.glCreateProgram()
        for kind, src in stages:
            sh = ctx.glCreateShader(kind)
            ctx.glShaderSource(sh, 1, [src])
            ctx.glCompileShader(sh)
            assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(sh)
            ctx.glAttachShader(prog, sh)
        ctx.glBindAttribLocation(prog, 0, "pos")
        ctx.glLinkProgram(prog)
        assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
        ctx.glUseProgram(prog)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        tri = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], np.float32)
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
        ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri.tobytes(), E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 16, 0)
        ctx.glEnableVertexAttribArray(0)
        if patches:
            ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
        ctx.glDrawArrays(E.GL_PATCHES if patches else E.GL_TRIANGLES, 0, 3)
        assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
        return ctx.read_pixels()[4, 4].astype(int)


@pytest.mark.parametrize("case", ["geometry", "tessellation"])
def test_inputs_read_the_output_of_their_location_and_component(case):
    if case == "geometry":
        got = _draw([(E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, GS), (E.GL_FRAGMENT_SHADER, FS)])
        want = np.array([0.75, 0.25, 0.5, 0.125])
    else:
        got = _draw([(E.GL_VERTEX_SHADER, VS), (E.GL_TESS_CONTROL_SHADER, TCS),
                     (E.GL_TESS_EVALUATION_SHADER, TES), (E.GL_FRAGMENT_SHADER, FS)], patches=True)
        want = np.array([0.5, 0.75, 0.875, 0.3125])
    assert np.all(np.abs(got - want * 255) <= 1), got
