"""GL 4.6 section 2.3.1: "the command generating the error is ignored so that
it has no effect on GL state or framebuffer contents". Each erroneous call
below must leave a snapshot of the context unchanged and make no pipe call."""

import dataclasses

import pytest

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx


def snapshot(c):
    s = dataclasses.asdict(c.state)
    s["enabled"] = sorted(s["enabled"])
    return (repr(s), repr(sorted((k, v.name if v else 0) for k, v in c.buffer_bindings.items())),
            c.vao.name, repr([(a.enabled, a.size, a.type, a.stride) for a in c.vao.attribs]),
            repr(c.current_attribs), c.active_texture,
            repr(sorted(c.buffers.objects)), repr(sorted(c.textures.objects)),
            repr([(t.min_filter, t.wrap_s) for t in (x.params for x in c.textures)]),
            c.current_program.name if c.current_program else 0,
            repr([(b.size, b.mapped) for b in c.buffers]))


def prepared():
    c = make_ctx("gles3")
    (b,) = c.glGenBuffers(1)
    c.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    c.glBufferData(E.GL_ARRAY_BUFFER, 16, None, E.GL_STATIC_DRAW)
    (t,) = c.glGenTextures(1)
    c.glBindTexture(E.GL_TEXTURE_2D, t)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetError() == E.GL_NO_ERROR
    c.pipe.calls.clear()
    return c


BAD_CALLS = [
    ("glEnable", (0x1234,)), ("glBlendFunc", (E.GL_ONE, 0x1234)),
    ("glBlendEquationSeparate", (E.GL_FUNC_ADD, 0x1234)), ("glDepthFunc", (0,)),
    ("glStencilFuncSeparate", (E.GL_FRONT, 0, 1, 1)), ("glStencilOp", (E.GL_KEEP, E.GL_KEEP, 0x1234)),
    ("glStencilMaskSeparate", (E.GL_FRONT_LEFT, 0)), ("glCullFace", (E.GL_CW,)),
    ("glFrontFace", (E.GL_BACK,)), ("glViewport", (0, 0, -1, 1)), ("glScissor", (0, 0, 1, -1)),
    ("glLineWidth", (-1.0,)), ("glPixelStorei", (E.GL_UNPACK_ALIGNMENT, 3)),
    ("glHint", (E.GL_GENERATE_MIPMAP_HINT, 0)), ("glActiveTexture", (E.GL_TEXTURE0 + 4096,)),
    ("glBindBuffer", (0x1234, 1)), ("glBufferData", (E.GL_ARRAY_BUFFER, -1, None, E.GL_STATIC_DRAW)),
    ("glBufferData", (E.GL_ARRAY_BUFFER, 8, None, 0x1234)),
    ("glBufferSubData", (E.GL_ARRAY_BUFFER, 12, 8, bytes(8))),
    ("glMapBufferRange", (E.GL_ARRAY_BUFFER, 0, 32, E.GL_MAP_READ_BIT)),
    ("glVertexAttribPointer", (0, 5, E.GL_FLOAT, False, 0, 0)),
    ("glVertexAttribPointer", (0, 4, 0x1234, False, 0, 0)),
    ("glVertexAttrib4f", (99, 1, 2, 3, 4)), ("glEnableVertexAttribArray", (99,)),
    ("glBindTexture", (E.GL_TEXTURE_CUBE_MAP, 1)),
    ("glTexParameteri", (E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_REPEAT)),
    ("glTexParameteri", (E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S, E.GL_LINEAR)),
    ("glTexImage2D", (E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGB, E.GL_UNSIGNED_BYTE, None)),
    ("glTexImage2D", (E.GL_TEXTURE_2D, -1, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)),
    ("glTexSubImage2D", (E.GL_TEXTURE_2D, 0, 3, 3, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(16))),
    ("glTexStorage2D", (E.GL_TEXTURE_2D, 9, E.GL_RGBA8, 4, 4)),
    ("glGenerateMipmap", (E.GL_TEXTURE_3D,)),
    ("glDrawArrays", (E.GL_TRIANGLES, 0, 3)),             # no program
    ("glDrawArrays", (0x1234, 0, 3)),
    ("glClear", (0x1234_0000,)), ("glUseProgram", (99,)),
    ("glBindFramebuffer", (E.GL_FRAMEBUFFER, 77)),
    ("glRenderbufferStorage", (E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)),
    ("glReadPixels", (0, 0, -1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
    ("glBeginQuery", (E.GL_ANY_SAMPLES_PASSED, 0)), ("glEndQuery", (E.GL_ANY_SAMPLES_PASSED,)),
    ("glFenceSync", (E.GL_SYNC_GPU_COMMANDS_COMPLETE, 1)),
    ("glBeginTransformFeedback", (E.GL_TRIANGLES,)),
    ("glSamplerParameteri", (12345, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)),
    ("glUniform1f", (0, 1.0)),
    ("glProgramBinary", (77, 0x875F, b"", 0)), ("glGetProgramBinary", (77, 100)),
    ("glTransformFeedbackVaryings", (77, 1, ["v"], E.GL_INTERLEAVED_ATTRIBS)),
    ("glTexParameteri", (E.GL_TEXTURE_2D, E.GL_DEPTH_TEXTURE_MODE, E.GL_LUMINANCE)),   # compat only
    ("glClearBufferfi", (E.GL_DEPTH_STENCIL, 1, 0.5, 0)),
    ("glPatchParameteri", (E.GL_PATCH_VERTICES, 3)),                                # GL 4.0 only
    ("glCreateShader", (E.GL_GEOMETRY_SHADER,)),                                     # GLES 3.2 only
]


@pytest.mark.parametrize("name,args", BAD_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(BAD_CALLS)])
def test_erroneous_call_changes_nothing(name, args):
    c = prepared()
    before = snapshot(c)
    getattr(c, name)(*args)
    assert c.glGetError() != E.GL_NO_ERROR, f"{name}{args} raised no error"
    assert snapshot(c) == before
    assert c.pipe.calls == [], f"{name} made pipe calls: {c.pipe.names()}"
