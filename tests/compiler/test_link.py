"""compiler.link: the shader objects of a stage linked into one stage the pipe compiles.

Expectations are independent of the link: a stage split over several shader objects
must compile to the same binary as the same code written as one object, and a linked
stage of one object to the binary the whole compiler makes of its source."""

from pathlib import Path

import pytest

from compiler.backend import compile_glsl, compile_linked
from compiler.glsl import parse
from compiler.link import LinkedShader, LinkError, link_stage, shader_from_source

MAIN = """#version 150
vec4 shade(float x);
uniform float k;
out vec4 c;
void main() { c = shade(k); }
"""
LIB = """#version 150
uniform float k;
vec4 shade(float x) { return vec4(x, k * 0.5, 0.25, 1.0); }
"""
WHOLE = """#version 150
uniform float k;
out vec4 c;
vec4 shade(float x) { return vec4(x, k * 0.5, 0.25, 1.0); }
void main() { c = shade(k); }
"""


def objects(stage, *sources):
    return [(parse(s, stage, shader_object=True), s) for s in sources]


def test_a_function_declared_in_one_object_and_defined_in_another_links():
    split = link_stage("fragment", objects("fragment", MAIN, LIB))
    whole = compile_glsl(WHOLE, "fragment")
    got = compile_linked(split)
    assert got.binary == whole.binary
    assert set(got.info.uniforms) == {"k"}          # the two objects' `k' are one uniform


def test_linking_leaves_the_shader_objects_as_they_were():
    (main, main_src), (lib, lib_src) = objects("fragment", MAIN, LIB)
    link_stage("fragment", [(main, main_src), (lib, lib_src)])
    (sig, _loc), = main.unresolved_calls
    assert sig.name == "shade" and sig.definition is None     # another program may link it with another body
    with pytest.raises(LinkError, match="unresolved reference to function `shade'"):
        link_stage("fragment", [(main, main_src)])


@pytest.mark.parametrize("sources, message", [
    ((MAIN,), "unresolved reference to function `shade'"),
    ((LIB,), "fragment shader: no definition of main()"),
    ((WHOLE, WHOLE.replace("c = shade(k);", "c = vec4(k);")), "fragment shader: more than one definition of main()"),
    ((MAIN, LIB, LIB.replace("#version 150\n", "#version 150\nvoid unused() {}\n")),
     "function `vec4 shade(float)' is defined in more than one fragment shader object"),
    ((MAIN, LIB.replace("uniform float k;", "uniform int k;").replace("k * 0.5", "float(k)")),
     "`k' declared as different types in fragment shaders"),
])
def test_link_errors(sources, message):
    with pytest.raises(LinkError) as e:
        link_stage("fragment", objects("fragment", *sources))
    assert str(e.value) == message


def test_a_standalone_compile_still_reports_the_unresolved_call():
    from compiler.glsl import GLSLCompileError
    with pytest.raises(GLSLCompileError, match="unresolved reference to function `shade'"):
        parse(MAIN, "fragment")


def test_linked_shaders_are_frozen_and_compare_by_digest():
    a = link_stage("fragment", objects("fragment", MAIN, LIB))
    b = link_stage("fragment", objects("fragment", MAIN, LIB))
    other = link_stage("fragment", objects("fragment", WHOLE))
    assert a == b and hash(a) == hash(b) and a.unit is not b.unit
    assert a != other and len({a, b, other}) == 2
    assert MAIN in a.text and LIB in a.text and a.text.index(MAIN) < a.text.index(LIB)
    with pytest.raises(AttributeError):
        a.stage = "vertex"
    compat = LinkedShader("vertex", None, ("#version 150\nvoid main(){}\n",), "compatibility")
    core = LinkedShader("vertex", None, ("#version 150\nvoid main(){}\n",), "core")
    assert compat.digest != core.digest       # the same text is another shader in another profile


_STAGE = {".vert": "vertex", ".frag": "fragment", ".comp": "compute"}
_CORPUS = sorted(p for p in (Path(__file__).parent / "glsl" / "corpus" / "valid").iterdir() if p.suffix in _STAGE)


@pytest.mark.parametrize("path", _CORPUS, ids=lambda p: p.name)
def test_a_linked_stage_compiles_to_the_binary_of_its_source(path):
    source, stage = path.read_text(), _STAGE[path.suffix]
    linked = shader_from_source(source, stage)
    first, again = compile_linked(linked), compile_linked(linked)     # variants reuse the one unit
    assert first.binary == again.binary == compile_glsl(source, stage).binary
