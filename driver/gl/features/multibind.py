"""ARB_multi_bind (GL 4.4 core): bind ranges of buffers, textures, samplers,
images and vertex buffers in one call.

GL 4.6 sections 6.1.1, 8.1, 8.2, 8.26 and 10.3.1: a NULL array (None)
unbinds `count` consecutive binding points; a range beyond the limit is
GL_INVALID_OPERATION and changes nothing; an error in one entry (a name that
is not an object, a bad offset or size) is recorded and that binding point
keeps its value, while the other entries are still bound.
"""

from __future__ import annotations

from driver.gl import enums as E
from driver.gl.errors import GLError, check
from driver.gl.features import call, entry_point
from driver.gl.textures import LAYERED_TARGETS

_INDEXED_LIMITS = {
    E.GL_UNIFORM_BUFFER: "GL_MAX_UNIFORM_BUFFER_BINDINGS",
    E.GL_SHADER_STORAGE_BUFFER: "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
    E.GL_ATOMIC_COUNTER_BUFFER: "GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS",
    E.GL_TRANSFORM_FEEDBACK_BUFFER: "GL_MAX_TRANSFORM_FEEDBACK_BUFFERS",
}


def _multibind(ctx) -> None:
    check(ctx.api.has_extension("GL_ARB_multi_bind"), E.GL_INVALID_OPERATION,
          "multi-bind needs GL 4.4 or GL_ARB_multi_bind")


def _range(ctx, first: int, count: int, limit: int) -> None:
    check(count >= 0, E.GL_INVALID_VALUE, "negative count")
    check(first >= 0 and first + count <= limit, E.GL_INVALID_OPERATION,
          f"bindings {first}..{first + count - 1} beyond the limit {limit}")


def _each(ctx, count: int, bind_one) -> None:
    """Run bind_one(i) for every entry; the first error is raised after all
    were tried (the entries without errors are bound)."""
    first_error: GLError | None = None
    for i in range(count):
        try:
            bind_one(i)
        except GLError as err:
            first_error = first_error or err
    if first_error is not None:
        raise first_error


def _limit(ctx, name: str) -> int:
    value = ctx.limits.get(name)
    if value is None and name == "GL_MAX_TRANSFORM_FEEDBACK_BUFFERS":
        value = ctx.caps.max_stream_output_buffers
    return int(value or 0)


def _buffers(ctx, target, first, count, buffers, offsets=None, sizes=None):
    _multibind(ctx)
    if target not in _INDEXED_LIMITS:
        raise GLError(E.GL_INVALID_ENUM, f"bad target {target:#x}")
    _range(ctx, first, count, _limit(ctx, _INDEXED_LIMITS[target]))

    def one(i):
        name = int(buffers[i]) if buffers is not None else 0
        if name == 0:
            return call(ctx, "glBindBufferBase", target, first + i, 0)
        check(ctx.buffers.get(name) is not None, E.GL_INVALID_OPERATION, f"{name} is not a buffer")
        if offsets is None:
            return call(ctx, "glBindBufferBase", target, first + i, name)
        return call(ctx, "glBindBufferRange", target, first + i, name, int(offsets[i]), int(sizes[i]))
    _each(ctx, count, one)


@entry_point
def glBindBuffersBase(ctx, target, first, count, buffers):
    _buffers(ctx, target, first, count, buffers)


@entry_point
def glBindBuffersRange(ctx, target, first, count, buffers, offsets, sizes):
    if buffers is not None and (offsets is None or sizes is None):
        raise GLError(E.GL_INVALID_VALUE, "offsets and sizes are needed with buffers")
    _buffers(ctx, target, first, count, buffers, offsets, sizes)


@entry_point
def glBindTextures(ctx, first, count, textures):
    _multibind(ctx)
    _range(ctx, first, count, ctx.caps.max_combined_texture_units)

    def one(i):
        name = int(textures[i]) if textures is not None else 0
        unit = ctx.texture_units[first + i]
        if name == 0:
            unit.clear()
            return
        tex = ctx.textures.get(name)
        check(tex is not None and tex.target != 0, E.GL_INVALID_OPERATION, f"{name} is not a texture")
        unit[tex.target] = tex
    _each(ctx, count, one)


@entry_point
def glBindSamplers(ctx, first, count, samplers):
    _multibind(ctx)
    _range(ctx, first, count, ctx.caps.max_combined_texture_units)

    def one(i):
        name = int(samplers[i]) if samplers is not None else 0
        check(name == 0 or ctx.samplers.get(name) is not None, E.GL_INVALID_OPERATION,
              f"{name} is not a sampler")
        call(ctx, "glBindSampler", first + i, name)
    _each(ctx, count, one)


@entry_point
def glBindImageTextures(ctx, first, count, textures):
    _multibind(ctx)
    _range(ctx, first, count, int(ctx.limits.get("GL_MAX_IMAGE_UNITS", 0)))

    def one(i):
        name = int(textures[i]) if textures is not None else 0
        if name == 0:
            return call(ctx, "glBindImageTexture", first + i, 0, 0, False, 0, E.GL_READ_ONLY, E.GL_R8)
        tex = ctx.textures.get(name)
        check(tex is not None and tex.target != 0, E.GL_INVALID_OPERATION, f"{name} is not a texture")
        layered = tex.target in LAYERED_TARGETS
        level0 = tex.images[0][0] if tex.images and tex.images[0] else None
        check(level0 is not None and level0.width > 0, E.GL_INVALID_OPERATION,
              f"texture {name} has no level 0")
        # GL 4.6 section 8.26: level 0, all layers, READ_WRITE, the level's own format
        call(ctx, "glBindImageTexture", first + i, name, 0, layered, 0, E.GL_READ_WRITE,
             level0.internal_format)
    _each(ctx, count, one)


@entry_point
def glBindVertexBuffers(ctx, first, count, buffers, offsets, strides):
    _multibind(ctx)
    _range(ctx, first, count, ctx.caps.max_vertex_buffers)
    if ctx.api.core:
        check(ctx.vao is not ctx.default_vao, E.GL_INVALID_OPERATION, "no vertex array object bound")

    def one(i):
        if buffers is None:
            return call(ctx, "glBindVertexBuffer", first + i, 0, 0, 16)
        name = int(buffers[i])
        check(name == 0 or ctx.buffers.get(name) is not None, E.GL_INVALID_OPERATION,
              f"{name} is not a buffer")
        check(int(offsets[i]) >= 0, E.GL_INVALID_VALUE, "negative offset")
        check(int(strides[i]) >= 0, E.GL_INVALID_VALUE, "negative stride")
        call(ctx, "glBindVertexBuffer", first + i, name, int(offsets[i]), int(strides[i]))
    _each(ctx, count, one)
