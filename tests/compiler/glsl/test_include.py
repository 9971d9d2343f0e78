"""ARB_shading_language_include in the front end: paths and tree locations (appendix A),
the lookup rules of `#include` (absolute, search paths, "..." from an included string),
`#include` run in place with the including string's macros, `#line <n> "<path>"`, the
positions of messages inside and after included strings, and the flat source that
compiles the same without the named strings. Expected values are worked by hand from
the extension's text."""

from __future__ import annotations

import pytest

from compiler.glsl import GLSLCompileError, expand_includes, parse
from compiler.glsl.errors import InfoLog
from compiler.glsl.include import IncludeError, Includes, parse_path, tree_location
from compiler.glsl.preprocessor import preprocess_full

EXT = "#extension GL_ARB_shading_language_include : enable\n"


def strings(**named):
    return {tree_location(k.replace("__", "/")): v for k, v in named.items()}


def inc(d: dict, *search: str) -> Includes:
    return Includes({tree_location(k): v for k, v in d.items()}, tuple(tree_location(s) for s in search))


@pytest.mark.parametrize("path", ["/path/to\tinclude", "/path$/to", '/path/"to"', "/path/<to>", "/path//to",
                                  "/path/to/", "", "/a/b\\c", "/a@b"])
def test_invalid_paths(path):
    assert parse_path(path) is None and tree_location(path) is None


def test_locations_walk_dot_and_dotdot_and_need_a_leading_slash():
    assert tree_location("/test path/./to/../test_include.shader") == ("test path", "test_include.shader")
    assert tree_location("/test path/to3/../test_include.shader") == ("test path", "test_include.shader")
    assert tree_location("/" + "/".join([".."] * 2) + "/a") == ("a",)     # '..' at the root stays there
    assert tree_location("/]^. _A-Za-z0-9+*%[(){}|&~=!:;,?-]+") == ("]^. _A-Za-z0-9+*%[(){}|&~=!:;,?-]+",)
    assert tree_location("relative/path") is None and parse_path("relative/path") == ["relative", "path"]


def test_absolute_lookup_errors_distinguish_missing_and_stringless_locations():
    t = inc({"/dummy/path_to/shader_include": "x"})
    assert t.resolve("/dummy/path_to/./shader_include", False, None) == ("dummy", "path_to", "shader_include")
    with pytest.raises(IncludeError, match="no string is associated with /dummy"):
        t.resolve("/dummy", True, None)
    with pytest.raises(IncludeError, match="not in the tree"):
        t.resolve("/dummy/other", False, None)


def test_search_points_in_order_and_the_first_existing_location_decides():
    t = inc({"/p/a/x": "1", "/p/b/x": "2", "/p/b/y/z": "3"}, "/p/c", "/p/a", "/p/b")
    assert t.resolve("x", True, None) == ("p", "a", "x")       # /p/c/x does not exist
    assert t.resolve("y/z", True, None) == ("p", "b", "y", "z")
    # /p/b/y exists (it has a child) but holds no string: an error, not a further search
    t2 = inc({"/p/b/y/z": "3", "/p/c/y": "4"}, "/p/b", "/p/c")
    with pytest.raises(IncludeError, match="no string is associated with /p/b/y"):
        t2.resolve("y", True, None)
    with pytest.raises(IncludeError, match="not found"):
        t.resolve("nothing", False, None)


def test_double_quotes_in_an_included_string_start_where_it_was_found():
    t = inc({"/p/x": "1", "/q/x": "2", "/q/inc": "3"}, "/p")
    including = ("q", "inc")
    assert t.resolve("x", False, including) == ("q", "x")      # "x" beside the including string
    assert t.resolve("x", True, including) == ("p", "x")       # <x>: the search points only
    assert t.resolve("x", False, None) == ("p", "x")           # a source string: the search points


SHADER = EXT + """#define SCALE 0.5
#include "/lib/colour.glsl"
void main() { gl_FragColor = colour() * SCALE + BIAS; }
"""


def test_include_runs_in_place_with_macros_both_ways():
    t = inc({"/lib/colour.glsl": "#define BIAS vec4(SCALE)\nvec4 colour() { return vec4(1.0); }\n"})
    unit = parse("#version 110\n" + SHADER, "fragment", includes=t)
    assert [f.name for f in unit.functions] == ["colour", "main"]


def test_include_needs_the_extension_enabled():
    t = inc({"/a": "float f;\n"})
    with pytest.raises(GLSLCompileError, match=r"0:2\(1\): preprocessor error: #include needs"):
        parse('#version 110\n#include "/a"\nvoid main() {}\n', "fragment", includes=t)


def test_missing_string_is_an_error_at_the_directive():
    with pytest.raises(GLSLCompileError) as e:
        parse("#version 110\n" + EXT + '\n#include </dummy>\nvoid main() {}\n', "fragment",
              includes=inc({"/dummy/path_to/shader_include": ""}))
    assert e.value.info_log.startswith("0:4(1): preprocessor error: #include \"/dummy\": no string is associated")


def messages(src: str, t: Includes | None) -> list[str]:
    log = InfoLog()
    preprocess_full(src, log, "fragment", includes=t)
    return [str(m) for m in log.messages]


def test_message_positions_inside_and_after_an_included_string():
    t = inc({"/one": "\n\n#error in one\n", "/dir/two": '#include "three"\n#error in two\n',
             "/dir/three": "#error in three\n"})
    src = "#version 330\n" + EXT + '#include "/one"\n#include "/dir/two"\n#error after\n'
    assert messages(src, t) == [
        "/one:3(1): preprocessor error: #error in one",
        "three:1(1): preprocessor error: #error in three",
        "/dir/two:2(1): preprocessor error: #error in two",
        "0:5(1): preprocessor error: #error after",          # the source's own numbering goes on
    ]


def test_line_with_a_path_and_file_macro():
    src = "#version 330\n" + EXT + '#line 7 "/my/file"\n#error here\n#line 20 3\n#error there\n'
    assert messages(src, None) == ["/my/file:7(1): preprocessor error: #error here",
                                   "3:20(1): preprocessor error: #error there"]
    # before GLSL 3.30 "#line N" numbers the directive's own line
    src = "#version 110\n" + EXT + '#line 7 "/my/file"\n#error here\n'
    assert messages(src, None) == ["/my/file:8(1): preprocessor error: #error here"]


def test_line_with_a_path_needs_the_extension_and_a_valid_path():
    assert "needs `#extension GL_ARB_shading_language_include'" in \
        messages('#version 110\nvoid main() {\n#line 0 "/a/b"\n}\n', None)[0]
    assert messages("#version 110\n" + EXT + '#line 0 "/shader/./include/../pa th"\n', None) == []
    assert 'is not a valid path' in messages("#version 110\n" + EXT + '#line 0 "/a/b/"\n', None)[0]


def test_a_string_literal_stays_an_error_in_code():
    with pytest.raises(GLSLCompileError):
        parse("#version 110\n" + EXT + 'void main() { int i = "1"; }\n', "fragment")


def test_conditionals_close_in_their_own_string_and_self_inclusion_ends():
    assert "Unterminated #if" in " ".join(messages("#version 110\n" + EXT + '#include "/a"\n',
                                                   inc({"/a": "#if 1\n"})))
    assert "#endif without #if" in " ".join(messages("#version 110\n" + EXT + '#if 1\n#include "/a"\n#endif\n',
                                                     inc({"/a": "#endif\n"})))
    loop = messages("#version 110\n" + EXT + '#include "/a"\n', inc({"/a": '#include "/a"\n'}))
    assert any("more than 32 nested #include strings" in m for m in loop)


@pytest.mark.parametrize("version", ["110", "330"])
def test_flat_source_compiles_the_same_without_the_strings(version):
    t = inc({"/lib/colour.glsl": '#define BIAS vec4(SCALE)\n#include "more"\nvec4 colour() { return C; }\n',
             "/lib/more": "const vec4 C = vec4(0.25);\n"})
    src = f"#version {version}\n" + SHADER.replace("gl_FragColor", "gl_FragData[0]") + "int after = __LINE__;\n"
    flat = expand_includes(src, "fragment", t)
    assert "#include" not in flat.replace('#include "more"', "")
    a, b = preprocess_full(src, includes=t), preprocess_full(flat)
    # the same code at the same places (the flat text's #line lines only add empty lines)
    placed = lambda r: [(m, ln) for m, ln in zip(r.line_map, r.text.split("\n")) if ln.strip()]  # noqa: E731
    assert placed(a) == placed(b)
    assert ((0, 6), "int after = 6;") in placed(b)
    assert [f.name for f in parse(flat, "fragment").functions] == ["colour", "main"]
    # a source that includes nothing comes back unchanged
    assert expand_includes("void main() {}\n", "fragment", t) == "void main() {}\n"
