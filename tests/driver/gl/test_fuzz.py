"""Random sequences of scalar-argument entry points never raise a Python
exception: every misuse must become a GL error (GL 4.6 section 2.3.1)."""

import inspect
import random

import pytest

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx

VALUES = [0, 1, 2, -1, 3, 4, 16, 0x1234, E.GL_TEXTURE_2D, E.GL_RGBA, E.GL_FLOAT,
          E.GL_ARRAY_BUFFER, E.GL_ELEMENT_ARRAY_BUFFER, E.GL_TRIANGLES, E.GL_UNSIGNED_BYTE,
          E.GL_RGBA8, E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_DEPTH_ATTACHMENT,
          E.GL_TEXTURE0, E.GL_UNIFORM_BUFFER, E.GL_TEXTURE_CUBE_MAP, E.GL_RENDERBUFFER,
          E.GL_TEXTURE_2D_ARRAY, E.GL_DEPTH_COMPONENT24, E.GL_TEXTURE_3D, E.GL_R32UI,
          E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR, E.GL_MAP_READ_BIT, E.GL_STATIC_DRAW,
          E.GL_READ_FRAMEBUFFER, E.GL_COLOR_BUFFER_BIT, E.GL_BLEND, E.GL_POINTS,
          E.GL_TRANSFORM_FEEDBACK_BUFFER, E.GL_SHADER_STORAGE_BUFFER, E.GL_VERTEX_SHADER]
# parameters that are pointers, arrays, strings or callbacks in C
NON_SCALAR = {"v", "value", "params", "buffers", "arrays", "textures", "framebuffers",
              "renderbuffers", "ids", "pipelines", "samplers", "attachments", "bufs", "strings",
              "varyings", "props", "indices", "names", "m", "equation", "shaders", "data",
              "pixels", "binary", "label", "message", "callback", "userParam", "name",
              "lengths", "v1", "v2", "pointer", "ptr"}
# entry points whose scalar-looking parameters are arrays
ARRAY_TAKERS = {"glMultiDrawArrays", "glMultiDrawElements", "glMultiDrawElementsBaseVertex",
                "glDebugMessageInsert", "glDebugMessageCallback", "glViewportArrayv",
                "glScissorArrayv", "glDepthRangeArrayv"}


def scalar_entry_points(ctx):
    out = {}
    for name in dir(ctx):
        if not name.startswith("gl") or name in ARRAY_TAKERS:
            continue
        params = [p for p in inspect.signature(getattr(type(ctx), name)).parameters.values()
                  if p.name != "self"]
        if any(p.kind == p.VAR_POSITIONAL for p in params):
            continue
        required = [p for p in params if p.default is p.empty]
        if all(p.name not in NON_SCALAR for p in required):
            out[name] = len(required)
    return out


@pytest.mark.parametrize("api", ["gles2", "gles3", "gles31", "gl33", "gl43", "compat"])
def test_random_scalar_calls_raise_only_gl_errors(api):
    rng = random.Random(api)
    c = make_ctx(api)
    c.glGenBuffers(3), c.glGenTextures(3), c.glGenFramebuffers(2), c.glGenRenderbuffers(2)
    entry = scalar_entry_points(c)
    names = sorted(entry)
    for _ in range(500):
        name = rng.choice(names)
        args = [rng.choice(VALUES) for _ in range(entry[name])]
        try:
            getattr(c, name)(*args)
        except NotImplementedError:
            pass
        except Exception as err:  # pragma: no cover - the failure report
            raise AssertionError(f"{api}: {name}{tuple(args)} raised {err!r}") from err
        c.glGetError()
