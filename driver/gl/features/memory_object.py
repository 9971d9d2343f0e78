"""EXT_memory_object and EXT_memory_object_fd: memory imported from a descriptor,
textures and buffers whose storage is placed in it.

A memory object (``MemoryObject``, a name of the share group's ``memory_objects``)
is created empty; ``glMemoryObjectParameterivEXT`` sets DEDICATED_MEMORY_OBJECT_EXT
until memory is imported into it, after which its parameters are immutable.
``glImportMemoryFdEXT`` with HANDLE_TYPE_OPAQUE_FD_EXT takes a dma-buf descriptor
(the UAPI's PRIME export of a GEM object, from another device file, process or API)
and the GL owns the descriptor from then on: the screen imports its GEM object
(``memobj_create_from_handle``: PRIME_FD_TO_HANDLE, bound and mapped) and the
descriptor is closed.

``glTexStorageMem*EXT`` / ``glTextureStorageMem*EXT`` are ``glTexStorage*`` whose
resource is placed in the memory from ``offset`` (``resource_from_memobj``: the
object's pages bound again at a VA of the resource's own, laid out as the driver
lays out any resource of that template, so an exporter and an importer given the same
parameters read the same texels); ``glBufferStorageMemEXT`` /
``glNamedBufferStorageMemEXT`` are ``glBufferStorage`` with no storage flags (the
buffer cannot be mapped nor updated by glBufferSubData; copies, draws and
glGetBufferSubData reach the memory). TEXTURE_TILING_EXT (OPTIMAL_TILING_EXT, the
default, or LINEAR_TILING_EXT: a row-major image, for a single-level, single-sampled
texture; a mipmapped one stays optimal) is a texture parameter read when the storage
is placed. Offsets must be multiples of the screen's ``memobj_alignment`` (the GPU
page, 16 KiB: what Vulkan's memory requirements of this driver would state).

Queries: ``glGetUnsignedBytevEXT`` (DRIVER_UUID_EXT, DEVICE_UUID_EXT, or any
``glGetBooleanv`` state as 0/1 bytes), ``glGetUnsignedBytei_vEXT`` (DEVICE_UUID_EXT
index 0: NUM_DEVICE_UUIDS_EXT is 1, or indexed boolean state), the screen's
``driver_uuid``/``device_uuid``; ``glGetInternalformativ`` NUM_TILING_TYPES_EXT (2)
and TILING_TYPES_EXT.

Errors (EXT_external_objects section 6, EXT_external_objects_fd): a negative count is
INVALID_VALUE; a memory name that is 0 or names no memory object is INVALID_VALUE; a
parameter change after the import, an import into an object that has memory, or
storage from an object without memory is INVALID_OPERATION; a pname other than
DEDICATED_MEMORY_OBJECT_EXT is INVALID_ENUM (PROTECTED_MEMORY_OBJECT_EXT needs
EXT_protected_textures, which shimgl lacks), so is a handle type other than
HANDLE_TYPE_OPAQUE_FD_EXT; a descriptor that is not a dma-buf of at least ``size``
bytes, a storage that does not fit in the memory from ``offset`` or an offset that is
not aligned is INVALID_VALUE. The texture and buffer commands' own errors are those of
``glTexStorage*`` and ``glBufferStorage``, and nothing changes on any error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from driver.gallium import PipeFormat, PipeTextureTarget, ResourceTemplate
from driver.gl import enums as E
from driver.gl.buffers import BUFFER_BINDS
from driver.gl.errors import GLError, check, check_enum
from driver.gl.features import call, entry_point
from driver.gl.features.dsa import _texture, _texture_bound
from driver.gl.objects import MAX_NAME, MAX_NAMES_PER_CALL
from driver.gl.textures import bound_texture, texture_targets

__all__ = ["MemoryObject", "tiling_query"]

EXTENSION = "GL_EXT_memory_object"
FD_EXTENSION = "GL_EXT_memory_object_fd"
UUID_SIZE = E.GL_UUID_SIZE_EXT
TILINGS = (E.GL_OPTIMAL_TILING_EXT, E.GL_LINEAR_TILING_EXT)


@dataclass(eq=False)
class MemoryObject:
    name: int
    dedicated: bool = False
    memobj: Any = None           # the screen's memory object, once imported
    size: int = 0
    screen: Any = None

    @property
    def imported(self) -> bool:
        return self.memobj is not None


def _has(ctx, name: str = EXTENSION) -> None:
    check(ctx.api.has_extension(name), E.GL_INVALID_OPERATION, f"{name} is not supported")


def _objects(ctx) -> dict[int, MemoryObject]:
    return ctx.share_group.memory_objects


def _memory(ctx, memory: int) -> MemoryObject:
    """The memory object that storage comes from: it exists and has memory."""
    check(memory != 0, E.GL_INVALID_VALUE, "memory is 0")
    obj = _objects(ctx).get(memory)
    check(obj is not None, E.GL_INVALID_VALUE, f"{memory} is not a memory object")
    check(obj.imported, E.GL_INVALID_OPERATION, f"memory object {memory} has no memory imported")
    return obj


# -- the objects ------------------------------------------------------------------------
@entry_point
def glCreateMemoryObjectsEXT(ctx, n: int) -> list[int]:
    _has(ctx)
    check(n >= 0, E.GL_INVALID_VALUE, "negative n")
    check(n <= MAX_NAMES_PER_CALL, E.GL_OUT_OF_MEMORY, f"{n} names in one call (at most {MAX_NAMES_PER_CALL})")
    objects = _objects(ctx)
    names, nxt = [], max(objects, default=0) + 1
    check(nxt + n - 1 <= MAX_NAME, E.GL_OUT_OF_MEMORY, "no unused names left")
    for _ in range(n):
        objects[nxt] = MemoryObject(nxt)
        names.append(nxt)
        nxt += 1
    return names


@entry_point
def glDeleteMemoryObjectsEXT(ctx, n: int, memoryObjects) -> None:
    _has(ctx)
    check(n >= 0, E.GL_INVALID_VALUE, "negative n")
    for name in list(memoryObjects)[:n]:
        obj = _objects(ctx).pop(int(name), None)
        if obj is not None and obj.imported:
            # textures and buffers placed in it keep references to the memory
            obj.screen.memobj_destroy(obj.memobj)


@entry_point
def glIsMemoryObjectEXT(ctx, memoryObject: int) -> bool:
    _has(ctx)
    return memoryObject != 0 and memoryObject in _objects(ctx)


def _object(ctx, memoryObject: int) -> MemoryObject:
    obj = _objects(ctx).get(memoryObject) if memoryObject else None
    check(obj is not None, E.GL_INVALID_VALUE, f"{memoryObject} is not a memory object")
    return obj


@entry_point
def glMemoryObjectParameterivEXT(ctx, memoryObject: int, pname: int, params) -> None:
    _has(ctx)
    obj = _object(ctx, memoryObject)
    check(not obj.imported, E.GL_INVALID_OPERATION, "the memory object's parameters are immutable once imported")
    check_enum(pname, (E.GL_DEDICATED_MEMORY_OBJECT_EXT,), f"bad pname {pname:#x}")
    obj.dedicated = bool(list(params)[0])


@entry_point
def glGetMemoryObjectParameterivEXT(ctx, memoryObject: int, pname: int) -> list[int]:
    _has(ctx)
    obj = _object(ctx, memoryObject)
    check_enum(pname, (E.GL_DEDICATED_MEMORY_OBJECT_EXT,), f"bad pname {pname:#x}")
    return [int(obj.dedicated)]


@entry_point
def glImportMemoryFdEXT(ctx, memory: int, size: int, handleType: int, fd: int) -> None:
    _has(ctx, FD_EXTENSION)
    check_enum(handleType, (E.GL_HANDLE_TYPE_OPAQUE_FD_EXT,), f"bad handle type {handleType:#x}")
    obj = _object(ctx, memory)
    check(not obj.imported, E.GL_INVALID_OPERATION, f"memory object {memory} already has memory")
    check(size > 0, E.GL_INVALID_VALUE, "size must be positive")
    memobj = ctx.screen.memobj_create_from_handle(int(fd), int(size), obj.dedicated)
    check(memobj is not None, E.GL_INVALID_VALUE, f"fd {fd} is not a dma-buf of at least {size} bytes")
    obj.memobj, obj.size, obj.screen = memobj, int(size), ctx.screen


# -- textures ---------------------------------------------------------------------------
def _storage_mem(ctx, command: str, target: int, args: tuple, memory: int, offset: int) -> None:
    """``command`` (a glTexStorage*) with the storage placed in ``memory`` at ``offset``:
    the texture's state is put back as it was when any error is raised."""
    _has(ctx)
    obj = _memory(ctx, memory)
    check(offset >= 0, E.GL_INVALID_VALUE, "negative offset")
    check(offset <= obj.size, E.GL_INVALID_VALUE, "offset beyond the memory object")
    tex = bound_texture(ctx, target) if target in _bindable(ctx) else None
    if tex is None:                   # the command's own target error
        return call(ctx, command, target, *args)
    saved = (tex.images, tex.immutable, tex.immutable_levels, tex.memory)
    tex.memory = (obj, int(offset))
    try:
        call(ctx, command, target, *args)
    except GLError:
        tex.images, tex.immutable, tex.immutable_levels, tex.memory = saved
        raise


def _bindable(ctx) -> set[int]:
    return texture_targets(ctx.api)


@entry_point
def glTexStorageMem1DEXT(ctx, target, levels, internalFormat, width, memory, offset) -> None:
    _storage_mem(ctx, "glTexStorage1D", target, (levels, internalFormat, width), memory, offset)


@entry_point
def glTexStorageMem2DEXT(ctx, target, levels, internalFormat, width, height, memory, offset) -> None:
    _storage_mem(ctx, "glTexStorage2D", target, (levels, internalFormat, width, height), memory, offset)


@entry_point
def glTexStorageMem3DEXT(ctx, target, levels, internalFormat, width, height, depth, memory, offset) -> None:
    _storage_mem(ctx, "glTexStorage3D", target, (levels, internalFormat, width, height, depth), memory, offset)


@entry_point
def glTexStorageMem2DMultisampleEXT(ctx, target, samples, internalFormat, width, height, fixedSampleLocations,
                                    memory, offset) -> None:
    _storage_mem(ctx, "glTexStorage2DMultisample", target,
                 (samples, internalFormat, width, height, fixedSampleLocations), memory, offset)


@entry_point
def glTexStorageMem3DMultisampleEXT(ctx, target, samples, internalFormat, width, height, depth,
                                    fixedSampleLocations, memory, offset) -> None:
    _storage_mem(ctx, "glTexStorage3DMultisample", target,
                 (samples, internalFormat, width, height, depth, fixedSampleLocations), memory, offset)


def _named(ctx, texture: int, command: str, args: tuple, memory: int, offset: int) -> None:
    """The glTextureStorageMem*EXT forms (with direct state access): the named texture."""
    _has(ctx)
    check(ctx.api.has_extension("GL_ARB_direct_state_access"), E.GL_INVALID_OPERATION,
          "glTextureStorageMem*EXT need direct state access")
    tex = _texture(ctx, texture)
    with _texture_bound(ctx, tex) as target:
        _storage_mem(ctx, command, target, args, memory, offset)


@entry_point
def glTextureStorageMem1DEXT(ctx, texture, levels, internalFormat, width, memory, offset) -> None:
    _named(ctx, texture, "glTexStorage1D", (levels, internalFormat, width), memory, offset)


@entry_point
def glTextureStorageMem2DEXT(ctx, texture, levels, internalFormat, width, height, memory, offset) -> None:
    _named(ctx, texture, "glTexStorage2D", (levels, internalFormat, width, height), memory, offset)


@entry_point
def glTextureStorageMem3DEXT(ctx, texture, levels, internalFormat, width, height, depth, memory, offset) -> None:
    _named(ctx, texture, "glTexStorage3D", (levels, internalFormat, width, height, depth), memory, offset)


@entry_point
def glTextureStorageMem2DMultisampleEXT(ctx, texture, samples, internalFormat, width, height,
                                        fixedSampleLocations, memory, offset) -> None:
    _named(ctx, texture, "glTexStorage2DMultisample",
           (samples, internalFormat, width, height, fixedSampleLocations), memory, offset)


@entry_point
def glTextureStorageMem3DMultisampleEXT(ctx, texture, samples, internalFormat, width, height, depth,
                                        fixedSampleLocations, memory, offset) -> None:
    _named(ctx, texture, "glTexStorage3DMultisample",
           (samples, internalFormat, width, height, depth, fixedSampleLocations), memory, offset)


# -- buffers ----------------------------------------------------------------------------
def _buffer_storage_mem(ctx, buf, size: int, memory: int, offset: int) -> None:
    check(buf is not None, E.GL_INVALID_OPERATION, "no buffer bound")
    check(size > 0, E.GL_INVALID_VALUE, "size must be positive")
    check(offset >= 0, E.GL_INVALID_VALUE, "negative offset")
    check(not buf.immutable, E.GL_INVALID_OPERATION, "immutable buffer")
    obj = _memory(ctx, memory)
    template = ResourceTemplate(PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, int(size), bind=BUFFER_BINDS)
    res = ctx.screen.resource_from_memobj(template, obj.memobj, int(offset))
    check(res is not None and offset + size <= obj.size, E.GL_INVALID_VALUE,
          f"{size} bytes from offset {offset} do not fit in the memory object's {obj.size} "
          f"(offsets are multiples of {ctx.screen.memobj_alignment})")
    if buf.mapped:
        ctx._unmap(buf)
    if buf.resource is not None:
        ctx.screen.resource_destroy(buf.resource)
    buf.resource, buf.size = res, int(size)
    # EXT_external_objects section 6.2: the storage flags are none (no map, no BufferSubData)
    buf.immutable, buf.storage_flags = True, 0


@entry_point
def glBufferStorageMemEXT(ctx, target: int, size: int, memory: int, offset: int) -> None:
    _has(ctx)
    _buffer_storage_mem(ctx, ctx._bound_buffer(target), size, memory, offset)


@entry_point
def glNamedBufferStorageMemEXT(ctx, buffer: int, size: int, memory: int, offset: int) -> None:
    _has(ctx)
    check(ctx.api.has_extension("GL_ARB_direct_state_access"), E.GL_INVALID_OPERATION,
          "glNamedBufferStorageMemEXT needs direct state access")
    buf = ctx.buffers.get(buffer) if buffer else None
    check(buf is not None, E.GL_INVALID_OPERATION, f"{buffer} is not a buffer object")
    _buffer_storage_mem(ctx, buf, size, memory, offset)


# -- queries ----------------------------------------------------------------------------
@entry_point
def glGetUnsignedBytevEXT(ctx, pname: int) -> list[int]:
    _has(ctx)
    if pname == E.GL_DRIVER_UUID_EXT:
        return list(ctx.screen.driver_uuid())
    if pname == E.GL_DEVICE_UUID_EXT:
        return list(ctx.screen.device_uuid())
    return [int(v) for v in call(ctx, "glGetBooleanv", pname)]


@entry_point
def glGetUnsignedBytei_vEXT(ctx, target: int, index: int) -> list[int]:
    _has(ctx)
    if target == E.GL_DEVICE_UUID_EXT:
        check(0 <= index < 1, E.GL_INVALID_VALUE, "index >= NUM_DEVICE_UUIDS_EXT (1)")
        return list(ctx.screen.device_uuid())
    return [int(v) for v in call(ctx, "glGetBooleani_v", target, index)]


def tiling_query(ctx, pname: int) -> list[int] | None:
    """glGetInternalformativ's NUM_TILING_TYPES_EXT / TILING_TYPES_EXT (None: not one)."""
    if pname not in (E.GL_NUM_TILING_TYPES_EXT, E.GL_TILING_TYPES_EXT) or not ctx.api.has_extension(EXTENSION):
        return None
    return [len(TILINGS)] if pname == E.GL_NUM_TILING_TYPES_EXT else list(TILINGS)
