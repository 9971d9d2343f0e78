"""A stage lowered once for all its variants (compiler/lower/stage.py): each variant
key's passes run on a copy of the key-independent IR and give what the one-pass
lowering gives for that key, the copy leaves the lowered stage as it was, and the
lowered stage holds no AST."""

from __future__ import annotations

import pytest

from compiler.backend import compile_ir
from compiler.compile import front_half
from compiler.glsl import ast, parse
from compiler.glsl.symbols import Variable as Symbol
from compiler.ir import ShaderKey, print_shader
from compiler.link import shader_from_source
from compiler.lower import Blend, LoweringError, RenderTarget, VertexAttrib, glsl_to_ir, lower_stage
from compiler.lower.xfb import XfbOutput
from compiler.variant import compile_stage, front_half_stage

VS = """#version 150 compatibility
in vec4 pos;
in vec3 normal;
in ivec2 ids;
uniform mat4 mvp;
out vec3 n;
flat out ivec2 id;
out mediump float f;
void main() {
    gl_Position = mvp * pos;
    gl_ClipVertex = pos;
    gl_FrontColor = vec4(normal, 1.0);
    gl_BackColor = vec4(1.0) - vec4(normal, 0.0);
    gl_TexCoord[2] = pos;
    n = normal;
    id = ids;
    f = pos.x;
}
"""

FS = """#version 400 compatibility
in vec3 n;
flat in ivec2 id;
out vec4 colour;
out vec4 second;
uniform float k;
void main() {
    colour = gl_Color * k + vec4(n, float(id.x + gl_NumSamples + gl_PrimitiveID)) + gl_TexCoord[2];
    second = vec4(k);
}
"""

_BLEND = Blend("add", "src_alpha", "one_minus_src_alpha", "add", "one", "zero")
VS_KEYS = {
    "default": None,
    "clip planes and flat": ShaderKey.make(clip_planes=0b101, flat_shade=True),
    "fp16 and locations": ShaderKey.make(fp16_varyings=True, attribute_locations={"normal": 5, "ids": 1}),
    "fetch": ShaderKey.make(vertex_attribs=(VertexAttrib(0, 0, "ubyte", 4, True),
                                            VertexAttrib(1, 1, "short", 3, False, stride_B=8))),
    "xfb": ShaderKey.make(xfb=(XfbOutput("gl_Position", 0, 4, 0, 0, 7), XfbOutput("n", 0, 3, 0, 4, 7))),
}
FS_KEYS = {
    "default": None,
    "blend and alpha": ShaderKey.make(render_targets=(RenderTarget(blend=_BLEND), RenderTarget(format="f16")),
                                      alpha_func="greater", alpha_to_one=True),
    "two side, flat, samples": ShaderKey.make(two_side=True, flat_shade=True, samples=4, alpha_to_coverage=True),
    "primitive id varying": ShaderKey.make(primitive_id_varying=True, frag_output_locations={"colour": 1,
                                                                                            "second": 0}),
    "logic op, clamp": ShaderKey.make(render_targets=(RenderTarget(),), logic_op="xor", clamp_fragment_color=True),
}


def _one_pass(source: str, stage: str, key) -> str:
    return print_shader(glsl_to_ir(parse(source, stage), key))


@pytest.mark.parametrize("stage,source,keys", [("vertex", VS, VS_KEYS), ("fragment", FS, FS_KEYS)],
                         ids=["vertex", "fragment"])
def test_each_variant_of_one_lowered_stage_is_the_one_pass_lowering(stage, source, keys):
    lowered = lower_stage(parse(source, stage))
    template = print_shader(lowered.shader)
    printed = {}
    for name, key in keys.items():
        shader, _io = lowered.variant(key)
        printed[name] = print_shader(shader)
        assert printed[name] == _one_pass(source, stage, key), name
    assert len(set(printed.values())) == len(keys)          # every key changes the code
    assert print_shader(lowered.shader) == template         # the variants worked on copies
    again, _io = lowered.variant(keys["default"])           # in any order
    assert print_shader(again) == printed["default"]


@pytest.mark.parametrize("stage,source,key", [("vertex", VS, VS_KEYS["clip planes and flat"]),
                                              ("fragment", FS, FS_KEYS["blend and alpha"])])
def test_a_variant_binary_is_the_binary_of_the_source(stage, source, key):
    linked = shader_from_source(source, stage)
    from compiler.compile import compile_glsl
    assert compile_stage(linked.stage_ir(), key).binary == compile_glsl(source, stage, key).binary


def test_the_interface_maps_come_from_the_variant():
    lowered = lower_stage(parse(VS, "vertex"))
    _s, info = front_half_stage(lowered, VS_KEYS["fp16 and locations"])
    assert info.attributes["normal"].location == 5 and info.attributes["ids"].location == 1
    assert {v.name: v.bit_size for v in info.varyings}["f"] == 16
    _s, info = front_half_stage(lowered, VS_KEYS["clip planes and flat"])
    clip = next(v for v in info.varyings if v.slot == "CLIP")
    assert clip.components == 3                               # planes 0 and 2 enabled: distances 0..2
    assert {v.name: v.interp for v in info.varyings}["gl_FrontColor"] == "flat"
    assert "gl_ClipPlane" in info.uniforms                     # placed by the variant pass, not before
    assert "gl_ClipPlane" not in front_half_stage(lowered, None)[1].uniforms


def _reaches_ast(obj) -> list[str]:
    """Paths from ``obj`` to a typed-AST node or symbol through attributes,
    containers and closures."""
    found, seen, todo = [], set(), [(obj, "stage")]
    while todo:
        x, path = todo.pop()
        if id(x) in seen or isinstance(x, (str, bytes, int, float, type)):
            continue
        seen.add(id(x))
        if isinstance(x, (ast.Node, Symbol)):
            found.append(path)
            continue
        if isinstance(x, dict):
            todo += [(v, f"{path}[{k!r}]") for k, v in x.items()] + [(k, path + "{key}") for k in x]
        elif isinstance(x, (list, tuple, set, frozenset)):
            todo += [(v, f"{path}[]") for v in x]
        elif hasattr(x, "__dict__"):
            todo += [(v, f"{path}.{k}") for k, v in vars(x).items()]
        if getattr(x, "__closure__", None):
            todo += [(c.cell_contents, f"{path}<closure>") for c in x.__closure__]
    return found


def test_the_lowered_stage_holds_no_ast():
    lowered = lower_stage(parse(VS, "vertex"))
    assert _reaches_ast(lowered) == []
    # what crosses the pipe: once lowered (a compile), nothing reachable from it is AST
    stage_ir = shader_from_source(FS, "fragment").stage_ir()
    compile_stage(stage_ir, FS_KEYS["blend and alpha"])
    assert _reaches_ast(stage_ir) == []


def test_the_key_independent_half_reads_no_key():
    # every key-dependent built-in and interface of both stages lowers without a key
    # (io.NO_KEY raises on any read); the key is applied by LoweredStage.variant
    for source, stage in ((VS, "vertex"), (FS, "fragment")):
        lower_stage(parse(source, stage))


def test_a_stage_that_cannot_be_lowered_fails_each_variant():
    src = "#version 430\nuniform sampler2D a;\nuniform sampler2D b;\nuniform bool k;\nout vec4 o;\n" \
          "void main() { o = texture(k ? a : b, vec2(0.5)); }\n"
    stage_ir = shader_from_source(src, "fragment").stage_ir()
    for _ in range(2):
        with pytest.raises(LoweringError, match="cannot take an opaque value from Conditional"):
            compile_stage(stage_ir, None)
    with pytest.raises(LoweringError):
        front_half(src, "fragment")


def test_compile_options_are_not_variant_state():
    src = "#version 130\nuniform vec4 a[20];\nuniform vec4 b;\nin vec4 p;\n" \
          "void main() { gl_Position = p + a[3] + b; }\n"
    small = lower_stage(parse(src, "vertex"), {"uniform_regs_B": 192})
    _s, info = front_half_stage(small, None)
    assert info.uniforms["a"].file == "ubo"                    # 320 bytes: not in 192 bytes of registers
    assert info.uniforms["b"].file == "regs"
    shader, info2 = front_half(src, "vertex", ShaderKey.make(uniform_regs_B=192))
    assert info2.uniforms == info.uniforms
    assert compile_ir(shader, info2).binary == compile_ir(*front_half_stage(small, None)).binary


def test_another_front_end_hands_on_the_same_lowered_stage():
    """lowered_from: a front end that drives the Lowerer and the IOLowering itself
    (as SPIR-V's does) makes a LoweredStage whose variants are lower_stage's."""
    from compiler.variant import StageIR
    from compiler.lower import Lowerer
    from compiler.lower.io import NO_KEY, IOLowering
    from compiler.lower.stage import lower_globals_and_main, lowered_from
    unit = parse(FS, "fragment")
    io = IOLowering(unit, NO_KEY)
    L = Lowerer(unit, io)
    io.begin(L)
    lower_globals_and_main(unit, L, io)
    mine = lowered_from(unit, L, io)
    stage_ir = StageIR("fragment", "a digest of the front end's input", "compatibility", FS, lambda: mine)
    key = FS_KEYS["two side, flat, samples"]
    assert compile_stage(stage_ir, key).binary == compile_stage(shader_from_source(FS, "fragment").stage_ir(),
                                                                key).binary


def test_a_bug_of_the_lowering_is_a_lowering_error_through_the_pipe(monkeypatch):
    """What the driver compiles (a StageIR lowered on first use) reports an internal
    error of the AST lowering as the LoweringError the driver skips a draw for."""
    import compiler.lower.stage as stage

    def bug(*args, **kw):
        raise IndexError("injected")
    monkeypatch.setattr(stage, "lower_globals_and_main", bug)
    stage_ir = shader_from_source(FS, "fragment").stage_ir()
    with pytest.raises(LoweringError, match="internal compiler error: IndexError: injected"):
        compile_stage(stage_ir, None)
