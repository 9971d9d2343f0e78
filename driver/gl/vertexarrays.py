"""Vertex array objects, generic attribute arrays and current attribute
values (GL 4.6 chapter 10, GLES 3.2 chapter 10)."""

from __future__ import annotations

import struct

from driver.gallium import PipeFormat, VertexBuffer, VertexElement
from driver.gl import enums as E
from driver.gl.errors import check, check_enum
from driver.gl.features.gles_ext import es_vertex_type
from driver.gl.objects import VertexArray
from driver.gl.pointers import ClientMemory

__all__ = ["VertexArrayMixin", "TYPE_SIZES"]

TYPE_SIZES = {E.GL_BYTE: 1, E.GL_UNSIGNED_BYTE: 1, E.GL_SHORT: 2, E.GL_UNSIGNED_SHORT: 2,
              E.GL_INT: 4, E.GL_UNSIGNED_INT: 4, E.GL_FLOAT: 4, E.GL_HALF_FLOAT: 2,
              E.GL_DOUBLE: 8, E.GL_FIXED: 4, E.GL_INT_2_10_10_10_REV: 4,
              E.GL_UNSIGNED_INT_2_10_10_10_REV: 4, E.GL_UNSIGNED_INT_10F_11F_11F_REV: 4}
PACKED = (E.GL_INT_2_10_10_10_REV, E.GL_UNSIGNED_INT_2_10_10_10_REV)
INTEGER_TYPES = frozenset({E.GL_BYTE, E.GL_UNSIGNED_BYTE, E.GL_SHORT, E.GL_UNSIGNED_SHORT,
                           E.GL_INT, E.GL_UNSIGNED_INT})


def attrib_size_B(size: int, type: int) -> int:
    if type in PACKED or type == E.GL_UNSIGNED_INT_10F_11F_11F_REV:
        return 4
    return (4 if size == E.GL_BGRA else size) * TYPE_SIZES[type]


class VertexArrayMixin:
    # -- objects ---------------------------------------------------------------
    def glGenVertexArrays(self, n: int) -> list[int]:
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        check(n >= 0, E.GL_INVALID_VALUE, "negative n")
        return self.vertex_arrays.gen(n)

    def glBindVertexArray(self, array: int) -> None:
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        if array == 0:
            self.vao = self.default_vao
            return
        check(self.vertex_arrays.is_generated(array), E.GL_INVALID_OPERATION,
              "not a vertex array name")
        vao = self.vertex_arrays.get_or_create(array, self.caps.max_vertex_attribs)
        vao.ever_bound = True
        self.vao = vao

    def glIsVertexArray(self, array: int) -> bool:
        vao = self.vertex_arrays.get(array)
        return vao is not None and vao.ever_bound

    def glDeleteVertexArrays(self, n: int, arrays) -> None:
        check(n >= 0, E.GL_INVALID_VALUE, "negative n")
        for name in list(arrays)[:n]:
            if name == 0 or not self.vertex_arrays.is_generated(name):
                continue
            if self.vao is self.vertex_arrays.get(name):
                self.vao = self.default_vao
            self.vertex_arrays.delete(name)

    def _vao_for_edit(self) -> VertexArray:
        # GL 4.6 core section 10.3.1: no vertex array object bound
        check(self.vao is not self.default_vao or not self.api.core, E.GL_INVALID_OPERATION,
              "no vertex array object bound (core profile)")
        return self.vao

    # -- attribute arrays -------------------------------------------------------------
    def _check_index(self, index: int) -> None:
        check(0 <= index < self.caps.max_vertex_attribs, E.GL_INVALID_VALUE,
              "attribute index >= MAX_VERTEX_ATTRIBS")

    def _pointer_types(self, integer: bool) -> set[int]:
        if integer:
            return set(INTEGER_TYPES)
        t = {E.GL_BYTE, E.GL_UNSIGNED_BYTE, E.GL_SHORT, E.GL_UNSIGNED_SHORT, E.GL_FIXED,
             E.GL_FLOAT}
        if self.api.gl_or_es((3, 0), (3, 0)):
            t |= {E.GL_HALF_FLOAT, E.GL_INT, E.GL_UNSIGNED_INT, *PACKED}
        elif self.api.has_extension("GL_OES_vertex_half_float"):
            t.add(E.GL_HALF_FLOAT)              # given as HALF_FLOAT_OES (es_vertex_type)
        if not self.api.es:
            t.add(E.GL_DOUBLE)
        if self.api.has_extension("GL_ARB_vertex_type_10f_11f_11f_rev"):
            t.add(E.GL_UNSIGNED_INT_10F_11F_11F_REV)
        return t

    @staticmethod
    def _check_size_for_type(size, type, normalized) -> None:
        """GL 4.6 section 10.3.2 (table 10.3): the packed types take size 4 or BGRA,
        UNSIGNED_INT_10F_11F_11F_REV size 3, BGRA only normalized unsigned bytes or a
        packed type (INVALID_OPERATION otherwise)."""
        if type in PACKED:
            check(size in (4, E.GL_BGRA), E.GL_INVALID_OPERATION, "packed type needs size 4")
        if type == E.GL_UNSIGNED_INT_10F_11F_11F_REV:
            check(size == 3, E.GL_INVALID_OPERATION, "10F_11F_11F_REV needs size 3")
        if size == E.GL_BGRA:
            check(type in (E.GL_UNSIGNED_BYTE, *PACKED), E.GL_INVALID_OPERATION)
            check(normalized, E.GL_INVALID_OPERATION, "BGRA must be normalized")

    def _set_pointer(self, index, size, type, normalized, stride, pointer, integer):
        self._check_index(index)
        vao = self._vao_for_edit()
        bgra_ok = not self.api.es and not integer
        check(1 <= size <= 4 or (size == E.GL_BGRA and bgra_ok), E.GL_INVALID_VALUE, "bad size")
        check_enum(type, self._pointer_types(integer), f"bad attribute type {type:#x}")
        check(stride >= 0, E.GL_INVALID_VALUE, "negative stride")
        if self.api.gl_or_es((4, 4), (3, 1)):
            check(stride <= self.caps.max_vertex_attrib_stride_B, E.GL_INVALID_VALUE,
                  "stride > MAX_VERTEX_ATTRIB_STRIDE")
        self._check_size_for_type(size, type, normalized)
        array_buffer = self.buffer_bindings.get(E.GL_ARRAY_BUFFER)
        client = array_buffer is None
        if client:
            # GL 4.6 section 10.3.1 / ES 3.0 section 2.9.6: client arrays only with VAO 0
            is_null = pointer is None or pointer == 0 if isinstance(pointer, int) or pointer is None else False
            check(self.vao is self.default_vao or is_null, E.GL_INVALID_OPERATION,
                  "client array pointer with a vertex array object bound")
            if pointer is not None and not isinstance(pointer, int):
                pointer = ClientMemory.wrap(pointer)
        else:
            check(isinstance(pointer, int) and pointer >= 0, E.GL_INVALID_VALUE,
                  "with a buffer bound, pointer is a byte offset")
        a = vao.attribs[index]
        a.size, a.type, a.normalized, a.integer = size, type, bool(normalized), integer
        a.long = False
        a.stride, a.pointer, a.relative_offset, a.binding = stride, pointer, 0, index
        b = vao.bindings[index]
        b.buffer = array_buffer
        b.offset = pointer if isinstance(pointer, int) else 0
        b.stride = stride or attrib_size_B(size, type)

    def glVertexAttribPointer(self, index: int, size: int, type: int, normalized, stride: int,
                              pointer) -> None:
        type = es_vertex_type(self, type)          # HALF_FLOAT_OES (OES_vertex_half_float)
        self._set_pointer(index, size, type, normalized, stride, pointer, integer=False)

    def glVertexAttribIPointer(self, index: int, size: int, type: int, stride: int, pointer) -> None:
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        self._set_pointer(index, size, type, False, stride, pointer, integer=True)

    # Enabling, disabling and the divisor edit the bound vertex array, the default one in a
    # core context without a VAO too: Mesa raises no error there (the GL 4.6 core spec says
    # INVALID_OPERATION; docs/extensions.md, "where shimgl follows Mesa"); drawing from the
    # default VAO in core stays INVALID_OPERATION, as in Mesa
    def glEnableVertexAttribArray(self, index: int) -> None:
        self._check_index(index)
        self.vao.attribs[index].enabled = True

    def glDisableVertexAttribArray(self, index: int) -> None:
        self._check_index(index)
        self.vao.attribs[index].enabled = False

    def glVertexAttribDivisor(self, index: int, divisor: int) -> None:
        check(self.api.gl_or_es((3, 3), (3, 0)), E.GL_INVALID_OPERATION)
        self._check_index(index)
        check(divisor >= 0, E.GL_INVALID_VALUE)
        vao = self.vao
        vao.attribs[index].binding = index
        vao.bindings[index].divisor = int(divisor)

    # GL 4.3 / ES 3.1 separate attribute format and binding
    def glBindVertexBuffer(self, bindingindex: int, buffer: int, offset: int, stride: int) -> None:
        check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
        vao = self._vao_for_edit()
        check(vao is not self.default_vao or not self.api.es, E.GL_INVALID_OPERATION)
        check(0 <= bindingindex < self.caps.max_vertex_buffers, E.GL_INVALID_VALUE)
        check(offset >= 0 and 0 <= stride <= self.caps.max_vertex_attrib_stride_B, E.GL_INVALID_VALUE)
        obj = None
        if buffer:
            check(self.buffers.is_generated(buffer), E.GL_INVALID_OPERATION, "not a buffer name")
            obj = self.buffers.get_or_create(buffer)
        b = vao.bindings[bindingindex]
        b.buffer, b.offset, b.stride = obj, offset, stride

    def _attrib_format(self, attribindex, size, type, normalized, relativeoffset, integer):
        check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
        vao = self._vao_for_edit()
        self._check_index(attribindex)
        # BGRA as glVertexAttribPointer takes it (GL 4.6 section 10.3.2, table 10.3)
        check(1 <= size <= 4 or (size == E.GL_BGRA and not self.api.es and not integer), E.GL_INVALID_VALUE)
        check(0 <= relativeoffset <= 2047, E.GL_INVALID_VALUE, "relative offset too large")
        check_enum(type, self._pointer_types(integer))
        self._check_size_for_type(size, type, normalized)
        a = vao.attribs[attribindex]
        a.size, a.type, a.normalized, a.integer = size, type, bool(normalized), integer
        a.long = False
        a.relative_offset = relativeoffset

    def glVertexAttribFormat(self, attribindex, size, type, normalized, relativeoffset) -> None:
        self._attrib_format(attribindex, size, type, normalized, relativeoffset, False)

    def glVertexAttribIFormat(self, attribindex, size, type, relativeoffset) -> None:
        self._attrib_format(attribindex, size, type, False, relativeoffset, True)

    # -- 64-bit attributes (GL 4.1 / ARB_vertex_attrib_64bit, GL 4.6 section 10.3.1): the
    # components stay doubles; a dvec3/dvec4 shader input reads two vertex elements' worth of
    # them from its one location
    def _long_guard(self) -> None:
        check(self.api.gl(4, 1) or self.api.has_extension("GL_ARB_vertex_attrib_64bit"),
              E.GL_INVALID_OPERATION, "64-bit vertex attributes need GL 4.1 or ARB_vertex_attrib_64bit")

    def glVertexAttribLPointer(self, index: int, size: int, type: int, stride: int, pointer) -> None:
        self._long_guard()
        self._check_index(index)
        check(1 <= size <= 4, E.GL_INVALID_VALUE, "bad size")
        check_enum(type, (E.GL_DOUBLE,), f"bad 64-bit attribute type {type:#x}")
        self._set_pointer(index, size, type, False, stride, pointer, integer=False)
        self.vao.attribs[index].long = True

    def glVertexAttribLFormat(self, attribindex: int, size: int, type: int, relativeoffset: int) -> None:
        self._long_guard()
        check_enum(type, (E.GL_DOUBLE,), f"bad 64-bit attribute type {type:#x}")
        self._attrib_format(attribindex, size, type, False, relativeoffset, False)
        self.vao.attribs[attribindex].long = True

    def _set_current_long(self, index: int, values) -> None:
        self._long_guard()
        self._check_index(index)
        v = [float(x) for x in values]
        self.current_attribs[index] = (tuple(v + [0.0, 0.0, 0.0, 1.0][len(v):]), "double")

    def glGetVertexAttribLdv(self, index: int, pname: int) -> list:
        self._long_guard()
        if pname == E.GL_CURRENT_VERTEX_ATTRIB:
            self._check_index(index)
            return [float(v) for v in self.current_attribs[index][0]]
        return [float(v) for v in (self.glGetVertexAttribiv(index, pname) or [])]

    def _emit_long_attribute(self, loc: int, gtype, buffers: list, by_location: dict, last_vertex,
                             instances: int, fetch_slots: dict) -> None:
        """Vertex elements of a double-precision shader input at location ``loc`` (for
        ``DrawMixin._emit_vertices``). The compiler reads a 64-bit input as 32-bit words,
        four per vertex element: a double or dvec2 fills one element, a dvec3/dvec4 two
        (``fetch_slots``: location -> its first element), a matrix that per column. Each
        column (or array element) takes one location (GLSL 4.60 section 4.4.1), whose
        array's bytes are passed as they are, as raw words (R32G32[B32A32]_FLOAT
        elements at +0 and +16 bytes); a disabled array reads the current value as
        doubles."""
        el = gtype.innermost_element
        per = 2 if el.vector_size > 2 else 1
        columns = (gtype.length or 1 if gtype.is_array else 1) * el.columns
        for c in range(columns):
            first = fetch_slots.get(loc + c, loc + c)
            a = self.vao.attribs[loc + c]
            b = self.vao.bindings[a.binding] if a.enabled else None
            if b is None:
                values, kind = self.current_attribs[loc + c]
                res, off = self.uploader.upload(struct.pack("<4d", *[float(v) for v in values]))
                for half in range(per):
                    buffers.append(VertexBuffer(res, off + 16 * half))
                    by_location[first + half] = VertexElement(0, len(buffers) - 1, PipeFormat.R32G32B32A32_FLOAT, 0)
                continue
            if b.buffer is not None:
                vb = VertexBuffer(b.buffer.resource, b.offset)
            else:
                rows = last_vertex() + 1 if b.divisor == 0 else -(-instances // b.divisor)
                nbytes = max(0, rows - 1) * b.stride + a.relative_offset + attrib_size_B(a.size, a.type)
                mem = a.pointer if isinstance(a.pointer, ClientMemory) else None
                check(mem is not None, E.GL_INVALID_OPERATION, "NULL client array")
                res, off = self.uploader.upload(mem.read(0, nbytes))
                vb = VertexBuffer(res, off)
            buffers.append(vb)
            words = 2 * a.size if a.long else 2 * el.vector_size
            for half in range(per):
                n = min(4, words - 4 * half)
                fmt = PipeFormat.R32G32B32A32_FLOAT if n > 2 else PipeFormat.R32G32_FLOAT
                by_location[first + half] = VertexElement(a.relative_offset + 16 * half, len(buffers) - 1, fmt,
                                                          b.stride, b.divisor)

    def glVertexAttribBinding(self, attribindex: int, bindingindex: int) -> None:
        check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
        vao = self._vao_for_edit()
        self._check_index(attribindex)
        check(0 <= bindingindex < self.caps.max_vertex_buffers, E.GL_INVALID_VALUE)
        vao.attribs[attribindex].binding = bindingindex

    def glVertexBindingDivisor(self, bindingindex: int, divisor: int) -> None:
        check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
        vao = self._vao_for_edit()
        check(0 <= bindingindex < self.caps.max_vertex_buffers, E.GL_INVALID_VALUE)
        vao.bindings[bindingindex].divisor = int(divisor)

    # -- queries -------------------------------------------------------------------
    def glGetVertexAttribiv(self, index: int, pname: int) -> list:
        self._check_index(index)
        if pname == E.GL_CURRENT_VERTEX_ATTRIB:
            return [int(v) for v in self.current_attribs[index][0]]
        a = self.vao.attribs[index]
        b = self.vao.bindings[a.binding]
        values = {
            E.GL_VERTEX_ATTRIB_ARRAY_ENABLED: int(a.enabled),
            E.GL_VERTEX_ATTRIB_ARRAY_SIZE: a.size,
            E.GL_VERTEX_ATTRIB_ARRAY_STRIDE: a.stride,
            E.GL_VERTEX_ATTRIB_ARRAY_TYPE: a.type,
            E.GL_VERTEX_ATTRIB_ARRAY_NORMALIZED: int(a.normalized),
            E.GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING: b.buffer.name if b.buffer else 0,
        }
        if self.api.gl_or_es((3, 0), (3, 0)):
            values[E.GL_VERTEX_ATTRIB_ARRAY_INTEGER] = int(a.integer)
            values[E.GL_VERTEX_ATTRIB_ARRAY_DIVISOR] = b.divisor
        if self.api.gl(4, 1) or self.api.has_extension("GL_ARB_vertex_attrib_64bit"):
            values[E.GL_VERTEX_ATTRIB_ARRAY_LONG] = int(a.long)
        if self.api.gl_or_es((4, 3), (3, 1)):
            values[E.GL_VERTEX_ATTRIB_BINDING] = a.binding
            values[E.GL_VERTEX_ATTRIB_RELATIVE_OFFSET] = a.relative_offset
        check_enum(pname, values)
        return [values[pname]]

    def glGetVertexAttribfv(self, index: int, pname: int) -> list:
        if pname == E.GL_CURRENT_VERTEX_ATTRIB:
            self._check_index(index)
            return [float(v) for v in self.current_attribs[index][0]]
        return [float(v) for v in (self.glGetVertexAttribiv(index, pname) or [])]

    def glGetVertexAttribIiv(self, index: int, pname: int) -> list:
        return self.glGetVertexAttribiv(index, pname)

    def glGetVertexAttribIuiv(self, index: int, pname: int) -> list:
        return self.glGetVertexAttribiv(index, pname)

    def glGetVertexAttribPointerv(self, index: int, pname: int):
        self._check_index(index)
        check_enum(pname, (E.GL_VERTEX_ATTRIB_ARRAY_POINTER,))
        return self.vao.attribs[index].pointer

    # -- current attribute values (GL 4.6 section 10.2) -------------------------------
    def _set_current(self, index: int, values, kind: str) -> None:
        self._check_index(index)
        v = list(values) + [0, 0, 0, 1][len(values):]
        self.current_attribs[index] = (tuple(v), kind)

    def glVertexAttrib1f(self, index, x):
        self._set_current(index, (float(x),), "float")

    def glVertexAttrib2f(self, index, x, y):
        self._set_current(index, (float(x), float(y)), "float")

    def glVertexAttrib3f(self, index, x, y, z):
        self._set_current(index, (float(x), float(y), float(z)), "float")

    def glVertexAttrib4f(self, index, x, y, z, w):
        self._set_current(index, (float(x), float(y), float(z), float(w)), "float")

    def glVertexAttrib1fv(self, index, v):
        self._set_current(index, [float(x) for x in list(v)[:1]], "float")

    def glVertexAttrib2fv(self, index, v):
        self._set_current(index, [float(x) for x in list(v)[:2]], "float")

    def glVertexAttrib3fv(self, index, v):
        self._set_current(index, [float(x) for x in list(v)[:3]], "float")

    def glVertexAttrib4fv(self, index, v):
        self._set_current(index, [float(x) for x in list(v)[:4]], "float")

    def glVertexAttribI4i(self, index, x, y, z, w):
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        self._set_current(index, (int(x), int(y), int(z), int(w)), "int")

    def glVertexAttribI4ui(self, index, x, y, z, w):
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        self._set_current(index, tuple(int(c) & 0xFFFFFFFF for c in (x, y, z, w)), "uint")

    def glVertexAttribI4iv(self, index, v):
        self.glVertexAttribI4i(index, *list(v)[:4])

    def glVertexAttribI4uiv(self, index, v):
        self.glVertexAttribI4ui(index, *list(v)[:4])


def _define_long_entry_points():
    """glVertexAttribL{1,2,3,4}d[v]: the current value as doubles (GL 4.6 section 10.2.1)."""
    def scalar(n):
        def fn(self, index, *values):
            self._set_current_long(index, values[:n])
        fn.__name__ = f"glVertexAttribL{n}d"
        return fn

    def vector(n):
        def fn(self, index, v):
            self._set_current_long(index, list(v)[:n])
        fn.__name__ = f"glVertexAttribL{n}dv"
        return fn

    for n in (1, 2, 3, 4):
        setattr(VertexArrayMixin, f"glVertexAttribL{n}d", scalar(n))
        setattr(VertexArrayMixin, f"glVertexAttribL{n}dv", vector(n))


_define_long_entry_points()
