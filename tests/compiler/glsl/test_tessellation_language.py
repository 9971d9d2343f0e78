"""The tessellation stages' language rules (GLSL 4.00 sections 4.3.4-4.3.8, 7.1, 8.15):
layouts, the built-in variables, array sizing, ``patch``, barrier() placement and the
errors the specification names."""

import pytest

from compiler.glsl import GLSLCompileError, parse
from compiler.glsl.builtin_variables import LIMITS
from compiler.glsl.tessellation import TessLayout

TCS = """#version 400
layout(vertices = 3) out;
in vec4 color[];
out vec4 c[];
patch out vec4 pc;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    c[gl_InvocationID] = color[gl_InvocationID];
    barrier();
    if (gl_InvocationID == 0) {
        gl_TessLevelOuter[0] = 2.0;
        gl_TessLevelInner[0] = float(gl_PatchVerticesIn + gl_PrimitiveID);
        pc = c[2];
    }
}
"""
TES = """#version 150
#extension GL_ARB_tessellation_shader : require
layout(triangles, fractional_odd_spacing, cw) in;
layout(point_mode) in;
in vec4 c[];
patch in vec4 pc;
out vec4 col;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position;
    col = c[0] + pc + vec4(gl_TessLevelOuter[0], gl_TessLevelInner[1], float(gl_MaxTessGenLevel), 0);
}
"""


def _error(src: str, stage: str) -> str:
    with pytest.raises(GLSLCompileError) as e:
        parse(src, stage)
    return e.value.info_log


def test_control_stage_layout_sizes_outputs_and_inputs():
    u = parse(TCS, "tess_control")
    assert u.tessellation == TessLayout(vertices=3)
    types = {g.name: (g.type.name, g.patch) for g in u.globals}
    assert types == {"color": ("vec4[32]", False), "c": ("vec4[3]", False), "pc": ("vec4", True)}
    gl_out = next(v for v in u.builtin_variables if v.name == "gl_out")
    assert gl_out.type.length == 3


def test_evaluation_stage_layout_with_the_extension_in_150():
    u = parse(TES, "tess_evaluation")
    assert u.tessellation == TessLayout(None, "triangles", "fractional_odd_spacing", "cw", True)
    assert {g.name: g.type.name for g in u.globals}["c"] == f"vec4[{LIMITS['gl_MaxPatchVertices']}]"


def test_defaults_and_merge():
    lay = TessLayout(mode="quads").linked()
    assert (lay.spacing, lay.order, lay.point_mode) == ("equal_spacing", "ccw", False)
    assert TessLayout(vertices=4).merge(TessLayout(vertices=4)).vertices == 4
    with pytest.raises(ValueError):
        TessLayout(mode="quads").merge(TessLayout(mode="isolines"))


@pytest.mark.parametrize("src, stage, message", [
    ("#version 400\nlayout(vertices=3) out; void main(){ if (true) barrier(); }", "tess_control",
     "barrier() may only be used in main()"),
    ("#version 400\nlayout(vertices=3) out; void f(){ barrier(); } void main(){ f(); }", "tess_control",
     "barrier() may only be used in main()"),
    ("#version 400\nlayout(vertices=3) out; void main(){ return; barrier(); }", "tess_control",
     "barrier() may only be used in main()"),
    ("#version 400\nlayout(vertices=3) out; uniform bool c; void main(){ if (c) return; barrier(); }",
     "tess_control", "barrier() may only be used in main()"),
    ("#version 400\nlayout(vertices=3) out; void main(){ gl_out[0].gl_Position = vec4(0); }", "tess_control",
     "can only be indexed by gl_InvocationID"),
    ("#version 400\nlayout(vertices=3) out; out vec4 x[]; void main(){ int n = gl_InvocationID; x[n] = vec4(0); }",
     "tess_control", "can only be indexed by gl_InvocationID"),
    ("#version 400\nlayout(vertices=3) out; out B { vec4 a; } b[]; void main(){ b[1].a.x += 1.0; }", "tess_control",
     "can only be indexed by gl_InvocationID"),
    ("#version 400\nlayout(vertices=3) out; out gl_PerVertex { vec4 gl_Foo; } gl_out[]; void main(){ }",
     "tess_control", "not a member of the built-in block"),
    ("#version 400\nlayout(vertices=3) out; out vec4 x[4]; void main(){ }", "tess_control",
     "must match the output patch size (3)"),
    ("#version 400\nout vec4 x[4]; layout(vertices=3) out; void main(){ }", "tess_control",
     "must match the output patch size (3)"),
    ("#version 400\nlayout(vertices=3) out; out vec4 x; void main(){ }", "tess_control",
     "must be declared as an array"),
    ("#version 400\nin vec4 x; void main(){ }", "tess_control", "must be declared as an array"),
    ("#version 400\nlayout(vertices=0) out; void main(){ }", "tess_control", "invalid vertices count (0)"),
    ("#version 400\nlayout(vertices=33) out; void main(){ }", "tess_control", "invalid vertices count (33)"),
    ("#version 400\nlayout(vertices=3) out; layout(vertices=4) out; void main(){ }", "tess_control",
     "conflicts with an earlier declaration"),
    ("#version 400\nlayout(vertices=3) in; void main(){ }", "tess_control", "are not allowed"),
    ("#version 400\nlayout(quads) in; void main(){ }", "vertex", "only be used in tessellation evaluation"),
    ("#version 400\nlayout(vertices=3) out; void main(){ }", "geometry", "only be used in tessellation control"),
    ("#version 400\npatch out vec4 x; void main(){ }", "vertex", "`patch' can only be applied"),
    ("#version 400\npatch in vec4 x; void main(){ }", "tess_control", "`patch' can only be applied"),
    ("#version 400\npatch out vec4 x; void main(){ }", "tess_evaluation", "`patch' can only be applied"),
    ("#version 400\nlayout(quads, cw, ccw) in; void main(){ }", "tess_evaluation", "more than one"),
    ("#version 400\nlayout(quads, isolines) in; void main(){ }", "tess_evaluation", "more than one"),
    ("#version 400\nlayout(quads) in; layout(triangles) in; void main(){ }", "tess_evaluation",
     "conflicts with an earlier declaration"),
    ("#version 400\nlayout(quads) out; void main(){ }", "tess_evaluation", "are not allowed"),
    ("#version 400\nin vec4 x[3]; layout(quads) in; void main(){ }", "tess_evaluation",
     "must be sized to gl_MaxPatchVertices (32)"),
    ("#version 330\nlayout(quads) in; void main(){ }", "tess_evaluation",
     "tessellation shaders require GLSL 4.00"),
    ("#version 400\nvoid main(){ barrier(); }", "vertex", "no function with name 'barrier'"),
    ("#version 400\nlayout(quads) in; void main(){ gl_TessLevelOuter[0] = 1.0; }", "tess_evaluation",
     "gl_TessLevelOuter"),
    ("#version 400\nvoid main(){ vec3 t = gl_TessCoord; }", "tess_control", "gl_TessCoord"),
])
def test_errors(src, stage, message):
    assert message in _error(src, stage)


def test_patch_is_an_identifier_before_400_a_keyword_from_400_reserved_in_es_300():
    # as Mesa's lexer: the desktop reserved-word lists of 1.30-3.30 do not name `patch'
    parse("#version 120\nvoid main(){ int patch = 1; }", "vertex")
    parse("#version 330\nvoid main(){ int patch = 1; }", "vertex")
    assert "reserved word `patch'" in _error("#version 300 es\nvoid main(){ int patch = 1; }", "vertex")
    assert "error" in _error("#version 400\nvoid main(){ int patch = 1; }", "vertex")
    parse("#version 150\n#extension GL_ARB_tessellation_shader : enable\n"
          "layout(quads) in; patch in vec4 p; void main(){ gl_Position = p; }", "tess_evaluation")


def test_output_block_array_of_the_control_stage_is_sized():
    u = parse("#version 400\nlayout(vertices=4) out; out B { vec4 a; } b[];\n"
              "in B2 { vec4 a; } bi[];\nvoid main(){ b[gl_InvocationID].a = bi[0].a; }", "tess_control")
    types = {g.name: g.type.length for g in u.globals}
    assert types == {"b": 4, "bi": 32}


def test_per_vertex_outputs_written_through_gl_invocation_id_and_read_anywhere():
    parse("#version 400\nlayout(vertices=3) out; out vec4 x[]; patch out vec4 p;\n"
          "void main(){ x[gl_InvocationID] = vec4(1); x[gl_InvocationID].y += 1.0; barrier(); p = x[2]; "
          "gl_TessLevelOuter[1] = 2.0; }", "tess_control")


def test_gl_per_vertex_redeclarations():
    parse("#version 150\n#extension GL_ARB_tessellation_shader : require\n"
          "out gl_PerVertex { vec4 gl_Position; } gl_out[];\nin gl_PerVertex { vec4 gl_Position; } gl_in[];\n"
          "layout(vertices = 3) out;\nvoid main(){ gl_out[gl_InvocationID].gl_Position = gl_in[0].gl_Position; }",
          "tess_control")
    parse("#version 400\nlayout(quads) in;\nin gl_PerVertex { vec4 gl_Position; float gl_PointSize; } gl_in[];\n"
          "void main(){ gl_Position = gl_in[0].gl_Position; }", "tess_evaluation")


@pytest.mark.parametrize("ext, src", [
    (".tesc", "#version 400\nlayout(vertices = 3) out;\nin vec4 c[];\nout vec4 d[];\nvoid main() {\n"
              "  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n"
              "  d[gl_InvocationID] = c[gl_InvocationID];\n  gl_TessLevelOuter[0] = 2.0;\n}\n"),
    (".tese", "#version 400\nlayout(quads) in;\nin vec4 d[];\npatch in vec4 p;\nout vec4 o;\n"
              "void main() { gl_Position = gl_in[0].gl_Position * gl_TessCoord.x; o = d[1] + p; }\n"),
])
def test_shimgl_compile_builds_the_kernels(tmp_path, capsys, ext, src):
    """`shimgl compile x.tesc|x.tese --stats`: each stage as the compute kernel of a
    standalone key (a control kernel has one invocation per output vertex)."""
    import argparse
    from compiler.compile_cli import register
    f = tmp_path / f"x{ext}"
    f.write_text(src)
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["compile", "--stats", str(f), "-o", str(tmp_path / "x.bin")])
    assert args.func(args) in (0, None)
    out = capsys.readouterr().out
    assert ("tess_control shader:" if ext == ".tesc" else "tess_evaluation shader:") in out
    assert (tmp_path / "x.bin").stat().st_size > 0
