"""Separable programs' interfaces (ARB_separate_shader_objects, GL 4.6 section 7.4.1
"Shader Interface Matching"): the gl_PerVertex redeclaration rule of GLSL 1.50+
separable programs, and located blocks and structures matched by location."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

VS_POS = """#version 150
void main() { gl_Position = vec4(0.0, 1.0, 2.0, 3.0); }
"""
VS_POS_REDECLARED = """#version 150
out gl_PerVertex { vec4 gl_Position; };
void main() { gl_Position = vec4(0.0, 1.0, 2.0, 3.0); }
"""
GS_READS_POS = """#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
out vec4 g_color;
void main() { g_color = gl_in[0].gl_Position; EmitVertex(); }
"""
GS_READS_POS_REDECLARED = """#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
in gl_PerVertex { vec4 gl_Position; } gl_in[];
out vec4 g_color;
void main() { g_color = gl_in[0].gl_Position; EmitVertex(); }
"""
GS_NO_BUILTINS = """#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
out vec4 g_color;
void main() { g_color = vec4(1.0); EmitVertex(); }
"""
FS_G = """#version 150
in vec4 g_color;
out vec4 color;
void main() { color = g_color; }
"""


def _link(ctx, stages, separable=True):
    prog = ctx.glCreateProgram()
    if separable:
        ctx.glProgramParameteri(prog, E.GL_PROGRAM_SEPARABLE, 1)
    for kind, src in stages:
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    return ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)


@pytest.fixture
def ctx():
    with driver.Context(api="gl43", width=8, height=8) as c:
        yield c


@pytest.mark.parametrize("vs, gs, separable, links, culprit", [
    (VS_POS, GS_NO_BUILTINS, True, False, "vertex"),                 # the producer uses gl_Position
    (VS_POS_REDECLARED, GS_READS_POS, True, False, "geometry"),      # the consumer reads gl_in
    (VS_POS_REDECLARED, GS_READS_POS_REDECLARED, True, True, None),
    (VS_POS, GS_READS_POS, False, True, None),                       # not separable: no rule
    ("#version 150\nvoid main() {}\n", GS_NO_BUILTINS, True, True, None),   # nothing used
])
def test_separable_program_must_redeclare_per_vertex(ctx, vs, gs, separable, links, culprit):
    ok, log = _link(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, FS_G)],
                    separable)
    assert ok == links, log
    if not links:
        assert log.startswith("error: ") and "gl_PerVertex" in log and f"the {culprit} shader" in log, log


def test_per_vertex_rule_covers_tessellation_and_spares_older_glsl(ctx):
    tcs = """#version 150
#extension GL_ARB_tessellation_shader: require
layout(vertices = 3) out;
void main() {
  gl_out[gl_InvocationID].gl_PointSize = 1.0;
  gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
  gl_TessLevelInner = float[2](1.0, 1.0);
}
"""
    tes = """#version 150
#extension GL_ARB_tessellation_shader: require
layout(triangles) in;
out vec4 g_color;
void main() { g_color = vec4(1.0); }
"""
    ok, log = _link(ctx, [(E.GL_VERTEX_SHADER, "#version 150\nvoid main() {}\n"), (E.GL_TESS_CONTROL_SHADER, tcs),
                          (E.GL_TESS_EVALUATION_SHADER, tes), (E.GL_FRAGMENT_SHADER, FS_G)])
    assert not ok and "the tessellation control shader" in log and "`out gl_PerVertex'" in log, log
    # GLSL 1.40 has no interface blocks: nothing to redeclare (ARB_separate_shader_objects issue 28)
    vs140 = "#version 140\nvoid main() { gl_PointSize = 256.0; }\n"
    fs140 = "#version 140\nout vec4 color;\nvoid main() { color = vec4(gl_PointCoord, 0.0, 1.0); }\n"
    assert _link(ctx, [(E.GL_VERTEX_SHADER, vs140), (E.GL_FRAGMENT_SHADER, fs140)])[0]
    # a program of one stage has no interface inside it to check
    p = ctx.glCreateShaderProgramv(E.GL_VERTEX_SHADER, 1, [VS_POS])
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)


LOC_VS = """#version 150
#extension GL_ARB_separate_shader_objects: require
in vec4 pos;
layout(location = 0) out block { vec4 a; } name;
layout(location = 1) out block2 { vec4 a; } name2;
layout(location = 2) out struct S { vec4 a; } s;
layout(location = 3) out struct S2 { vec4 a; } s2;
layout(location = 4) out members { vec4 m0; vec2 m1[2]; vec4 m2; };
void main() {
    name.a = vec4(0.0, 0.0, 1.0, 1.0);
    name2.a = vec4(0.5, 0.0, 0.0, 1.0);
    s.a = vec4(0.0, 0.0, 0.0, 1.0);
    s2.a = vec4(0.0, 0.25, 0.0, 1.0);
    m0 = vec4(0.0);
    m1[0] = vec2(0.0);
    m1[1] = vec2(0.0);
    m2 = vec4(0.0, 0.0, 0.75, 0.0);
    gl_Position = pos;
}
"""
# The fragment side swaps the locations of the blocks and of the structures (whose type
# names differ: structures match by members): the values go by location.
LOC_FS = """#version 150
#extension GL_ARB_separate_shader_objects: require
layout(location = 1) in block { vec4 a; } name;
layout(location = 0) in block2 { vec4 a; } name2;
layout(location = 3) in struct T { vec4 a; } s;
layout(location = 2) in struct T2 { vec4 a; } s2;
layout(location = 4) in members { vec4 m0; vec2 m1[2]; vec4 m2; };
out vec4 color;
void main() { color = name.a + s.a + vec4(0.0, 0.0, m2.z, 0.0); }
"""


def _draw_fullscreen(ctx):
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    tri = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], np.float32)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
    ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 16, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    return ctx.read_pixels().astype(int)


def test_located_blocks_structs_and_members_match_by_location(ctx):
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, LOC_VS), (E.GL_FRAGMENT_SHADER, LOC_FS)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "pos")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    img = _draw_fullscreen(ctx)
    # name.a: location 1 = name2.a (0.5, 0, 0, 1); s.a: location 3 = s2.a (0, 0.25, 0, 1);
    # m2: location 4 + 1 + 2 = 7 (the members count on from the block's location): 0.75
    want = np.array([0.5, 0.25, 0.75, 2.0]).clip(0, 1) * 255
    assert np.all(np.abs(img[4, 4] - want) <= 1), img[4, 4]


def test_a_block_is_checked_against_the_output_block_of_its_name(ctx):
    """Located blocks: the values go by location, the type check by block name: an
    input block whose name no output block has fails to link (when used)."""
    fs = LOC_FS.replace("in block2 { vec4 a; } name2;", "in block3 { vec4 a; } name2;").replace(
        "color = name.a", "color = name2.a + name.a")
    ok, log = _link(ctx, [(E.GL_VERTEX_SHADER, LOC_VS), (E.GL_FRAGMENT_SHADER, fs)], separable=False)
    assert not ok and "name2" in log, log
    fs = LOC_FS.replace("in block { vec4 a; } name;", "in block { vec3 a; } name;").replace(
        "color = name.a", "color = vec4(name.a, 1.0)")
    ok, log = _link(ctx, [(E.GL_VERTEX_SHADER, LOC_VS), (E.GL_FRAGMENT_SHADER, fs)], separable=False)
    assert not ok and "`name'" in log, log


def _many_outputs_vs(n: int) -> str:
    return ("#version 150\nin vec4 pos;\n" + "".join(f"out vec4 v{i};\n" for i in range(n)) +
            "out gl_PerVertex { vec4 gl_Position; };\nvoid main() {\n    gl_Position = pos;\n" +
            "".join(f"    v{i} = vec4({i}.0 / 64.0);\n" for i in range(n)) + "}\n")


@pytest.mark.parametrize("separable", [True, False])
def test_outputs_the_fragment_stage_does_not_read_take_no_slots(ctx, separable):
    """63 vec4 outputs (252 components, beyond GL_MAX_VERTEX_OUTPUT_COMPONENTS = 128) of
    which the fragment stage of the same program reads one: the link keeps that one only
    and the draw works (piglit rendezvous_by_name's third case)."""
    assert ctx.glGetIntegerv(E.GL_MAX_VERTEX_OUTPUT_COMPONENTS) == [128]
    fs = "#version 150\nin vec4 v40;\nout vec4 o;\nvoid main() { o = v40; }\n"
    prog = ctx.glCreateProgram()
    if separable:
        ctx.glProgramParameteri(prog, E.GL_PROGRAM_SEPARABLE, 1)
    for kind, src in ((E.GL_VERTEX_SHADER, _many_outputs_vs(63)), (E.GL_FRAGMENT_SHADER, fs)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "pos")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    img = _draw_fullscreen(ctx)
    assert np.all(np.abs(img[4, 4] - 40 / 64 * 255) <= 1), img[4, 4]


def _separable_link(ctx, kind, src):
    p = ctx.glCreateShaderProgramv(kind, 1, [src])
    return ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p), p


def test_interface_component_limits_are_link_errors(ctx):
    """GL 4.6 section 11.1.2.1: the outputs a program keeps (a separable vertex program
    alone keeps all: another program may read them) and a stage's inputs count against
    the stage's component limits at link time, never at a draw."""
    ok, log, _p = _separable_link(ctx, E.GL_VERTEX_SHADER, _many_outputs_vs(32))      # 128 components
    assert ok, log
    ok, log, _p = _separable_link(ctx, E.GL_VERTEX_SHADER, _many_outputs_vs(33))      # 132
    assert not ok and "GL_MAX_VERTEX_OUTPUT_COMPONENTS" in log and "132" in log, log
    fs = ("#version 150\n" + "".join(f"in vec4 i{k};\n" for k in range(33)) + "out vec4 o;\nvoid main() { o = " +
          " + ".join(f"i{k}" for k in range(33)) + "; }\n")
    ok, log, _p = _separable_link(ctx, E.GL_FRAGMENT_SHADER, fs)
    assert not ok and "GL_MAX_FRAGMENT_INPUT_COMPONENTS" in log and "(132 >" in log, log
    # geometry inputs count per vertex: 17 vec4 = 68 > GL_MAX_GEOMETRY_INPUT_COMPONENTS (64)
    assert ctx.glGetIntegerv(E.GL_MAX_GEOMETRY_INPUT_COMPONENTS) == [64]
    gs = ("#version 150\nlayout(triangles) in;\nlayout(points, max_vertices = 1) out;\n" +
          "".join(f"in vec4 g{k}[];\n" for k in range(17)) + "out vec4 o;\nvoid main() { o = " +
          " + ".join(f"g{k}[0]" for k in range(17)) + "; EmitVertex(); }\n")
    ok, log, _p = _separable_link(ctx, E.GL_GEOMETRY_SHADER, gs)
    assert not ok and "GL_MAX_GEOMETRY_INPUT_COMPONENTS" in log and "(68 >" in log, log
    ok, log, _p = _separable_link(ctx, E.GL_GEOMETRY_SHADER, gs.replace("+ g16[0]", "").replace("in vec4 g16[];\n", ""))
    assert ok, log


def test_default_uniform_block_limit_is_a_link_error(ctx):
    """Active default-block uniforms beyond GL_MAX_FRAGMENT_UNIFORM_COMPONENTS fail the
    link; at the limit the program links and draws (the last element read back)."""
    limit = ctx.glGetIntegerv(E.GL_MAX_FRAGMENT_UNIFORM_COMPONENTS)[0]
    n = limit // 4
    fs = (f"#version 150\nuniform vec4 big[{n}];\nuniform int i;\nout vec4 o;\n"
          "void main() { o = big[i]; }\n")
    ok, log, _p = _separable_link(ctx, E.GL_FRAGMENT_SHADER, fs)                # 4 n + 1 components
    assert not ok and "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS" in log and f"({limit + 1} >" in log, log
    # declared but unused uniforms are not active: they do not count
    ok, log, _p = _separable_link(ctx, E.GL_FRAGMENT_SHADER, fs.replace("big[i]", "vec4(i)"))
    assert ok, log
    at_limit = fs.replace(f"big[{n}]", f"big[{n - 1}]").replace("uniform int i;", "uniform ivec4 iv;").replace(
        "big[i]", "big[iv.x + iv.y + iv.z + iv.w]")                            # 4 (n - 1) + 4
    vs = "#version 150\nin vec4 pos;\nvoid main() { gl_Position = pos; }\n"
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, at_limit)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "pos")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, f"big[{n - 2}]"), 0.25, 0.5, 0.75, 1.0)
    ctx.glUniform4i(ctx.glGetUniformLocation(prog, "iv"), n - 2, 0, 0, 0)
    img = _draw_fullscreen(ctx)
    assert np.all(np.abs(img[4, 4] - np.array([0.25, 0.5, 0.75, 1.0]) * 255) <= 1), img[4, 4]


RANK_VS = """#version 150
in vec4 pos;
out vec4 col0;
out vec4 col1;
out vec4 col2;
out gl_PerVertex { vec4 gl_Position; };
void main() {
    gl_Position = pos;
    col0 = vec4(1.0, 0.0, 0.0, 1.0);
    col1 = vec4(0.0, 1.0, 0.0, 1.0);
    col2 = vec4(0.0, 0.0, 1.0, 1.0);
}
"""
RANK_GS = """#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex { vec4 gl_Position; } gl_in[];
in vec4 INPUTS;
out gl_PerVertex { vec4 gl_Position; };
out vec4 color;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        color = READ;
        EmitVertex();
    }
}
"""
RANK_FS = "#version 150\nin vec4 color;\nout vec4 o;\nvoid main() { o = color; }\n"


@pytest.mark.parametrize("inputs, read, want", [
    # no input matches by name: the second input by name order reads the second output (col1)
    (("color0[]", "color1[]"), "color1[i]", (0, 1, 0)),
    # a name match wins; the other input pairs by rank: [col2, color1] -> color1 reads col1
    (("col2[]", "color1[]"), "col2[i] + color1[i]", (0, 1, 1)),
])
def test_separable_inputs_matching_no_output_read_the_output_of_their_rank(ctx, inputs, read, want):
    """GL 4.6 section 7.4.1 leaves them undefined; Mesa gives the plain varyings of a
    program's boundary slots in name order (piglit execution/vs-gs-linking)."""
    gs = RANK_GS.replace("in vec4 INPUTS;", "".join(f"in vec4 {n};\n" for n in inputs)).replace("READ", read)
    pipe = ctx.glGenProgramPipelines(1)[0]
    for kind, src, bit in ((E.GL_VERTEX_SHADER, RANK_VS, E.GL_VERTEX_SHADER_BIT),
                           (E.GL_GEOMETRY_SHADER, gs, E.GL_GEOMETRY_SHADER_BIT),
                           (E.GL_FRAGMENT_SHADER, RANK_FS, E.GL_FRAGMENT_SHADER_BIT)):
        ok, log, prog = _separable_link(ctx, kind, src)
        assert ok, log
        ctx.glUseProgramStages(pipe, bit, prog)
    ctx.glBindProgramPipeline(pipe)
    img = _draw_fullscreen(ctx)
    assert np.all(np.abs(img[4, 4, :3] - np.array(want) * 255) <= 1), img[4, 4]


@pytest.mark.parametrize("api, listed", [("gl43", True), ("compat", True), ("gl33", False)])
def test_the_extension_is_listed_where_its_entry_points_are(api, listed):
    """GL_ARB_separate_shader_objects is advertised in GL 4.1+ contexts (its entry points
    are GL 4.1's), and its #extension compiles there, with its macro."""
    with driver.Context(api=api, width=8, height=8) as c:
        names = [c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]
        assert ("GL_ARB_separate_shader_objects" in names) == listed
        if api == "compat":
            assert ("GL_ARB_separate_shader_objects" in c.glGetString(E.GL_EXTENSIONS).split()) == listed
        src = ("#version 150\n#extension GL_ARB_separate_shader_objects : require\n"
               "#if GL_ARB_separate_shader_objects != 1\n#error macro\n#endif\n"
               "layout(location = 1) out vec4 v;\nvoid main() { v = vec4(1.0); gl_Position = v; }\n")
        sh = c.glCreateShader(E.GL_VERTEX_SHADER)
        c.glShaderSource(sh, 1, [src])
        c.glCompileShader(sh)
        assert (c.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1]) == listed, c.glGetShaderInfoLog(sh)
        if listed:
            (pipe,) = c.glGenProgramPipelines(1)
            expect(c, E.GL_NO_ERROR)
            p = c.glCreateShaderProgramv(E.GL_VERTEX_SHADER, 1, [src])
            assert c.glGetProgramiv(p, E.GL_PROGRAM_SEPARABLE) == [1]
            c.glUseProgramStages(pipe, E.GL_VERTEX_SHADER_BIT, p)
            assert c.glGetProgramPipelineiv(pipe, E.GL_VERTEX_SHADER) == [p]
        else:
            c.glGenProgramPipelines(1)
            expect(c, E.GL_INVALID_OPERATION)


def _control(n_patch_vec4: int, vertices: int, n_vertex_vec4: int, patch_float: bool = False) -> str:
    return ("#version 150\n#extension GL_ARB_tessellation_shader : require\n"
            f"layout(vertices = {vertices}) out;\n" +
            "".join(f"patch out vec4 p{i};\n" for i in range(n_patch_vec4)) +
            ("patch out float pf;\n" if patch_float else "") +
            "".join(f"out vec4 v{i}[];\n" for i in range(n_vertex_vec4)) + "void main() {\n" +
            "".join(f"    p{i} = vec4({i});\n" for i in range(n_patch_vec4)) + ("    pf = 1.0;\n" if patch_float else "") +
            "".join(f"    v{i}[gl_InvocationID] = vec4({i});\n" for i in range(n_vertex_vec4)) +
            "    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);\n"
            "    gl_TessLevelInner = float[2](1.0, 1.0);\n}\n")


def test_tessellation_control_patch_and_total_output_limits(ctx):
    """GL 4.6 section 11.2.1.2: patch outputs beyond GL_MAX_TESS_PATCH_COMPONENTS (120) and
    all outputs of the output vertices beyond GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS
    (4096) fail the link, the limit named."""
    assert ctx.glGetIntegerv(E.GL_MAX_TESS_PATCH_COMPONENTS) == [120]
    assert ctx.glGetIntegerv(E.GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS) == [4096]
    assert _separable_link(ctx, E.GL_TESS_CONTROL_SHADER, _control(30, 3, 0))[0]
    ok, log, _p = _separable_link(ctx, E.GL_TESS_CONTROL_SHADER, _control(30, 3, 0, patch_float=True))
    assert not ok and "GL_MAX_TESS_PATCH_COMPONENTS" in log and "(121 >" in log, log
    assert _separable_link(ctx, E.GL_TESS_CONTROL_SHADER, _control(0, 32, 32))[0]           # 32 x 128 = 4096
    ok, log, _p = _separable_link(ctx, E.GL_TESS_CONTROL_SHADER, _control(0, 32, 32, patch_float=True))
    assert not ok and "GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS" in log and "4097" in log, log
