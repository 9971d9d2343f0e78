"""Words that a later GLSL version makes keywords (`buffer', `sample', `subroutine', `patch',
`shared', `precise', the memory qualifiers, `layout') are plain identifiers in the versions
before, unless that version's own reserved-word list names them. The versions follow Mesa's
lexer; GLSL 1.30-3.30's lists name none of these words. Programs written for GLSL 1.30-4.10
do use `sample' and `buffer' as variable names."""

import pytest

from compiler.glsl import GLSLCompileError, parse


def _error(src: str, stage: str = "vertex") -> str:
    with pytest.raises(GLSLCompileError) as e:
        parse(src, stage)
    return e.value.info_log


@pytest.mark.parametrize("version", ["130", "140", "150", "330", "400", "410", "420"])
def test_buffer_is_a_name_before_430(version):
    parse(f"#version {version}\nuniform sampler2D buffer;\n"
          "void main() { gl_Position = texture(buffer, vec2(0)); }", "vertex")


def test_buffer_is_a_keyword_from_430():
    assert "error" in _error("#version 430\nuniform sampler2D buffer;\nvoid main() {}")


@pytest.mark.parametrize("version", ["130", "150", "330"])
@pytest.mark.parametrize("word", ["sample", "subroutine", "patch", "shared", "precise"])
def test_later_keywords_are_names_before_400(version, word):
    parse(f"#version {version}\nin vec4 {word};\nvoid main() {{ gl_Position = {word}; }}",
          "vertex")


@pytest.mark.parametrize("word", ["sample", "subroutine", "patch", "precise"])
def test_later_keywords_are_keywords_in_400(word):
    assert "error" in _error(f"#version 400\nin vec4 {word};\nvoid main() {{ gl_Position = {word}; }}")


@pytest.mark.parametrize("word", ["coherent", "restrict", "readonly", "writeonly"])
def test_memory_qualifiers_are_names_before_420_and_keywords_from_it(word):
    parse(f"#version 410\nin vec4 {word};\nvoid main() {{ gl_Position = {word}; }}", "vertex")
    assert "error" in _error(f"#version 420\nin vec4 {word};\nvoid main() {{ gl_Position = {word}; }}")


def test_layout_is_a_name_in_130_and_a_keyword_in_140():
    parse("#version 130\nin vec4 layout;\nvoid main() { gl_Position = layout; }", "vertex")
    assert "error" in _error("#version 140\nin vec4 layout;\nvoid main() { gl_Position = layout; }")


@pytest.mark.parametrize("word", ["common", "partition", "active", "filter"])
def test_words_the_130_list_names_stay_reserved(word):
    parse(f"#version 120\nattribute vec4 {word};\nvoid main() {{ gl_Position = {word}; }}",
          "vertex")
    log = _error(f"#version 130\nin vec4 {word};\nvoid main() {{ gl_Position = {word}; }}")
    assert f"0:2(9): error: illegal use of reserved word `{word}'" in log


@pytest.mark.parametrize("word", ["sample", "subroutine", "patch"])
def test_es_300_reserves_the_later_keywords(word):
    log = _error(f"#version 300 es\nin vec4 {word};\nvoid main() {{ gl_Position = {word}; }}")
    assert f"illegal use of reserved word `{word}'" in log


def test_sample_in_an_es_310_shader_is_reserved_and_a_keyword_in_320():
    assert "reserved word `sample'" in _error(
        "#version 310 es\nin vec4 sample;\nvoid main() { gl_Position = sample; }")
