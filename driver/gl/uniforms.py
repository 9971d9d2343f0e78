"""glUniform* / glProgramUniform* / glGetUniform* (GL 4.6 section 7.6.1 and
7.13, GLES 3.2 section 7.6.1).

The default uniform block is stored per program as bytes in the layout its
shaders read (the program's ``compiler.link.DefaultBlock``, std430): element i
of a uniform is at offset_B + i * stride_B, column c of a matrix
matrix_stride_B * c further, components as float32/int32/uint32 (bools as
int32 0/1), doubles and 64-bit integers as 8 bytes. This storage is what the
draw path hands to the pipe as constant buffer 0: the shaders' default block."""

from __future__ import annotations

import struct

import numpy as np

from driver.gl import enums as E
from driver.gl.pointers import pack_values
from driver.gl.state import to_gl_int
from driver.gl.errors import check
from driver.gl.programs import program_object

__all__ = ["UniformMixin"]

_ACCEPTS = {"f": ("float", "bool"), "i": ("int", "bool", "sampler", "image"),
            "ui": ("uint", "bool"), "d": ("double",),
            # ARB_gpu_shader_int64: 64-bit integer uniforms take only their own commands
            "i64": ("int64",), "ui64": ("uint64",)}
_PACK = {"float": "f", "int": "i", "uint": "I", "bool": "i", "sampler": "i", "image": "i", "double": "d",
         "int64": "q", "uint64": "Q"}
#: glUniform* letter -> the uniform kind whose values struct packs as the full path
#: converts them (floats rounded to float32 by a C cast, int32 in range: anything else,
#: an overflow or a wrap, fails to pack and takes the full path)
_FAST_KINDS = {"f": "float", "i": "int"}
_STRUCTS = {f"<{n}{c}": struct.Struct(f"<{n}{c}") for n in (1, 2, 3, 4) for c in "fi"}
#: Bytes of one component in the default block storage
_COMPONENT_B = {"double": 8, "int64": 8, "uint64": 8}


class UniformMixin:
    def _uniform_target(self, program):
        """The program a glUniform / glProgramUniform call writes."""
        if program is None:
            prog = self.current_program
            if prog is None and getattr(self, "bound_pipeline", None) is not None:
                prog = self.bound_pipeline.active_program     # GL 4.6 section 7.4.1
            check(prog is not None, E.GL_INVALID_OPERATION, "no current program")
        else:
            prog = program_object(self, program)
            check(prog.linked, E.GL_INVALID_OPERATION, "program not linked")
        return prog.linked_state

    def _set_uniform(self, program, location: int, count: int, values, letter: str,
                     comps: int, matrix: tuple | None = None, transpose: bool = False) -> None:
        ls = self._uniform_target(program)
        if type(values) is list and count == 1 and matrix is None and len(values) == comps:
            # glUniform{1,2,3,4}{f,i} at a location this link already accepted for the same
            # command: the values packed directly at their offset (a value struct refuses,
            # out of range or of another type, takes the full path below)
            plan = ls.__dict__.get("_uniform_plans", {}).get((location, letter, comps))
            if plan is not None:
                try:
                    raw = _STRUCTS[plan[1]].pack(*values)
                except (struct.error, OverflowError, TypeError, ValueError):
                    pass
                else:
                    ls.uniform_storage.write(plan[0], raw)
                    return
        self._set_uniform_checked(ls, program, location, count, values, letter, comps, matrix, transpose)

    def _set_uniform_checked(self, ls, program, location: int, count: int, values, letter: str,
                             comps: int, matrix: tuple | None, transpose: bool) -> None:
        check(count >= 0, E.GL_INVALID_VALUE, "negative count")
        if matrix is not None and transpose and self.api.es and self.api.version < (3, 0):
            check(False, E.GL_INVALID_VALUE, "transpose must be FALSE in GLES 2.0")
        if location == -1:
            return                    # GL 4.6 section 7.6.1: silently ignored
        entry = ls.locations.get(location)
        check(entry is not None, E.GL_INVALID_OPERATION, f"invalid uniform location {location}")
        u, index = entry
        check(u.kind in _ACCEPTS[letter], E.GL_INVALID_OPERATION,
              f"glUniform*{letter} does not match the type of `{u.name}'")
        if matrix is None:
            check(u.columns == 1 and u.components == comps, E.GL_INVALID_OPERATION,
                  f"size mismatch for `{u.name}'")
            if u.kind in ("sampler", "image"):
                check(comps == 1 and letter == "i", E.GL_INVALID_OPERATION)
        else:
            check((u.columns, u.components) == matrix and u.kind == ("double" if letter == "d" else "float"),
                  E.GL_INVALID_OPERATION, f"matrix size mismatch for `{u.name}'")
        check(count <= 1 or u.is_array, E.GL_INVALID_OPERATION, "count > 1 for a non-array")
        per = comps if matrix is None else matrix[0] * matrix[1]
        # 64-bit integers as Python ints (a uint64 above 2^63 fits no numpy signed type)
        dtype = np.float64 if letter in ("f", "d") else object if letter in ("i64", "ui64") else np.int64
        flat = np.asarray(values, dtype=dtype).ravel()
        check(len(flat) >= per * count, E.GL_INVALID_VALUE, "not enough values")
        n = min(count, u.size - index)
        if u.kind in ("sampler", "image"):
            units = self.caps.max_combined_texture_units if u.kind == "sampler" else \
                self.caps.max_combined_images
            check(all(0 <= int(v) < units for v in flat[:n]), E.GL_INVALID_VALUE,
                  "sampler value out of range")
        if count == 1 and matrix is None and u.kind == _FAST_KINDS.get(letter) and n == 1:
            # the next call with this location, command and width packs directly (_set_uniform)
            ls.__dict__.setdefault("_uniform_plans", {})[(location, letter, comps)] = (
                u.offset_B + index * u.stride_B, f"<{comps}{_PACK[u.kind]}")
        for e in range(n):
            vals = flat[e * per:(e + 1) * per]
            if matrix is not None:
                cols, rows = matrix
                m = vals.reshape((rows, cols)).T if transpose else vals.reshape((cols, rows))
                columns = [list(m[c]) for c in range(cols)]
            else:
                columns = [list(vals)]
            base = u.offset_B + (index + e) * u.stride_B
            slot_B = u.matrix_stride_B
            for c, col in enumerate(columns):
                col = [_convert(v, u.kind) for v in col]
                # (64-bit integers packed exactly: pack_values goes through numpy, where
                # a list mixing values above 2^63 with small ones becomes float64)
                raw = struct.pack(f"<{len(col)}{_PACK[u.kind]}", *col) if u.kind in ("int64", "uint64") \
                    else pack_values(col, _PACK[u.kind])
                ls.uniform_storage.write(base + slot_B * c, raw)

    def _get_uniform(self, program: int, location: int, as_kind: str) -> list:
        prog = program_object(self, program)
        check(prog.linked, E.GL_INVALID_OPERATION, "program not linked")
        entry = prog.linked_state.locations.get(location)
        check(entry is not None, E.GL_INVALID_OPERATION, "invalid location")
        u, index = entry
        base = u.offset_B + index * u.stride_B
        slot_B, comp_B = u.matrix_stride_B, _COMPONENT_B.get(u.kind, 4)
        out = []
        for c in range(u.columns):
            raw = prog.linked_state.uniform_data[base + slot_B * c:base + slot_B * c + comp_B * u.components]
            out += list(struct.unpack(f"<{u.components}{_PACK[u.kind]}", raw))
        if as_kind == "float":
            return [float(v) for v in out]
        return [to_gl_int(v) if isinstance(v, float) else int(v) for v in out]

    def glGetUniformfv(self, program: int, location: int) -> list:
        return self._get_uniform(program, location, "float")

    def glGetUniformiv(self, program: int, location: int) -> list:
        return self._get_uniform(program, location, "int")

    def glGetUniformdv(self, program: int, location: int) -> list:
        check(self.api.gl(4, 0) or self.api.has_extension("GL_ARB_gpu_shader_fp64"), E.GL_INVALID_OPERATION,
              "glGetUniformdv needs GL 4.0 or ARB_gpu_shader_fp64")
        return self._get_uniform(program, location, "float")

    def glGetUniformuiv(self, program: int, location: int) -> list:
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        return [v & 0xFFFFFFFF for v in self._get_uniform(program, location, "int")]

    # -- ARB_gpu_shader_int64 queries: the value as a 64-bit integer (a float or double
    # uniform converted as glGetUniformiv converts it, GL 4.6 section 7.13)
    def _int64_guard(self) -> None:
        check(self.api.has_extension("GL_ARB_gpu_shader_int64"), E.GL_INVALID_OPERATION,
              "64-bit integer uniform commands need GL_ARB_gpu_shader_int64")

    def glGetUniformi64vARB(self, program: int, location: int) -> list:
        self._int64_guard()
        return [_wrap64(v, True) for v in self._get_uniform(program, location, "int")]

    def glGetUniformui64vARB(self, program: int, location: int) -> list:
        self._int64_guard()
        return [_wrap64(v, False) for v in self._get_uniform(program, location, "int")]

    def glGetnUniformi64vARB(self, program: int, location: int, bufSize: int) -> list:
        self._int64_guard()     # (not through the glGetUniformi64vARB entry point: it answers None on an error)
        values = [_wrap64(v, True) for v in self._get_uniform(program, location, "int")]
        check(8 * len(values) <= bufSize, E.GL_INVALID_OPERATION,
              f"the answer needs {8 * len(values)} bytes, bufSize is {bufSize}")
        return values

    def glGetnUniformui64vARB(self, program: int, location: int, bufSize: int) -> list:
        self._int64_guard()     # (not through the glGetUniformui64vARB entry point: it answers None on an error)
        values = [_wrap64(v, False) for v in self._get_uniform(program, location, "int")]
        check(8 * len(values) <= bufSize, E.GL_INVALID_OPERATION,
              f"the answer needs {8 * len(values)} bytes, bufSize is {bufSize}")
        return values


def _wrap64(v: int, signed: bool) -> int:
    v = int(v) & 0xFFFFFFFFFFFFFFFF
    return v - (1 << 64) if signed and v >> 63 else v


def _convert(v, kind):
    if kind == "bool":
        return int(v != 0)
    if kind in ("float", "double"):
        return float(v)
    if kind == "uint":
        return int(v) & 0xFFFFFFFF
    if kind in ("int64", "uint64"):
        return _wrap64(v, kind == "int64")
    return int(v)


def _define_entry_points():
    """glUniform{1,2,3,4}{f,i,ui,d}[v], glUniform{1,2,3,4}{i64,ui64}[v]ARB, glUniformMatrix{N,NxM}{f,d}v and their
    glProgramUniform* forms (GL 4.1 / ES 3.1)."""
    def scalar(n, letter, program_form):
        def fn(self, *args):
            if program_form:
                program, location, *vals = args
            else:
                program, (location, *vals) = None, args
            self._scalar_guard(letter, program_form)
            self._set_uniform(program, location, 1, vals, letter, n)
        return fn

    def vector(n, letter, program_form):
        def fn(self, *args):
            if program_form:
                program, location, count, value = args
            else:
                program, (location, count, value) = None, args
            self._scalar_guard(letter, program_form)
            self._set_uniform(program, location, count, value, letter, n)
        return fn

    def matrix(cols, rows, program_form, letter="f"):
        def fn(self, *args):
            if program_form:
                program, location, count, transpose, value = args
            else:
                program, (location, count, transpose, value) = None, args
            if cols != rows:
                check(self.api.gl_or_es((2, 1), (3, 0)), E.GL_INVALID_OPERATION)
            self._scalar_guard(letter, program_form)
            self._set_uniform(program, location, count, value, letter, rows, (cols, rows),
                              bool(transpose))
        return fn

    for program_form, prefix in ((False, "glUniform"), (True, "glProgramUniform")):
        for n in (1, 2, 3, 4):
            for letter in ("f", "i", "ui", "d", "i64", "ui64"):
                suffix = "ARB" if letter in ("i64", "ui64") else ""     # glUniform1i64ARB, glUniform1i64vARB
                setattr(UniformMixin, f"{prefix}{n}{letter}{suffix}", scalar(n, letter, program_form))
                setattr(UniformMixin, f"{prefix}{n}{letter}v{suffix}", vector(n, letter, program_form))
        for cols in (2, 3, 4):
            for rows in (2, 3, 4):
                suffix = f"{cols}" if cols == rows else f"{cols}x{rows}"
                setattr(UniformMixin, f"{prefix}Matrix{suffix}fv", matrix(cols, rows, program_form))
                setattr(UniformMixin, f"{prefix}Matrix{suffix}dv", matrix(cols, rows, program_form, "d"))


def _scalar_guard(self, letter: str, program_form: bool) -> None:
    if letter == "d":
        check(self.api.gl(4, 0) or self.api.has_extension("GL_ARB_gpu_shader_fp64"), E.GL_INVALID_OPERATION,
              "glUniform*d needs GL 4.0 or ARB_gpu_shader_fp64")
    if letter == "ui":
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
    if letter in ("i64", "ui64"):
        self._int64_guard()
    if program_form:
        check(self.api.gl_or_es((4, 1), (3, 1)), E.GL_INVALID_OPERATION)


UniformMixin._scalar_guard = _scalar_guard
_define_entry_points()
