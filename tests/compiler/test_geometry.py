"""The geometry stage in the compiler: the language rules (compiler/glsl/geometry.py)
and the kernel's interface (compiler/lower/geometry.py). Images: tests/driver/gl/test_geometry.py."""

from __future__ import annotations

import pytest

from compiler.glsl import GLSLCompileError, parse
from compiler.lower.geometry import (
    GeometryKey, geometry_interface, max_output_primitives, primitive_count, vertex_record_layout,
)

HEAD = "#version 150\n"


def _errors(src):
    with pytest.raises(GLSLCompileError) as e:
        parse(HEAD + src, "geometry")
    return e.value.info_log


def test_layouts_size_the_inputs():
    tu = parse(HEAD + "layout(triangles_adjacency) in;\nlayout(line_strip, max_vertices = 7) out;\n"
               "in vec4 a[];\nin float b[6];\nvoid main() { int n = gl_in.length() + a.length(); }\n", "geometry")
    g = tu.geometry
    assert (g.input, g.output, g.max_vertices, g.invocations, g.input_vertices) == \
        ("triangles_adjacency", "line_strip", 7, 1, 6)
    types = {v.name: v.type.name for v in tu.globals}
    assert types == {"a": "vec4[6]", "b": "float[6]"}


def test_inputs_declared_before_the_layout_are_sized_by_it():
    tu = parse(HEAD + "in vec2 a[];\nlayout(lines) in;\nlayout(points, max_vertices = 1) out;\n"
               "void main() {}\n", "geometry")
    assert tu.globals[0].type.name == "vec2[2]"


@pytest.mark.parametrize("src,needle", [
    ("layout(points) in;\nlayout(points, max_vertices = 257) out;\nvoid main() {}\n",
     "max_vertices (257) exceeds gl_MaxGeometryOutputVertices (256)"),
    ("layout(triangles) in;\nin vec4 c[2];\nvoid main() {}\n", "size of array `c' declared as 2"),
    ("layout(triangles) in;\nin vec4 c;\nvoid main() {}\n", "must be declared as an array"),
    ("layout(triangles) in;\nlayout(lines) in;\nvoid main() {}\n", "conflicts with an earlier declaration"),
    ("layout(line_strip) in;\nvoid main() {}\n", "not allowed on geometry shader inputs"),
    ("layout(triangles) out;\nvoid main() {}\n", "not allowed on geometry shader outputs"),
    ("layout(points, lines) in;\nvoid main() {}\n", "more than one input primitive"),
    ("layout(points, invocations = 2) in;\nvoid main() {}\n", "requires GLSL 4.00"),
    ("in vec4 c[];\nvoid main() { vec4 x = c[3]; }\nlayout(triangles) in;\n", "indexed with 3"),
])
def test_compile_errors(src, needle):
    assert needle in _errors(src)


def test_geometry_only_language():
    with pytest.raises(GLSLCompileError) as e:
        parse(HEAD + "void main() { EmitVertex(); }\n", "vertex")
    assert "EmitVertex" in e.value.info_log
    with pytest.raises(GLSLCompileError) as e:
        parse(HEAD + "layout(triangles) in;\nvoid main() {}\n", "fragment")
    assert "only be used in geometry shaders" in e.value.info_log
    with pytest.raises(GLSLCompileError):
        parse("#version 140\nlayout(triangles) in;\nvoid main() {}\n", "geometry")   # GLSL 1.50+
    tu = parse("#version 400\nlayout(points, invocations = 4) in;\nlayout(points, max_vertices = 1) out;\n"
               "void main() { gl_Position = vec4(gl_InvocationID); EmitVertex(); EndPrimitive(); }\n", "geometry")
    assert tu.geometry.invocations == 4


def test_primitive_counts_follow_the_topologies():
    # GL 4.6 section 10.1: n vertices make these many primitives
    want = {"points": 7, "lines": 3, "line_strip": 6, "line_loop": 7, "triangles": 2, "triangle_strip": 5,
            "triangle_fan": 5, "lines_adjacency": 1, "line_strip_adjacency": 4, "triangles_adjacency": 1,
            "triangle_strip_adjacency": 1}
    assert {t: primitive_count(t, 7) for t in want} == want
    assert primitive_count("line_loop", 1) == 0 and primitive_count("triangle_strip_adjacency", 8) == 2
    assert max_output_primitives("triangle_strip", 4) == 2 and max_output_primitives("points", 4) == 4


def test_output_records_and_vertex_records():
    tu = parse(HEAD + "layout(points) in;\nlayout(points, max_vertices = 2) out;\n"
               "out vec3 a;\nflat out ivec2 b[2];\nnoperspective out float c;\nout mat2 m;\n"
               "void main() { gl_PointSize = 2.0; EmitVertex(); }\n", "geometry")
    it = geometry_interface(tu)
    rows = [(o.name, o.offset_dw, o.components, o.locations, o.base, o.interp) for o in it.outputs]
    assert rows == [("gl_Position", 0, 4, 1, "float", "noperspective"), ("a", 4, 3, 1, "float", "smooth"),
                    ("b", 8, 2, 2, "int", "flat"), ("c", 16, 1, 1, "float", "noperspective"),
                    ("m", 20, 2, 2, "float", "smooth"), ("gl_PointSize", 28, 1, 1, "float", "smooth")]
    assert it.stride_dw == 32 and it.vertices_per_primitive == 1 and it.max_primitives == 2
    layout, stride = vertex_record_layout([("gl_Position", 1), ("v", 3)])
    assert layout == (("gl_Position", 0, 1), ("v", 4, 3)) and stride == 16
    with pytest.raises(AssertionError):
        GeometryKey("quads", 0, layout, stride)


def test_shimgl_compile_takes_geom_files(tmp_path, capsys):
    from compiler.compile_cli import main
    src = tmp_path / "quad.geom"
    src.write_text(HEAD + "layout(points) in;\nlayout(triangle_strip, max_vertices = 4) out;\nin vec4 c[];\n"
                   "out vec4 g;\nvoid main() { for (int k = 0; k < 4; k++) { g = c[0];\n"
                   "gl_Position = gl_in[0].gl_Position + vec4(k & 1, k >> 1, 0, 0); EmitVertex(); } }\n")
    assert main([str(src), "--stats", "--asm"]) == 0
    out = capsys.readouterr().out
    assert "get_sr" in out and "thread_position_in_grid" in out      # a compute kernel
    assert "device_store" in out                                      # EmitVertex's records
    assert (tmp_path / "quad.bin").stat().st_size > 0


def test_gl_in_redeclaration_and_input_blocks():
    tu = parse(HEAD + "layout(triangles) in;\nlayout(points, max_vertices = 1) out;\n"
               "in gl_PerVertex { vec4 gl_Position; } gl_in[];\nin Data { vec4 c; } data[];\n"
               "void main() { gl_Position = gl_in[2].gl_Position + data[1].c; EmitVertex(); }\n", "geometry")
    assert {v.name: v.type.name for v in tu.globals}["data"].endswith("[3]")
    assert "not a member" in _errors("layout(triangles) in;\nin gl_PerVertex { vec3 gl_Position; } gl_in[];\n"
                                     "void main() {}\n")
    assert "gl_in[]" in _errors("layout(triangles) in;\nin Other { vec4 gl_Position; } gl_in[];\nvoid main() {}\n")


def test_primitive_counts_agree_with_the_topology_table():
    from uapi.topology import TOPOLOGIES, decompose
    for name in ("points", "lines", "line_strip", "line_loop", "triangles", "triangle_strip", "triangle_fan",
                 "lines_adjacency", "line_strip_adjacency", "triangles_adjacency", "triangle_strip_adjacency"):
        for n in range(0, 14):
            assert primitive_count(name, n) == len(decompose(name, [0], [n])[0]), (name, n)
    assert TOPOLOGIES["triangle_strip_adjacency"].min_vertices == 6


def test_gl_in_clip_distance_sizes_and_invariant_inputs():
    parse(HEAD + "layout(triangles) in;\nin gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[3]; } gl_in[];\n"
          "invariant in vec4 c[];\nvoid main() {}\n", "geometry")
    assert "not a member" in _errors("layout(triangles) in;\n"
                                     "in gl_PerVertex { float gl_ClipDistance[9]; } gl_in[];\nvoid main() {}\n")
