"""Outside the compatibility profile a draw sets the pipe's fixed-function state from
the values the previous draw derived while every input of the derivation stands
(draws._emit_state / _state_inputs: the state groups' generations, the framebuffer and
the vertex program). Each case changes one state group (or the framebuffer, or the
program) between two draws: the pipe must then hold what a fresh derivation gives,
and that must differ from what it held before, so a key that forgot the group fails
here. Unchanged draws take the kept values (counted)."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gallium import PipeShaderType
from driver.gl import enums as E
from driver.gl.state import FIELD_GROUPS
from tests.driver.agx import glhelp

VS = """#version 450 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
VS_CLIP = """#version 450 core
layout(location = 0) in vec2 pos;
out float gl_ClipDistance[1];
void main() { gl_Position = vec4(pos, 0.0, 1.0); gl_ClipDistance[0] = pos.x; }
"""
FS = """#version 450 core
out vec4 o;
void main() { o = vec4(1.0); }
"""


def _pipe_state(gl) -> tuple:
    p = gl.pipe
    return (p.blend, p.dsa, p.rast, p.viewport, p.scissor, p.blend_color, p.stencil_ref, p.sample_mask,
            p.min_samples)


def _generations(s) -> dict:
    """The generation of each state group, the enable set, the render targets (as "rt")
    and the stencil faces (as "stencil")."""
    gens = {group: getattr(s, group).gen for group in set(FIELD_GROUPS.values())}
    gens.update(enabled=s.enabled.gen, rt=tuple(rt.gen for rt in s.color_buffer.rt),
                stencil=tuple(face.gen for face in s.stencil_buffer.stencil))
    return gens


def _fresh(gl) -> tuple:
    """What the draw's state derives to now, with nothing kept."""
    fb = gl.emit_framebuffer()
    blend, dsa, rast, viewport, scissor, colour, ref, mask, _stipple, _clip, min_samples = \
        gl._derive_state(fb, gl._stage_programs().get(PipeShaderType.VERTEX))
    return blend, dsa, rast, viewport, scissor, colour, ref, mask, min_samples


def _setup():
    ctx = glhelp.context(8, 8, api="gl46")
    progs = {"plain": glhelp.program(ctx, VS, FS), "clip": glhelp.program(ctx, VS_CLIP, FS)}
    ctx.glUseProgram(progs["plain"])
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    glhelp.vertices(ctx, progs["plain"], quad, {"pos": (2, 0)}, 2)
    (fb,) = ctx.glGenFramebuffers(1)
    (colour, depth) = ctx.glGenRenderbuffers(2)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, colour)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_RGBA8, 4, 4)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, depth)
    ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_DEPTH24_STENCIL8, 4, 4)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, colour)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_RENDERBUFFER, depth)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glEnable(E.GL_STENCIL_TEST)
    ctx.glEnable(E.GL_CLIP_DISTANCE0)
    ctx.glEnable(E.GL_CULL_FACE)
    ctx.glEnable(E.GL_SAMPLE_COVERAGE)
    ctx.glEnable(E.GL_SAMPLE_SHADING)
    return ctx, progs, fb


# (what changes, the generations it moves (_generations' names; None: no state group's),
# the change)
CASES = [
    ("an enable", {"enabled"}, lambda ctx, p, fb: ctx.glEnable(E.GL_DEPTH_CLAMP)),
    ("a render target's blend enable", {"rt"}, lambda ctx, p, fb: ctx.glEnable(E.GL_BLEND)),
    ("the blend colour", {"color_buffer"}, lambda ctx, p, fb: ctx.glBlendColor(0.5, 0.25, 0.125, 1.0)),
    ("a render target's blend factors", {"rt"}, lambda ctx, p, fb: ctx.glBlendFunc(E.GL_ONE, E.GL_ONE)),
    ("the depth function", {"depth_buffer"}, lambda ctx, p, fb: ctx.glDepthFunc(E.GL_GREATER)),
    ("a stencil face's reference", {"stencil"}, lambda ctx, p, fb: ctx.glStencilFunc(E.GL_EQUAL, 3, 0xFF)),
    ("the viewport", {"viewports"}, lambda ctx, p, fb: ctx.glViewport(1, 1, 2, 2)),
    ("the clip control", {"transform"},
     lambda ctx, p, fb: ctx.glClipControl(E.GL_LOWER_LEFT, E.GL_ZERO_TO_ONE)),
    ("the cull face", {"raster"}, lambda ctx, p, fb: ctx.glFrontFace(E.GL_CW)),
    ("the polygon offset", {"raster"}, lambda ctx, p, fb: ctx.glPolygonOffset(1.0, 2.0)),
    ("the sample coverage", {"multisample"}, lambda ctx, p, fb: ctx.glSampleCoverage(0.5, False)),
    ("the minimum sample shading", {"multisample"}, lambda ctx, p, fb: ctx.glMinSampleShading(1.0)),
    ("the draw framebuffer", None, lambda ctx, p, fb: ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)),
    ("the vertex program (its clip distances)", None, lambda ctx, p, fb: ctx.glUseProgram(p["clip"])),
]


@pytest.mark.parametrize("name,moves,change", CASES, ids=[c[0] for c in CASES])
def test_a_changed_input_derives_the_state_again(name, moves, change):
    ctx, progs, fb = _setup()
    gl = ctx.gl
    for _ in range(2):                          # the second draw takes the kept values
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    before = _pipe_state(gl)
    assert before == _fresh(gl)
    gens = _generations(gl.state)
    change(ctx, progs, fb)
    assert ctx.glGetError() == E.GL_NO_ERROR
    # the change moves the named generations alone
    assert {g for g, gen in _generations(gl.state).items() if gens[g] != gen} == (moves or set())
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    after = _pipe_state(gl)
    assert after != before, f"{name}: the pipe state did not change"
    assert after == _fresh(gl), name
    ctx.destroy()


def test_unchanged_draws_keep_the_derived_values(monkeypatch):
    ctx, progs, fb = _setup()
    gl = ctx.gl
    derived = []
    real = type(gl)._derive_state
    monkeypatch.setattr(type(gl), "_derive_state", lambda self, *a: derived.append(1) or real(self, *a))
    for _ in range(4):
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert len(derived) == 1
    ctx.glStencilFunc(E.GL_EQUAL, 3, 0xFF)     # a nested group (a stencil face) moves
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert len(derived) == 2
    assert gl.pipe.stencil_ref == (3, 3)
    ctx.destroy()


FS_CONST = """#version 300 es
precision mediump float;
out vec4 o;
void main() { o = vec4(1.0, 0.0, 0.0, 1.0); }
"""
FS_BLOCK = """#version 300 es
precision mediump float;
uniform Colour { vec4 colour; };
out vec4 o;
void main() { o = colour; }
"""
VS_ES = """#version 300 es
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""


def test_a_relinked_program_binds_what_its_new_link_has():
    """What a draw binds for a program (draws._emit_plan: uniform blocks, samplers,
    images, storage buffers) is the link's: the same program object linked again with
    a uniform block gets the block bound."""
    ctx = glhelp.context(4, 4)
    p = glhelp.program(ctx, VS_ES, FS_CONST)
    glhelp.vertices(ctx, p, np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32), {"pos": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert list(ctx.read_pixels(1, 1, 1, 1)[0, 0]) == [255, 0, 0, 255]
    for s in ctx.glGetAttachedShaders(p, 8):
        if ctx.glGetShaderiv(s, E.GL_SHADER_TYPE)[0] == E.GL_FRAGMENT_SHADER:
            ctx.glDetachShader(p, s)
    ctx.glAttachShader(p, glhelp.compile_shader(ctx, E.GL_FRAGMENT_SHADER, FS_BLOCK))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]
    (ubo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_UNIFORM_BUFFER, ubo)
    colour = np.array([0.0, 1.0, 0.0, 1.0], np.float32)
    ctx.glBufferData(E.GL_UNIFORM_BUFFER, colour.nbytes, colour, E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 0, ubo)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert list(ctx.read_pixels(1, 1, 1, 1)[0, 0]) == [0, 255, 0, 255]
    ctx.destroy()


def _compat_quad(ctx):
    ctx.glBegin(E.GL_TRIANGLE_STRIP)
    for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR


@pytest.mark.parametrize("name", ["a clip plane", "the polygon stipple", "a fragment colour clamp",
                                  "a texture parameter"])
def test_compatibility_inputs_derive_the_state_again(name):
    """The compatibility profile's own inputs: user clip planes (eye space), the polygon
    stipple while it is enabled, glClampColor; a texture parameter (a drawn texture's)
    derives nothing again when the window is drawn to."""
    ctx = glhelp.context(8, 8, api="compat")
    gl = ctx.gl
    ctx.glEnable(E.GL_POLYGON_STIPPLE)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    derived = []
    real = type(gl)._derive_state
    gl._derive_state = lambda *a: derived.append(1) or real(gl, *a)
    for _ in range(2):
        _compat_quad(ctx)
    assert len(derived) == 1
    before = (gl.pipe.clip, gl.pipe.poly_stipple, gl.pipe.rast)
    if name == "a clip plane":
        ctx.glClipPlane(E.GL_CLIP_PLANE0, [1.0, 0.0, 0.0, 0.5])
    elif name == "the polygon stipple":
        ctx.glPolygonStipple(bytes(range(128)))
    elif name == "a fragment colour clamp":
        ctx.glClampColor(E.GL_CLAMP_FRAGMENT_COLOR, E.GL_FALSE)
    else:
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_LEVEL, 3)
    _compat_quad(ctx)
    after = (gl.pipe.clip, gl.pipe.poly_stipple, gl.pipe.rast)
    if name == "a texture parameter":
        assert len(derived) == 1 and after == before
    else:
        assert len(derived) == 2 and after != before, name
        fresh = real(gl, gl.emit_framebuffer(), gl._stage_programs().get(PipeShaderType.VERTEX))
        assert gl.pipe.rast == fresh[2] and gl.pipe.clip == fresh[9]
        assert gl.pipe.poly_stipple == tuple(int(r) for r in fresh[8])
    ctx.destroy()
