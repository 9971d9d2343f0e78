"""What the GL front end hands the pipe for a linked program: the compiler's linked
stages as IR (compiler.variant.StageIR), never GLSL text to parse again nor the AST."""

from compiler.compile import compile_glsl
from compiler.variant import compile_stage
from compiler.variant import StageIR
from compiler.lower import LoweredStage
from driver.gallium import PipeShaderType
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.test_programs import program, shader

VS = """#version 330
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }
"""
FS_MAIN = """#version 330
out vec4 o;
vec4 colour();
void main() { o = colour(); }
"""
FS_LIB = """#version 330
vec4 colour() { return vec4(0.25, 0.5, 0.75, 1.0); }
"""


def _shader_states(ctx):
    return {a[0].stage: a[0] for n, a in ctx.pipe.calls if n == "create_shader_state"}


def test_the_pipe_gets_linked_stages():
    ctx = make_ctx("gl33")
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS_MAIN), (E.GL_FRAGMENT_SHADER, FS_LIB)):
        ctx.glAttachShader(p, shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    states = _shader_states(ctx)
    vs, fs = states[PipeShaderType.VERTEX], states[PipeShaderType.FRAGMENT]
    assert isinstance(vs.ir, StageIR) and isinstance(fs.ir, StageIR)
    assert (vs.ir.stage, fs.ir.stage) == ("vertex", "fragment")
    assert fs.ir.source.index(FS_MAIN) < fs.ir.source.index(FS_LIB)     # both objects, in attach order
    assert isinstance(fs.ir.lowered, LoweredStage) and not hasattr(fs.ir, "unit")
    # the one stage has main and the other object's body for colour(): the binary of the
    # shader written as one object
    whole = FS_MAIN.replace("vec4 colour();", FS_LIB.split("\n", 1)[1])
    assert compile_stage(fs.ir).binary == compile_glsl(whole, "fragment").binary


def test_the_same_program_is_the_same_linked_stage():
    ctx = make_ctx("gl33")
    program(ctx, VS, FS_MAIN.replace("vec4 colour();", FS_LIB.split("\n", 1)[1]))
    first = _shader_states(ctx)[PipeShaderType.FRAGMENT].ir
    ctx.pipe.calls.clear()
    program(ctx, VS, FS_MAIN.replace("vec4 colour();", FS_LIB.split("\n", 1)[1]))
    again = _shader_states(ctx)[PipeShaderType.FRAGMENT].ir
    assert again == first and hash(again) == hash(first) and again.lowered is not first.lowered
    es = make_ctx("gles3")      # another API's extension set: another serialised form
    src = "#version 300 es\nprecision mediump float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"
    vs_es = "#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n"
    program(es, vs_es, src)
    gl = make_ctx("gl43")
    program(gl, vs_es, src)
    es_fs = _shader_states(es)[PipeShaderType.FRAGMENT].ir
    gl_fs = _shader_states(gl)[PipeShaderType.FRAGMENT].ir
    assert es_fs.source == gl_fs.source and es_fs != gl_fs and es_fs.digest != gl_fs.digest
