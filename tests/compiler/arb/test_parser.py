"""The ARB assembly parser: accepted programs, the rules it checks and the byte
offsets of its errors (GL_PROGRAM_ERROR_POSITION_ARB)."""

import pytest

from compiler.arb import ARBProgramError, Limits, ParamBinding, parse_program

VP_MVP = """!!ARBvp1.0
ATTRIB pos = vertex.position;
PARAM mvp[4] = { state.matrix.mvp };
TEMP t;
DP4 t.x, mvp[0], pos;
DP4 t.y, mvp[1], pos;
DP4 t.z, mvp[2], pos;
DP4 t.w, mvp[3], pos;
MOV result.position, t;
MOV result.color, vertex.color;
END
"""


def error_of(text, **kw) -> ARBProgramError:
    with pytest.raises(ARBProgramError) as e:
        parse_program(text, **kw)
    return e.value


def test_vertex_program_structure():
    p = parse_program(VP_MVP)
    assert p.target == "vertex"
    assert [i.opcode for i in p.instructions] == ["DP4"] * 4 + ["MOV", "MOV"]
    assert p.inputs == {"vertex.position", "vertex.color.primary"}
    assert p.outputs == {"result.position", "result.color.front.primary"}
    assert [e.state for e in p.params["mvp"].elements] == [("matrix", "mvp", 0, "", r) for r in range(4)]
    assert p.instructions[0].dst.mask == 0b0001 and p.instructions[3].dst.mask == 0b1000
    assert p.temps == ["t"]


def test_fragment_program_tex_sat_and_constants():
    p = parse_program("""!!ARBfp1.0
OPTION ARB_precision_hint_fastest;
TEMP c;
TEX c, fragment.texcoord[1], texture[2], 2D;
MAD_SAT result.color.rgb, c, {0.5, 2, -1}, 0.25;
MOV result.color.a, -c.g;
END""")
    tex, mad, mov = p.instructions
    assert (tex.opcode, tex.unit, tex.target) == ("TEX", 2, "2D")
    assert mad.sat and mad.dst.mask == 0b0111
    consts = [p.params[s.name].elements[0].value for s in mad.srcs[1:]]
    assert consts == [(0.5, 2.0, -1.0, 1.0), (0.25, 0.25, 0.25, 0.25)]
    assert mov.srcs[0].negate and mov.srcs[0].swizzle == (1, 1, 1, 1)
    assert p.textures == {2: "2D"} and "ARB_precision_hint_fastest" in p.options


def test_text_after_end_is_ignored_and_comments():
    parse_program("!!ARBfp1.0 # comment\r\nMOV result.color, fragment.color; END garbage ~~ !!")


def test_param_forms_and_ranges():
    p = parse_program("""!!ARBvp1.0
PARAM a = 2.0;
PARAM b[] = { program.env[1..3], state.matrix.texture[1].inverse.row[2], {1, 2} };
PARAM c[2] = { program.local[7], state.light[3].spot.direction };
MOV result.position, b[A];
END""".replace("b[A]", "b[4]"))
    assert p.params["a"].elements[0].value == (2.0,) * 4
    assert [e.index for e in p.params["b"].elements[:3]] == [1, 2, 3]
    assert p.params["b"].elements[3].state == ("matrix", "texture", 1, "inverse", 2)
    assert p.params["b"].elements[4].value == (1.0, 2.0, 0.0, 1.0)
    assert p.params["c"].elements == [ParamBinding("local", index=7),
                                      ParamBinding("state", state=("light", 3, "spot.direction"))]


def test_relative_addressing():
    p = parse_program("""!!ARBvp1.0
ADDRESS A0;
PARAM arr[8] = { program.env[0..7] };
ARL A0.x, vertex.attrib[1].x;
MOV result.position, arr[A0.x + 109];
MOV result.color, arr[A0.x - 64];
END""")
    assert p.instructions[1].srcs[0].relative == ("A0", 109)
    assert p.instructions[2].srcs[0].relative == ("A0", -64)


def test_swz_extended():
    p = parse_program("!!ARBvp1.0 SWZ result.color, vertex.color, -1, x, +0, -w; END")
    assert p.instructions[0].srcs[0].extended == (("1", True), (0, False), ("0", False), (3, True))


@pytest.mark.parametrize("text, token, why", [
    ("!!ARBvp1.0 TEMP a; RCP a, a; END", "; END", "scalar"),
    ("!!ARBvp1.0 TEMP a; RCP a, a.xy; END", "xy", "swizzle"),
    ("!!ARBvp1.0 TEMP a; TEMP a; END", "a; END", "redeclaration"),
    ("!!ARBvp1.0 TEMP MOV; END", "MOV;", "reserved"),
    ("!!ARBvp1.0 MOV result.color, b; END", "b;", "undefined"),
    ("!!ARBvp1.0 MOV result.color, result.position; END", "result.position", "read"),
    ("!!ARBvp1.0 PARAM p = 1; MOV p, vertex.color; END", "p,", "written"),
    ("!!ARBvp1.0 TEMP t; MOV t, vertex.color; OPTION ARB_position_invariant; END", "OPTION", "OPTION"),
    ("!!ARBvp1.0 OPTION ARB_position_invariant; MOV result.position, vertex.position; END", "position,",
     "invariant"),
    ("!!ARBfp1.0 OPTION ARB_fog_exp; OPTION ARB_fog_linear; END", "ARB_fog_linear", "conflicts"),
    ("!!ARBfp1.0 OPTION NV_fragment_program; END", "NV_fragment_program", "unsupported"),
    ("!!ARBvp1.0 PARAM a[3] = { program.env[0..1] }; END", "a[", "initialised"),
    ("!!ARBvp1.0 PARAM a = state.matrix.mvp; END", "state", "array"),
    ("!!ARBvp1.0 PARAM a[2] = { 1, 2 }; MOV result.color, a[2]; END", "2];", "out of range"),
    ("!!ARBvp1.0 ADDRESS A; PARAM a[2] = { 1, 2 }; MOV result.color, a[A.x + 4096]; END", "4096", "offset"),
    ("!!ARBvp1.0 ADDRESS A; PARAM a[2] = { 1, 2 }; MOV result.color, a[A.x - 4097]; END", "4097", "offset"),
    ("!!ARBvp1.0 ADDRESS A; ARL A.y, vertex.color.x; END", "y,", "mask"),
    ("!!ARBvp1.0 MOV result.color, vertex.attrib[0]; MOV result.position, vertex.position; END", "END",
     "alias"),
    ("!!ARBfp1.0 TEX result.color, fragment.texcoord, texture[0], 2D;"
     " TEX result.color, fragment.texcoord, texture[0], 3D; END", "3D;", "targets"),
    ("!!ARBfp1.0 MOV result.color[1], fragment.color; END", "[1]", "ARB_draw_buffers"),
    ("!!ARBvp1.0 MOV_SAT result.color, vertex.color; END", "MOV_SAT", "unknown instruction"),
    ("!!ARBfp1.0 SWZ result.color, fragment.color, x, g, 0, 1; END", "g,", "mixes"),
    ("!!ARBvp1.0 MOV result.color, vertex.color;", "", "missing END"),
    ("!!ARBvp1.0 MOV result.color, program.local[100000]; END", "100000", "out of range"),
    ("!!ARBfp1.0 MOV result.color, fragment.color.xyba; END", "xyba", "swizzle"),
    ("!!ARBvp1.0 MOV result.color.xx, vertex.color; END", "xx", "mask"),
])
def test_errors_with_position(text, token, why):
    e = error_of(text)
    assert why in e.message, e.message
    where = text.index(token) if token else len(text)
    assert e.position == where, (e.position, where, e.message)
    assert e.error_string.startswith("line 1, char ")


def test_header_checked():
    assert error_of("!!ARBvp2.0\nEND").position == 0
    assert error_of("  !!ARBvp1.0\nEND").position == 0
    assert "must start with !!ARBfp1.0" in error_of("!!ARBvp1.0 END", target="fragment").message


def test_error_line_and_column():
    e = error_of("!!ARBvp1.0\nTEMP a;\n  MOV a, bogus;\nEND")
    assert (e.line, e.column) == (3, 10)


def test_reserved_words_depend_on_the_language():
    # vertex-only words are names in a fragment program and the other way round
    parse_program("!!ARBfp1.0 TEMP ARL, vertex, ADDRESS; MOV ARL, fragment.color; END")
    parse_program("!!ARBvp1.0 TEMP TEX, fragment, texture; MOV TEX, vertex.color; END")
    assert "reserved" in error_of("!!ARBfp1.0 TEMP texture; END").message


def test_limits():
    lim = Limits(instructions=2, temporaries=1, parameters=3, attribs=1, local_parameters=8)
    assert "instructions" in error_of("!!ARBvp1.0 TEMP a; MOV a, 1; MOV a, 1; MOV a, 1; END", limits=lim).message
    assert "temporaries" in error_of("!!ARBvp1.0 TEMP a, b; END", limits=lim).message
    assert "parameters" in error_of("!!ARBvp1.0 PARAM a[] = { program.env[0..3] }; END", limits=lim).message
    assert "array size" in error_of("!!ARBvp1.0 PARAM a[4] = { program.env[0..3] }; END", limits=lim).message
    assert "attributes" in error_of(
        "!!ARBvp1.0 TEMP a; MOV a, vertex.color; MOV a, vertex.normal; END", limits=lim).message
    lim = Limits(tex_instructions=1)
    assert "texture instructions" in error_of(
        "!!ARBfp1.0 TEMP a; TEX a, fragment.texcoord, texture, 2D; KIL a; END", limits=lim).message


def test_numbers():
    for n in ("1.0", ".1", "1.", "1E2", "1e+2", "1.1e-2", ".1E2"):
        parse_program(f"!!ARBvp1.0 MOV result.color, {n}; END")
    assert "undefined" in error_of("!!ARBvp1.0 MOV result.color, e2; END").message


def test_shadow_targets_need_the_option():
    text = "!!ARBfp1.0 {opt} TEX result.color, fragment.texcoord, texture[0], SHADOW2D; END"
    assert "invalid texture target" in error_of(text.format(opt="")).message
    p = parse_program(text.format(opt="OPTION ARB_fragment_program_shadow;"))
    assert p.textures == {0: "SHADOW2D"}
    assert "reserved" in error_of("!!ARBfp1.0 OPTION ARB_fragment_program_shadow; TEMP SHADOW2D; END").message
    parse_program("!!ARBfp1.0 TEMP SHADOW2D; END")          # a name without the option
