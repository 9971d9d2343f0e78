"""Where fragment outputs go: locations the link decides from
glBindFragDataLocation (the colour stores follow them), dual-source blending
(GL 3.3 / ARB_blend_func_extended: the output of index 1 is the second colour
of SRC1 factors), and separable programs' links in a compatibility context.
Expected colours are computed by hand (numpy) from the shader constants."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

QUAD_VS = ("#version 330\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
           " gl_Position = vec4(p, 0.0, 1.0); }\n")


def _program(ctx, vs, fs, before_link=None):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(p, s)
    if before_link:
        before_link(p)
    ctx.glLinkProgram(p)
    return p


def _targets(ctx, n, w=2, h=2):
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for i, rb in enumerate(ctx.glGenRenderbuffers(n)):
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, w, h)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + i, E.GL_RENDERBUFFER, rb)
    ctx.glDrawBuffers(n, [E.GL_COLOR_ATTACHMENT0 + i for i in range(n)])
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, w, h)


def _pixel(ctx, attachment=0):
    ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT0 + attachment)
    return np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).tolist()


def test_bound_locations_decide_the_attachment():
    """`a` is declared first but bound to location 1, `b` to 0: red goes to
    attachment 1, green to attachment 0 (declaration order would do the opposite)."""
    ctx = glhelp.context(1, 1, api="gl45")
    _targets(ctx, 2)
    fs = "#version 330\nout vec4 a;\nout vec4 b;\nvoid main() { a = vec4(1, 0, 0, 1); b = vec4(0, 1, 0, 1); }\n"

    def bind(p):
        ctx.glBindFragDataLocation(p, 1, "a")
        ctx.glBindFragDataLocation(p, 0, "b")
    p = _program(ctx, QUAD_VS, fs, bind)
    ctx.glUseProgram(p)
    assert (ctx.glGetFragDataLocation(p, "a"), ctx.glGetFragDataLocation(p, "b")) == (1, 0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _pixel(ctx, 0) == [0, 255, 0, 255]
    assert _pixel(ctx, 1) == [255, 0, 0, 255]


def _expected_blend(src, src1, dst, sfactor, dfactor):
    """GL's blend with ADD, factors over (src, src1, dst) in [0, 1], to unorm8."""
    f = {"SRC1_COLOR": src1, "ONE_MINUS_SRC1_COLOR": 1 - src1,
         "SRC1_ALPHA": np.repeat(src1[3], 4), "ONE_MINUS_SRC1_ALPHA": np.repeat(1 - src1[3], 4),
         "ONE": np.ones(4), "ZERO": np.zeros(4)}
    return np.round(np.clip(src * f[sfactor] + dst * f[dfactor], 0, 1) * 255).astype(int)


@pytest.mark.parametrize("how", ["layout", "bind_indexed"])
@pytest.mark.parametrize("sfactor, dfactor", [("SRC1_COLOR", "ONE_MINUS_SRC1_COLOR"),
                                              ("ONE", "SRC1_ALPHA"), ("SRC1_ALPHA", "ONE_MINUS_SRC1_ALPHA")])
def test_dual_source_blending(how, sfactor, dfactor):
    """The index-1 output feeds the SRC1 factors; the destination is a cleared
    colour. Outputs placed by layout(location, index) or by
    glBindFragDataLocationIndexed, which glGetFragDataIndex reports."""
    ctx = glhelp.context(1, 1, api="gl45")
    _targets(ctx, 1)
    src = np.array([0.8, 0.4, 0.2, 0.6])
    src1 = np.array([0.25, 0.5, 1.0, 0.75])
    dst = np.array([0.2, 0.6, 1.0, 0.4])
    decl = ("layout(location = 0, index = 0) out vec4 c0;\nlayout(location = 0, index = 1) out vec4 c1;\n"
            if how == "layout" else "out vec4 c1;\nout vec4 c0;\n")
    fs = ("#version 330\n" + decl + "void main() { c0 = vec4(%s); c1 = vec4(%s); }\n"
          % (", ".join(map(str, src)), ", ".join(map(str, src1))))

    def bind(p):
        if how == "bind_indexed":
            ctx.glBindFragDataLocationIndexed(p, 0, 0, "c0")
            ctx.glBindFragDataLocationIndexed(p, 0, 1, "c1")
    p = _program(ctx, QUAD_VS, fs, bind)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    assert (ctx.glGetFragDataIndex(p, "c0"), ctx.glGetFragDataIndex(p, "c1")) == (0, 1)
    ctx.glClearColor(*dst)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFunc(getattr(E, "GL_" + sfactor), getattr(E, "GL_" + dfactor))
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    dst8 = np.round(dst * 255) / 255                     # the cleared unorm8 value
    got = np.array(_pixel(ctx))
    assert np.abs(got - _expected_blend(src, src1, dst8, sfactor, dfactor)).max() <= 1


@pytest.mark.parametrize("decl, message", [
    ("layout(location = 0) out vec4 a;\nlayout(location = 0) out vec4 b;\n", "share a location"),
    ("layout(location = 1, index = 1) out vec4 a;\nlayout(location = 0) out vec4 b;\n",
     "dual-source draw buffer"),
])
def test_output_placement_link_errors(decl, message):
    ctx = glhelp.context(1, 1, api="gl45")
    fs = "#version 330\n" + decl + "void main() { a = vec4(1.0); b = vec4(0.0); }\n"
    p = _program(ctx, QUAD_VS, fs)
    assert not ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]
    assert message in ctx.glGetProgramInfoLog(p)


def test_separable_fragment_program_in_a_compatibility_context():
    """A separable program holding only a fragment shader links in a compatibility
    context (its inputs meet the pipeline's vertex program, not fixed-function
    vertex processing), and draws in a pipeline."""
    ctx = glhelp.context(2, 2, api="compat")
    vs = ("#version 150\nout vec4 green;\nout vec4 red;\n"
          "void main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n"
          " gl_Position = vec4(p, 0.0, 1.0); red = vec4(1, 0, 0, 0); green = vec4(0, 1, 0, 0); }\n")
    fs = "#version 150\nin vec4 blue;\nin vec4 green;\nout vec4 c;\nvoid main() { c = vec4(green.xyz, 1); }\n"
    progs = [ctx.glCreateShaderProgramv(kind, 1, [src])
             for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs))]
    for p in progs:
        assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    (pipe,) = ctx.glGenProgramPipelines(1)
    ctx.glBindProgramPipeline(pipe)
    ctx.glUseProgramStages(pipe, E.GL_VERTEX_SHADER_BIT, progs[0])
    ctx.glUseProgramStages(pipe, E.GL_FRAGMENT_SHADER_BIT, progs[1])
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert px.tolist() == [0, 255, 0, 255]


def test_pipeline_names_acquire_state_when_used():
    """GL 4.6 section 7.4: generated pipeline names are objects once bound; Mesa
    also gives them state at glUseProgramStages, glActiveShaderProgram and
    glGetProgramPipelineiv (piglit's IsProgramPipeline expects all four)."""
    ctx = glhelp.context(1, 1, api="gl45")
    names = ctx.glGenProgramPipelines(4)
    assert [ctx.glIsProgramPipeline(n) for n in names] == [False] * 4
    ctx.glBindProgramPipeline(names[0])
    ctx.glUseProgramStages(names[1], E.GL_ALL_SHADER_BITS, 0)
    ctx.glActiveShaderProgram(names[2], 0)
    ctx.glGetProgramPipelineiv(names[3], E.GL_VERTEX_SHADER)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert [ctx.glIsProgramPipeline(n) for n in names] == [True] * 4


def test_separable_programs_meet_by_location():
    """GLSL 4.60 section 4.4.1: with locations on both sides, a fragment input
    takes the vertex output of its location whatever the names: `a` (location 3)
    receives the output called `b`, and the other way round."""
    ctx = glhelp.context(2, 2, api="gl45")
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    vs = ("#version 410\nlayout(location = 2) out vec3 a;\nlayout(location = 3) out vec3 b;\n"
          "void main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n"
          " gl_Position = vec4(p, 0.0, 1.0); a = vec3(0, 0, 1); b = vec3(1, 0, 0); }\n")
    fs = ("#version 410\nlayout(location = 3) in vec3 a;\nlayout(location = 2) in vec3 b;\nout vec4 c;\n"
          "void main() { c = vec4(a, 1.0) + vec4(0.0, 0.5 * b.z, 0.0, 0.0); }\n")
    progs = [ctx.glCreateShaderProgramv(kind, 1, [src])
             for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs))]
    (pipe,) = ctx.glGenProgramPipelines(1)
    ctx.glBindProgramPipeline(pipe)
    ctx.glUseProgramStages(pipe, E.GL_VERTEX_SHADER_BIT, progs[0])
    ctx.glUseProgramStages(pipe, E.GL_FRAGMENT_SHADER_BIT, progs[1])
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert px.tolist() == [255, 128, 0, 255]        # a = (1, 0, 0), b = (0, 0, 1)
