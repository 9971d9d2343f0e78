"""GL_PROGRAM_INPUT and GL_PROGRAM_OUTPUT of separable programs whose first stage is
not the vertex stage or whose last is not the fragment stage (GL 4.6 section 7.3.1:
the first stage's active inputs and the last stage's active outputs, built-ins
included; section 7.3.1.1's names). The expected lists are written by hand from the
shaders (and agree with Mesa's llvmpipe): a per-vertex array keeps its array
(``v[0]``, ARRAY_SIZE its length), gl_in[]/gl_out[] members are
``gl_PerVertex.<member>``, a named block's members ``Block.member``, used built-in
inputs such as gl_InvocationID are listed, LOCATION is -1 without a layout location."""

from __future__ import annotations

import driver
from driver.gl import enums as E

VEC4, INT, FLOAT = E.GL_FLOAT_VEC4, E.GL_INT, E.GL_FLOAT

GS = """#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v[];
in VB { float b[2]; } vb[];
out vec4 w;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position + v[i] + float(gl_PrimitiveIDIn) + vb[i].b[1];
        w = v[i];
        gl_PrimitiveID = 3;
        EmitVertex();
    }
}
"""
TCS = """#version 400
layout(vertices = 3) out;
out gl_PerVertex { vec4 gl_Position; } gl_out[];
out vec4 to_tes[3];
in gl_PerVertex { vec4 gl_Position; } gl_in[gl_MaxPatchVertices];
in vec4 from_vs[];
patch out vec4 per_patch;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[0].gl_Position;
    to_tes[gl_InvocationID] = from_vs[0];
    per_patch = vec4(1.0);
    gl_TessLevelOuter[0] = 1.0;
}
"""
TES = """#version 410
layout(triangles) in;
in gl_PerVertex { vec4 gl_Position; } gl_in[gl_MaxPatchVertices];
out gl_PerVertex { vec4 gl_Position; };
layout(location = 2) in vec4 to_tes[];
out vec4 to_fs;
void main() {
    gl_Position = gl_in[0].gl_Position + to_tes[1] * gl_TessCoord.x;
    to_fs = to_tes[0];
}
"""
FS = """#version 150
in vec4 to_fs;
out vec4 colour;
void main() { colour = to_fs + gl_FragCoord; }
"""


def _separable(ctx, stages):
    p = ctx.glCreateProgram()
    for kind, src in stages:
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(p, s)
    ctx.glProgramParameteri(p, E.GL_PROGRAM_SEPARABLE, E.GL_TRUE)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    return p


def _listed(ctx, p, interface, referenced_by):
    """name -> (type, array size, location, per patch, referenced by the stage) of every
    resource, with the index and location queries by name checked on the way."""
    n = ctx.glGetProgramInterfaceiv(p, interface, E.GL_ACTIVE_RESOURCES)[0]
    out = {}
    for i in range(n):
        name = ctx.glGetProgramResourceName(p, interface, i, 64)
        props = ctx.glGetProgramResourceiv(p, interface, i, 5, [E.GL_TYPE, E.GL_ARRAY_SIZE, E.GL_LOCATION,
                                                                E.GL_IS_PER_PATCH, referenced_by], 5)
        out[name] = tuple(props)
        assert ctx.glGetProgramResourceIndex(p, interface, name) == i
        if name.endswith("[0]"):
            assert ctx.glGetProgramResourceIndex(p, interface, name[:-3]) == i
        assert ctx.glGetProgramResourceLocation(p, interface, name) == props[2]
    longest = max((len(k) + 1 for k in out), default=0)
    assert ctx.glGetProgramInterfaceiv(p, interface, E.GL_MAX_NAME_LENGTH)[0] == longest
    assert ctx.glGetError() == E.GL_NO_ERROR
    return out


def test_geometry_stage_alone():
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        p = _separable(ctx, [(E.GL_GEOMETRY_SHADER, GS)])
        assert _listed(ctx, p, E.GL_PROGRAM_INPUT, E.GL_REFERENCED_BY_GEOMETRY_SHADER) == {
            "v[0]": (VEC4, 3, -1, 0, 1), "VB.b[0]": (FLOAT, 2, -1, 0, 1),
            "gl_PerVertex.gl_Position": (VEC4, 1, -1, 0, 1), "gl_PrimitiveIDIn": (INT, 1, -1, 0, 1)}
        assert _listed(ctx, p, E.GL_PROGRAM_OUTPUT, E.GL_REFERENCED_BY_GEOMETRY_SHADER) == {
            "w": (VEC4, 1, -1, 0, 1), "gl_Position": (VEC4, 1, -1, 0, 1), "gl_PrimitiveID": (INT, 1, -1, 0, 1)}
        # GL_LOCATION_INDEX of an output of another stage than the fragment stage: -1
        assert ctx.glGetProgramResourceiv(p, E.GL_PROGRAM_OUTPUT, 0, 1, [E.GL_LOCATION_INDEX], 1) == [-1]
        assert ctx.glGetError() == E.GL_NO_ERROR


def test_tessellation_control_stage_alone():
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        p = _separable(ctx, [(E.GL_TESS_CONTROL_SHADER, TCS)])
        ref = E.GL_REFERENCED_BY_TESS_CONTROL_SHADER
        assert _listed(ctx, p, E.GL_PROGRAM_INPUT, ref) == {
            "from_vs[0]": (VEC4, 32, -1, 0, 1), "gl_InvocationID": (INT, 1, -1, 0, 1),
            "gl_PerVertex.gl_Position": (VEC4, 1, -1, 0, 1)}
        assert _listed(ctx, p, E.GL_PROGRAM_OUTPUT, ref) == {
            "to_tes[0]": (VEC4, 3, -1, 0, 1), "per_patch": (VEC4, 1, -1, 1, 1),
            "gl_PerVertex.gl_Position": (VEC4, 1, -1, 0, 1), "gl_TessLevelOuter[0]": (FLOAT, 4, -1, 1, 1)}


def test_tessellation_stages_then_fragment_and_evaluation_alone():
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        p = _separable(ctx, [(E.GL_TESS_CONTROL_SHADER, TCS), (E.GL_TESS_EVALUATION_SHADER, TES),
                             (E.GL_FRAGMENT_SHADER, FS)])
        # first stage: the control stage's inputs; last: the fragment outputs, as before
        assert set(_listed(ctx, p, E.GL_PROGRAM_INPUT, E.GL_REFERENCED_BY_TESS_CONTROL_SHADER)) == {
            "from_vs[0]", "gl_InvocationID", "gl_PerVertex.gl_Position"}
        assert _listed(ctx, p, E.GL_PROGRAM_OUTPUT, E.GL_REFERENCED_BY_FRAGMENT_SHADER) == {
            "colour": (VEC4, 1, 0, 0, 1)}
        p = _separable(ctx, [(E.GL_TESS_EVALUATION_SHADER, TES)])
        ref = E.GL_REFERENCED_BY_TESS_EVALUATION_SHADER
        assert _listed(ctx, p, E.GL_PROGRAM_INPUT, ref) == {
            "to_tes[0]": (VEC4, 32, 2, 0, 1), "gl_PerVertex.gl_Position": (VEC4, 1, -1, 0, 1),
            "gl_TessCoord": (E.GL_FLOAT_VEC3, 1, -1, 0, 1)}
        assert _listed(ctx, p, E.GL_PROGRAM_OUTPUT, ref) == {
            "to_fs": (VEC4, 1, -1, 0, 1), "gl_Position": (VEC4, 1, -1, 0, 1)}


def test_fragment_stage_alone_lists_its_inputs():
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        p = _separable(ctx, [(E.GL_FRAGMENT_SHADER, FS)])
        assert _listed(ctx, p, E.GL_PROGRAM_INPUT, E.GL_REFERENCED_BY_FRAGMENT_SHADER) == {
            "to_fs": (VEC4, 1, -1, 0, 1), "gl_FragCoord": (VEC4, 1, -1, 0, 1)}
        assert set(_listed(ctx, p, E.GL_PROGRAM_OUTPUT, E.GL_REFERENCED_BY_FRAGMENT_SHADER)) == {"colour"}


def test_vertex_inputs_and_fragment_outputs_list_the_built_ins_used():
    """Beside the attributes and the user outputs: the system values the vertex stage
    reads (gl_VertexID) and the built-in outputs the fragment stage
    writes (gl_FragColor, gl_FragDepth), LOCATION -1, as Mesa lists them."""
    vs = """#version 130
in vec4 a;
void main() { gl_Position = gl_Vertex + a + float(gl_VertexID); gl_FrontColor = gl_Color; }
"""
    fs = """#version 130
void main() { gl_FragColor = gl_Color + gl_FragCoord; gl_FragDepth = 0.5; }
"""
    with driver.Context(api="compat", width=8, height=8) as ctx:
        p = _separable(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)])
        inputs = _listed(ctx, p, E.GL_PROGRAM_INPUT, E.GL_REFERENCED_BY_VERTEX_SHADER)
        assert set(inputs) == {"a", "gl_Vertex", "gl_Color", "gl_VertexID"}
        assert inputs["gl_VertexID"] == (INT, 1, -1, 0, 1)
        assert _listed(ctx, p, E.GL_PROGRAM_OUTPUT, E.GL_REFERENCED_BY_FRAGMENT_SHADER) == {
            "gl_FragColor": (VEC4, 1, -1, 0, 1), "gl_FragDepth": (FLOAT, 1, -1, 0, 1)}


def test_a_value_that_is_no_property_is_an_invalid_enum():
    """GL 4.6 section 7.3.1: a property of table 7.2 the interface lacks is
    INVALID_OPERATION; a value that is no property at all (GL_TRUE) INVALID_ENUM."""
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        p = _separable(ctx, [(E.GL_FRAGMENT_SHADER, FS)])
        ctx.glGetProgramResourceiv(p, E.GL_PROGRAM_INPUT, 0, 1, [E.GL_TRUE], 1)
        assert ctx.glGetError() == E.GL_INVALID_ENUM
        ctx.glGetProgramResourceiv(p, E.GL_PROGRAM_INPUT, 0, 1, [E.GL_BUFFER_BINDING], 1)
        assert ctx.glGetError() == E.GL_INVALID_OPERATION


def test_a_blocks_active_variables_index_the_uniform_list():
    """GL 4.6 section 7.3.1.1: GL_ACTIVE_VARIABLES of a uniform block are the indices
    of its members in the GL_UNIFORM list, where default-block uniforms sit too (the
    members' names read back through those indices)."""
    fs = """#version 150
uniform float alpha;
uniform First { vec4 f1; float f2; };
uniform vec4 zeta;
uniform Second { vec4 s1; };
out vec4 colour;
void main() { colour = f1 * f2 + s1 + zeta * alpha; }
"""
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        p = _separable(ctx, [(E.GL_FRAGMENT_SHADER, fs)])
        for block, want in (("First", {"f1", "f2"}), ("Second", {"s1"})):
            bi = ctx.glGetProgramResourceIndex(p, E.GL_UNIFORM_BLOCK, block)
            n = ctx.glGetProgramResourceiv(p, E.GL_UNIFORM_BLOCK, bi, 1, [E.GL_NUM_ACTIVE_VARIABLES], 1)[0]
            idx = ctx.glGetProgramResourceiv(p, E.GL_UNIFORM_BLOCK, bi, 1, [E.GL_ACTIVE_VARIABLES], n)
            assert {ctx.glGetProgramResourceName(p, E.GL_UNIFORM, i, 64) for i in idx} == want
            for i in idx:
                assert ctx.glGetProgramResourceiv(p, E.GL_UNIFORM, i, 1, [E.GL_BLOCK_INDEX], 1) == [bi]
        assert ctx.glGetError() == E.GL_NO_ERROR
