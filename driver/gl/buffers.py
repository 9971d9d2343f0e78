"""Buffer objects: bind, data, sub-data, map/map-range/flush/unmap, copy,
indexed bindings (GL 4.6 chapter 6, GLES 3.2 chapter 6)."""

from __future__ import annotations

from driver.gallium import Box, PipeBind, PipeFormat, PipeMap, PipeTextureTarget, ResourceTemplate
from driver.gl import enums as E
from driver.gl.errors import allocating, check, check_enum
from driver.gl.features.gles_ext import es_has
from driver.gl.objects import Buffer
from driver.gl.pointers import ClientBytes, as_bytes, client_address

__all__ = ["BUFFER_BINDS", "BufferMixin", "INDEXED_TARGETS", "mapped_not_persistent", "pack_buffer_write", "unpack_buffer_read"]

USAGES = frozenset({E.GL_STREAM_DRAW, E.GL_STREAM_READ, E.GL_STREAM_COPY, E.GL_STATIC_DRAW,
                    E.GL_STATIC_READ, E.GL_STATIC_COPY, E.GL_DYNAMIC_DRAW, E.GL_DYNAMIC_READ,
                    E.GL_DYNAMIC_COPY})
INDEXED_TARGETS = (E.GL_UNIFORM_BUFFER, E.GL_TRANSFORM_FEEDBACK_BUFFER,
                   E.GL_SHADER_STORAGE_BUFFER, E.GL_ATOMIC_COUNTER_BUFFER)
MAP_BITS = (E.GL_MAP_READ_BIT | E.GL_MAP_WRITE_BIT | E.GL_MAP_INVALIDATE_RANGE_BIT
            | E.GL_MAP_INVALIDATE_BUFFER_BIT | E.GL_MAP_FLUSH_EXPLICIT_BIT
            | E.GL_MAP_UNSYNCHRONIZED_BIT | E.GL_MAP_PERSISTENT_BIT | E.GL_MAP_COHERENT_BIT)
STORAGE_BITS = (E.GL_DYNAMIC_STORAGE_BIT | E.GL_MAP_READ_BIT | E.GL_MAP_WRITE_BIT
                | E.GL_MAP_PERSISTENT_BIT | E.GL_MAP_COHERENT_BIT | E.GL_CLIENT_STORAGE_BIT)


def read_buffer(ctx, buf: Buffer, offset: int, size: int) -> bytes:
    """The buffer's bytes as the GPU sees them after all submitted work."""
    if size == 0:
        return b""
    from driver.gallium import buffer_read
    return buffer_read(ctx.pipe, buf.resource, offset, size)



def mapped_not_persistent(buf) -> bool:
    """Whether ``buf`` is mapped without MAP_PERSISTENT_BIT: what the commands that
    read or write a buffer's store refuse (GL 4.6 sections 6.3.2, 6.6)."""
    return buf.mapped and not buf.map_access & E.GL_MAP_PERSISTENT_BIT


def range_mapped_not_persistent(buf, offset: int, size: int) -> bool:
    """Whether bytes ``offset`` .. ``offset + size`` of ``buf`` intersect a mapping without
    MAP_PERSISTENT_BIT (glMapBuffer's is the whole buffer): what glClearBufferSubData and
    glInvalidateBufferSubData refuse (GL 4.6 sections 6.3.3 and 6.5: "any part of the
    specified range"), so the unmapped rest of a mapped buffer may be cleared."""
    return mapped_not_persistent(buf) and offset < buf.map_offset + buf.map_length \
        and buf.map_offset < offset + size


def unpack_buffer_read(ctx, offset, size: int) -> bytes | None:
    """``size`` bytes at byte ``offset`` of the bound PIXEL_UNPACK buffer, or None when
    none is bound (the pointer is client memory then). GL 4.6 section 8.4.4.1 (and GL 2.1
    section 3.6.1 for the fixed-function tables and bitmaps): INVALID_OPERATION when the
    read passes the buffer's end or the buffer is mapped."""
    pbo = ctx.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER)
    if pbo is None:
        return None
    offset = int(offset or 0)
    check(not mapped_not_persistent(pbo), E.GL_INVALID_OPERATION, "unpack buffer mapped")
    check(0 <= offset and offset + size <= pbo.size, E.GL_INVALID_OPERATION, "read beyond the unpack buffer")
    return read_buffer(ctx, pbo, offset, size)


def pack_buffer_write(ctx, offset, data: bytes) -> bool:
    """Write ``data`` at byte ``offset`` of the bound PIXEL_PACK buffer; False when none is
    bound (the caller returns the values to client memory). INVALID_OPERATION past the
    buffer's end or while it is mapped (GL 4.6 section 8.4.4.1's rule for packing)."""
    pbo = ctx.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER)
    if pbo is None:
        return False
    offset = int(offset or 0)
    check(not mapped_not_persistent(pbo), E.GL_INVALID_OPERATION, "pack buffer mapped")
    check(0 <= offset and offset + len(data) <= pbo.size, E.GL_INVALID_OPERATION,
          "write beyond the pack buffer")
    if data:
        ctx.pipe.buffer_subdata(pbo.resource, PipeMap.WRITE, offset, data)
    return True


#: How a GL buffer's resource may be bound (a buffer object may serve every target).
BUFFER_BINDS = (PipeBind.VERTEX_BUFFER | PipeBind.INDEX_BUFFER | PipeBind.CONSTANT_BUFFER | PipeBind.SHADER_BUFFER
               | PipeBind.STREAM_OUTPUT | PipeBind.COMMAND_ARGS_BUFFER | PipeBind.SAMPLER_VIEW)


class BufferMixin:
    def _buffer_targets(self) -> set[int]:
        api = self.api
        t = {E.GL_ARRAY_BUFFER, E.GL_ELEMENT_ARRAY_BUFFER}
        if api.gl_or_es((3, 0), (3, 0)):
            t |= {E.GL_PIXEL_PACK_BUFFER, E.GL_PIXEL_UNPACK_BUFFER, E.GL_COPY_READ_BUFFER,
                  E.GL_COPY_WRITE_BUFFER, E.GL_TRANSFORM_FEEDBACK_BUFFER, E.GL_UNIFORM_BUFFER}
        if api.gl(3, 1) or es_has(api, "texture_buffer"):
            t.add(E.GL_TEXTURE_BUFFER)
        if api.gl_or_es((4, 3), (3, 1)):
            t |= {E.GL_SHADER_STORAGE_BUFFER, E.GL_ATOMIC_COUNTER_BUFFER,
                  E.GL_DRAW_INDIRECT_BUFFER, E.GL_DISPATCH_INDIRECT_BUFFER}
        if api.has_extension("GL_ARB_query_buffer_object"):
            t.add(E.GL_QUERY_BUFFER)
        if api.has_extension("GL_ARB_indirect_parameters"):
            t.add(E.GL_PARAMETER_BUFFER)
        if api.has_extension("GL_AMD_pinned_memory"):
            t.add(E.GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD)
        return t

    # -- the binding of a target -----------------------------------------------------
    def _bound_buffer(self, target: int) -> Buffer | None:
        check_enum(target, self._buffer_targets(), f"bad buffer target {target:#x}")
        if target == E.GL_ELEMENT_ARRAY_BUFFER:
            return self.vao.element_buffer
        return self.buffer_bindings.get(target)

    def _target_buffer(self, target: int) -> Buffer:
        buf = self._bound_buffer(target)
        check(buf is not None, E.GL_INVALID_OPERATION, "no buffer bound to target")
        return buf

    def glGenBuffers(self, n: int) -> list[int]:
        check(n >= 0, E.GL_INVALID_VALUE, "negative n")
        return self.buffers.gen(n)

    def glIsBuffer(self, name: int) -> bool:
        return self.buffers.get(name) is not None

    def _lookup_for_bind(self, namespace, name: int, require_gen: bool):
        if name == 0:
            return None
        if require_gen:
            check(namespace.is_generated(name), E.GL_INVALID_OPERATION,
                  f"name {name} was not generated")
        return namespace.get_or_create(name)

    def glBindBuffer(self, target: int, buffer: int) -> None:
        check_enum(target, self._buffer_targets(), f"bad buffer target {target:#x}")
        obj = self._lookup_for_bind(self.buffers, buffer, self.api.core)
        if target == E.GL_ELEMENT_ARRAY_BUFFER:
            self.vao.element_buffer = obj
        else:
            self.buffer_bindings[target] = obj

    def glBindBufferRange(self, target: int, index: int, buffer: int, offset: int, size: int) -> None:
        self._bind_indexed(target, index, buffer, offset, size, ranged=True)

    def glBindBufferBase(self, target: int, index: int, buffer: int) -> None:
        self._bind_indexed(target, index, buffer, 0, 0, ranged=False)

    def _indexed_limit(self, target: int) -> int:
        c = self.limits
        return {E.GL_UNIFORM_BUFFER: c["GL_MAX_UNIFORM_BUFFER_BINDINGS"],
                E.GL_TRANSFORM_FEEDBACK_BUFFER: c["GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS"],
                E.GL_SHADER_STORAGE_BUFFER: c.get("GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS", 0),
                E.GL_ATOMIC_COUNTER_BUFFER: c.get("GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", 0)}[target]

    def _bind_indexed(self, target, index, buffer, offset, size, ranged):
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        check_enum(target, set(INDEXED_TARGETS) & self._buffer_targets())
        check(0 <= index < self._indexed_limit(target), E.GL_INVALID_VALUE, "binding index out of range")
        if target == E.GL_TRANSFORM_FEEDBACK_BUFFER:
            check(not self.xfb.active, E.GL_INVALID_OPERATION, "transform feedback active")
        obj = self._lookup_for_bind(self.buffers, buffer, self.api.core)
        if ranged and obj is not None:
            # GL 4.6 section 6.1.1
            check(size > 0 and offset >= 0, E.GL_INVALID_VALUE, "bad range")
            align = {E.GL_UNIFORM_BUFFER: self.caps.uniform_buffer_offset_alignment_B,
                     E.GL_SHADER_STORAGE_BUFFER: self.caps.shader_buffer_offset_alignment_B,
                     E.GL_TRANSFORM_FEEDBACK_BUFFER: 4, E.GL_ATOMIC_COUNTER_BUFFER: 4}[target]
            check(offset % align == 0, E.GL_INVALID_VALUE, "misaligned offset")
            if target == E.GL_TRANSFORM_FEEDBACK_BUFFER:
                check(size % 4 == 0, E.GL_INVALID_VALUE, "size not a multiple of 4")
        self.buffer_bindings[target] = obj
        if target == E.GL_TRANSFORM_FEEDBACK_BUFFER:
            self.xfb.buffers[index] = (obj, offset, size if ranged else 0)
        else:
            self.indexed_buffers[target][index] = (obj, offset, size if ranged else 0)

    def glDeleteBuffers(self, n: int, buffers) -> None:
        check(n >= 0, E.GL_INVALID_VALUE, "negative n")
        for name in list(buffers)[:n]:
            obj = self.buffers.get(name)
            if name == 0 or not self.buffers.is_generated(name):
                continue
            if obj is not None:
                self._unbind_buffer_everywhere(obj)
                self.share_group.release(obj, self.screen.resource_destroy)
            self.buffers.delete(name)

    def _unbind_buffer_everywhere(self, obj: Buffer) -> None:
        """GL 4.6 section 5.1.2: deleting a bound object unbinds it from the
        current context's bind points (VAO attachments of the bound VAO too)."""
        for t, b in list(self.buffer_bindings.items()):
            if b is obj:
                self.buffer_bindings[t] = None
        if self.vao.element_buffer is obj:
            self.vao.element_buffer = None
        for binding in self.vao.bindings:
            if binding.buffer is obj:
                binding.buffer = None
        for tbl in self.indexed_buffers.values():
            for i, (b, o, s) in list(tbl.items()):
                if b is obj:
                    tbl[i] = (None, 0, 0)
        if obj.mapped:                       # GL 4.6 section 6.3.1: deletion unmaps
            self._unmap(obj)

    # -- data store ------------------------------------------------------------------
    def _allocate_pinned(self, buf: Buffer, size: int, data) -> None:
        """AMD_pinned_memory: the data store is the client's memory at ``data`` itself
        (no copy), through the screen's ``resource_from_user_memory`` (a GEM object
        over those pages). INVALID_OPERATION when it cannot be mapped to the GPU (no
        pointer, not whole pages, not writable memory), the buffer unchanged."""
        if size == 0:
            return self._allocate(buf, 0, None)
        address = client_address(data)
        check(address is not None and (isinstance(data, ClientBytes) or memoryview(data).nbytes >= size),
              E.GL_INVALID_OPERATION, "no client memory to use as the buffer's store")
        new = self.screen.resource_from_user_memory(ResourceTemplate(
            PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, size, bind=BUFFER_BINDS), address)
        check(new is not None, E.GL_INVALID_OPERATION,
              "the client memory cannot be mapped to the GPU (whole pages of writable memory)")
        if buf.resource is not None:
            self.screen.resource_destroy(buf.resource)
        buf.resource, buf.size = new, size

    def _allocate(self, buf: Buffer, size: int, data) -> None:
        payload = None
        if data is not None:
            raw = as_bytes(data)
            check(len(raw) >= size, E.GL_INVALID_VALUE, "data shorter than size")
            payload = raw[:size]
        new = None
        if size:                    # allocated first: out of memory changes nothing
            with allocating(f"a {size}-byte buffer"):
                new = self.screen.resource_create(ResourceTemplate(
                    PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, size, bind=BUFFER_BINDS))
        if buf.resource is not None:
            self.screen.resource_destroy(buf.resource)
        buf.resource = new
        buf.size = size
        if payload is not None and new is not None:
            self.pipe.buffer_subdata(buf.resource, PipeMap.WRITE, 0, payload)

    def glBufferData(self, target: int, size: int, data, usage: int) -> None:
        buf = self._bound_buffer(target)
        check(size >= 0, E.GL_INVALID_VALUE, "negative size")
        check_enum(usage, USAGES)
        check(buf is not None, E.GL_INVALID_OPERATION, "no buffer bound")
        check(not buf.immutable, E.GL_INVALID_OPERATION, "immutable buffer")
        if buf.mapped:
            self._unmap(buf)       # GL 4.6 section 6.2: respecifying unmaps
        if target == E.GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD:
            self._allocate_pinned(buf, int(size), data)
        else:
            self._allocate(buf, int(size), data)
        buf.usage = usage
        # GL 4.6 table 6.3: BufferData's storage may be mapped either way and updated
        buf.storage_flags = E.GL_MAP_READ_BIT | E.GL_MAP_WRITE_BIT | E.GL_DYNAMIC_STORAGE_BIT

    def glBufferStorage(self, target: int, size: int, data, flags: int) -> None:
        check(self.api.has_extension("GL_ARB_buffer_storage") or self.api.has_extension("GL_EXT_buffer_storage"),
              E.GL_INVALID_OPERATION)
        buf = self._bound_buffer(target)
        check(size > 0, E.GL_INVALID_VALUE, "size must be positive")
        check(flags & ~STORAGE_BITS == 0, E.GL_INVALID_VALUE, "bad storage flags")
        # GL 4.6 section 6.2: persistent needs read or write; coherent needs persistent
        check(not flags & E.GL_MAP_PERSISTENT_BIT or flags & (E.GL_MAP_READ_BIT | E.GL_MAP_WRITE_BIT),
              E.GL_INVALID_VALUE, "MAP_PERSISTENT_BIT without MAP_READ_BIT or MAP_WRITE_BIT")
        check(not flags & E.GL_MAP_COHERENT_BIT or flags & E.GL_MAP_PERSISTENT_BIT,
              E.GL_INVALID_VALUE, "MAP_COHERENT_BIT without MAP_PERSISTENT_BIT")
        check(buf is not None, E.GL_INVALID_OPERATION)
        check(not buf.immutable, E.GL_INVALID_OPERATION)
        if target == E.GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD:     # the client's memory, as BufferData (Mesa)
            self._allocate_pinned(buf, int(size), data)
        else:
            self._allocate(buf, int(size), data)
        buf.immutable, buf.storage_flags = True, flags

    def glBufferSubData(self, target: int, offset: int, size: int, data) -> None:
        buf = self._bound_buffer(target)
        check(offset >= 0 and size >= 0, E.GL_INVALID_VALUE, "negative offset or size")
        check(buf is not None, E.GL_INVALID_OPERATION, "no buffer bound")
        check(offset + size <= buf.size, E.GL_INVALID_VALUE, "range beyond the buffer")
        check(not buf.mapped or buf.map_access & E.GL_MAP_PERSISTENT_BIT,
              E.GL_INVALID_OPERATION, "buffer is mapped")
        check(not buf.immutable or buf.storage_flags & E.GL_DYNAMIC_STORAGE_BIT,
              E.GL_INVALID_OPERATION, "immutable storage without DYNAMIC_STORAGE_BIT")
        raw = as_bytes(data)
        check(len(raw) >= size, E.GL_INVALID_VALUE, "data shorter than size")
        if size:
            self.pipe.buffer_subdata(buf.resource, PipeMap.WRITE, offset, bytes(raw[:size]))

    def glGetBufferSubData(self, target: int, offset: int, size: int) -> bytes:
        check(not self.api.es, E.GL_INVALID_OPERATION)
        buf = self._bound_buffer(target)
        check(offset >= 0 and size >= 0, E.GL_INVALID_VALUE)
        check(buf is not None, E.GL_INVALID_OPERATION)
        check(offset + size <= buf.size, E.GL_INVALID_VALUE)
        check(not buf.mapped or buf.map_access & E.GL_MAP_PERSISTENT_BIT, E.GL_INVALID_OPERATION)
        return read_buffer(self, buf, offset, size)

    # -- mapping -------------------------------------------------------------------
    def glMapBufferRange(self, target: int, offset: int, length: int, access: int):
        """Returns a writable memoryview of `length` bytes (the C ABI hands out
        its address). GL 4.6 section 6.3 errors."""
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        return self._map_range(target, offset, length, access)

    def _map_range(self, target: int, offset: int, length: int, access: int):
        """glMapBufferRange without its version check: glMapBuffer (desktop GL,
        and GLES 2.0 with OES_mapbuffer) maps through it too."""
        buf = self._bound_buffer(target)
        check(offset >= 0 and length >= 0, E.GL_INVALID_VALUE, "negative offset or length")
        check(buf is not None, E.GL_INVALID_OPERATION, "no buffer bound")
        check(offset + length <= buf.size, E.GL_INVALID_VALUE, "range beyond the buffer")
        check(length > 0, E.GL_INVALID_VALUE, "zero length")
        check(access & ~MAP_BITS == 0, E.GL_INVALID_VALUE, "unknown access bits")
        check(not buf.mapped, E.GL_INVALID_OPERATION, "already mapped")
        rw = access & (E.GL_MAP_READ_BIT | E.GL_MAP_WRITE_BIT)
        check(rw != 0, E.GL_INVALID_OPERATION, "neither READ nor WRITE")
        check(not (access & E.GL_MAP_READ_BIT and access & (
            E.GL_MAP_INVALIDATE_RANGE_BIT | E.GL_MAP_INVALIDATE_BUFFER_BIT
            | E.GL_MAP_UNSYNCHRONIZED_BIT)), E.GL_INVALID_OPERATION, "READ with invalidate/unsync")
        check(not (access & E.GL_MAP_FLUSH_EXPLICIT_BIT and not access & E.GL_MAP_WRITE_BIT),
              E.GL_INVALID_OPERATION, "FLUSH_EXPLICIT without WRITE")
        if buf.immutable:
            for bit in (E.GL_MAP_READ_BIT, E.GL_MAP_WRITE_BIT, E.GL_MAP_PERSISTENT_BIT,
                        E.GL_MAP_COHERENT_BIT):
                check(not access & bit or buf.storage_flags & bit, E.GL_INVALID_OPERATION,
                      "access not allowed by the storage flags")
        else:
            check(not access & E.GL_MAP_PERSISTENT_BIT, E.GL_INVALID_OPERATION,
                  "PERSISTENT on mutable storage")
        usage = PipeMap(0)
        for bit, flag in ((E.GL_MAP_READ_BIT, PipeMap.READ), (E.GL_MAP_WRITE_BIT, PipeMap.WRITE),
                          (E.GL_MAP_INVALIDATE_RANGE_BIT, PipeMap.DISCARD_RANGE),
                          (E.GL_MAP_INVALIDATE_BUFFER_BIT, PipeMap.DISCARD_WHOLE_RESOURCE),
                          (E.GL_MAP_FLUSH_EXPLICIT_BIT, PipeMap.FLUSH_EXPLICIT),
                          (E.GL_MAP_UNSYNCHRONIZED_BIT, PipeMap.UNSYNCHRONIZED),
                          (E.GL_MAP_PERSISTENT_BIT, PipeMap.PERSISTENT),
                          (E.GL_MAP_COHERENT_BIT, PipeMap.COHERENT)):
            if access & bit:
                usage |= flag
        # Mesa's st_bufferobj_map_range: the pipe's transfer is the mapping
        tr = self.pipe.transfer_map(buf.resource, 0, usage, Box(offset, 0, 0, length))
        buf.mapped, buf.map_offset, buf.map_length, buf.map_access = True, offset, length, access
        buf.map_view = tr
        return tr.data

    def _has_mapbuffer(self) -> bool:
        """glMapBuffer and BUFFER_ACCESS exist: desktop GL, or GLES with
        OES_mapbuffer (which allows only WRITE_ONLY_OES)."""
        return not self.api.es or self.api.has_extension("GL_OES_mapbuffer")

    def glMapBuffer(self, target: int, access: int):
        """GL 4.6 section 6.3.1; in GLES, OES_mapbuffer's glMapBufferOES: the
        access must be WRITE_ONLY_OES (else INVALID_ENUM)."""
        check(self._has_mapbuffer(), E.GL_INVALID_OPERATION)
        bits = {E.GL_WRITE_ONLY: E.GL_MAP_WRITE_BIT}
        if not self.api.es:
            bits |= {E.GL_READ_ONLY: E.GL_MAP_READ_BIT,
                     E.GL_READ_WRITE: E.GL_MAP_READ_BIT | E.GL_MAP_WRITE_BIT}
        check_enum(access, bits)
        buf = self._bound_buffer(target)
        check(buf is not None, E.GL_INVALID_OPERATION, "no buffer bound")
        check(not buf.mapped, E.GL_INVALID_OPERATION, "already mapped")
        if buf.size == 0:
            buf.mapped, buf.map_offset, buf.map_length, buf.map_access = True, 0, 0, bits[access]
            buf.map_view = None
            return memoryview(b"")
        return self._map_range(target, 0, buf.size, bits[access])

    def glFlushMappedBufferRange(self, target: int, offset: int, length: int) -> None:
        buf = self._bound_buffer(target)
        check(offset >= 0 and length >= 0, E.GL_INVALID_VALUE)
        check(buf is not None and buf.mapped, E.GL_INVALID_OPERATION, "not mapped")
        check(buf.map_access & E.GL_MAP_FLUSH_EXPLICIT_BIT, E.GL_INVALID_OPERATION,
              "mapped without FLUSH_EXPLICIT")
        check(offset + length <= buf.map_length, E.GL_INVALID_VALUE, "range beyond the mapping")
        self.pipe.transfer_flush_region(buf.map_view, Box(offset, 0, 0, length))

    def _unmap(self, buf: Buffer) -> None:
        if buf.map_view is not None:
            self.pipe.transfer_unmap(buf.map_view)
        buf.mapped = False
        buf.map_offset = buf.map_length = buf.map_access = 0
        buf.map_view = None

    def glUnmapBuffer(self, target: int) -> bool:
        buf = self._bound_buffer(target)
        check(buf is not None and buf.mapped, E.GL_INVALID_OPERATION, "not mapped")
        self._unmap(buf)
        return True

    def glGetBufferPointerv(self, target: int, pname: int):
        check_enum(pname, (E.GL_BUFFER_MAP_POINTER,))
        buf = self._target_buffer(target)
        return buf.map_view.data if buf.mapped and buf.map_view is not None else None

    # -- copies and queries ------------------------------------------------------------
    def glCopyBufferSubData(self, read_target: int, write_target: int, read_offset: int,
                            write_offset: int, size: int) -> None:
        check(self.api.gl_or_es((3, 1), (3, 0)), E.GL_INVALID_OPERATION)
        src = self._bound_buffer(read_target)
        dst = self._bound_buffer(write_target)
        check(src is not None and dst is not None, E.GL_INVALID_OPERATION, "no buffer bound")
        # GL 4.6 section 6.6
        check(read_offset >= 0 and write_offset >= 0 and size >= 0, E.GL_INVALID_VALUE)
        check(read_offset + size <= src.size and write_offset + size <= dst.size,
              E.GL_INVALID_VALUE, "range beyond a buffer")
        if src is dst:
            check(abs(read_offset - write_offset) >= size, E.GL_INVALID_VALUE, "overlapping ranges")
        # GL 4.6 section 6.6: a buffer mapped without MAP_PERSISTENT_BIT cannot be copied
        check(not mapped_not_persistent(src) and not mapped_not_persistent(dst),
              E.GL_INVALID_OPERATION, "buffer mapped")
        if size:
            self.pipe.resource_copy_region(dst.resource, 0, write_offset, 0, 0, src.resource, 0,
                                           Box(read_offset, 0, 0, size))

    def glGetBufferParameteriv(self, target: int, pname: int) -> list[int]:
        buf = self._bound_buffer(target)
        values = {E.GL_BUFFER_SIZE: lambda b: b.size, E.GL_BUFFER_USAGE: lambda b: b.usage,
                  E.GL_BUFFER_MAPPED: lambda b: int(b.mapped)}
        if self.api.gl_or_es((3, 0), (3, 0)):
            values |= {E.GL_BUFFER_ACCESS_FLAGS: lambda b: b.map_access,
                       E.GL_BUFFER_MAP_OFFSET: lambda b: b.map_offset,
                       E.GL_BUFFER_MAP_LENGTH: lambda b: b.map_length}
        if self._has_mapbuffer():
            # GL's initial BUFFER_ACCESS is READ_WRITE; OES_mapbuffer's (its only value)
            # is WRITE_ONLY_OES
            unmapped = E.GL_WRITE_ONLY if self.api.es else E.GL_READ_WRITE
            values[E.GL_BUFFER_ACCESS] = lambda b: {
                E.GL_MAP_READ_BIT: E.GL_READ_ONLY, E.GL_MAP_WRITE_BIT: E.GL_WRITE_ONLY,
                E.GL_MAP_READ_BIT | E.GL_MAP_WRITE_BIT: E.GL_READ_WRITE}.get(
                b.map_access & 3, unmapped)
        if not self.api.es or self.api.has_extension("GL_EXT_buffer_storage"):
            values[E.GL_BUFFER_IMMUTABLE_STORAGE] = lambda b: int(b.immutable)
            values[E.GL_BUFFER_STORAGE_FLAGS] = lambda b: b.storage_flags
        check_enum(pname, values)
        check(buf is not None, E.GL_INVALID_OPERATION, "no buffer bound")
        return [int(values[pname](buf))]

    def glGetBufferParameteri64v(self, target: int, pname: int) -> list[int]:
        check(self.api.gl_or_es((3, 2), (3, 0)), E.GL_INVALID_OPERATION)
        return self.glGetBufferParameteriv(target, pname)

    def _mapped_buffers_in_use(self) -> bool:
        """GL 4.6 section 6.3.2: drawing from a non-persistently mapped buffer is
        INVALID_OPERATION: the vertex arrays' and the element buffer here; the
        DRAW_INDIRECT_BUFFER only for the draws that read it (draws._indirect_buffer:
        a plain draw with a mapped indirect buffer bound is legal; Blender's EEVEE
        keeps its indirect buffer mapped while it draws)."""
        def bad(b):
            return b is not None and mapped_not_persistent(b)
        if bad(self.vao.element_buffer):
            return True
        for a in self.vao.attribs:
            if a.enabled and bad(self.vao.bindings[a.binding].buffer):
                return True
        return False
