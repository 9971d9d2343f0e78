"""GLSL 4.50 section 4.4.1 (and ARB_separate_shader_objects for GLSL 1.50): the members
of an input or output block with a location take consecutive locations from it; a
member's own location restarts the count."""

from compiler.glsl import parse

SRC = """#version 150
#extension GL_ARB_separate_shader_objects: require
#extension GL_ARB_arrays_of_arrays: require
#extension GL_ARB_enhanced_layouts: require
struct T { vec4 p; mat2 q; };
layout(location = 1) out first { vec4 a[2][2]; vec3 b; T t; vec4 c; };
layout(location = 20) out second { vec4 d; layout(location = 30) vec4 e; vec4 f; } named;
out third { layout(location = 40) vec4 g; layout(location = 41) vec4 h; };
out vec4 plain;
void main() { a[0][0] = b.xxxx; c = t.p; g = h; plain = named.d; }
"""


def _member_locations(unit):
    return {f.name: f.qualifiers["layout"].get("location") for b in unit.interface_blocks for f in b.type.fields}


def test_block_members_count_on_from_the_block_location():
    unit = parse(SRC, "vertex", shader_object=True)
    # a: 4 locations (1-4), b: 5, t: vec4 + mat2 (2 columns) = 3 (6-8), c: 9
    assert _member_locations(unit) == {"a": 1, "b": 5, "t": 6, "c": 9, "d": 20, "e": 30, "f": 31,
                                       "g": 40, "h": 41}
    # the members of an unnamed block are globals of their own, at those locations
    layouts = {g.name: (g.layout or {}).get("location") for g in unit.globals if g.storage == "out"}
    assert layouts["b"] == 5 and layouts["c"] == 9 and layouts["h"] == 41 and layouts["plain"] is None
    # a named block keeps the block's location for the whole instance
    assert layouts["named"] == 20
