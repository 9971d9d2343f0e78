"""GLSL types.

One class, `GLSLType`, describes every type. Built-in types are interned
singletons (compare them with ``is`` or ``==``); arrays compare structurally
(element type and length); structs and interface blocks compare by identity,
since each declaration makes a new type.

Kinds (`GLSLType.base`):
- "void"
- "bool", "int", "uint", "float", "double", "int64", "uint64" (ARB_gpu_shader_int64's
  int64_t, uint64_t, i64vecN, u64vecN): scalars, vectors (`vector_size` 2-4)
  and, for float/double, matrices (`columns` x `vector_size` rows)
- "sampler": `sampler_dim` ("1D", "2D", "3D", "Cube", "Rect", "Buffer", "2DMS"),
  `sampler_shadow`, `sampler_array`, `sampled_base` ("float", "int", "uint");
  `sampler_external`: OES_EGL_image_external's samplerExternalOES, a 2D float
  sampler of its own type (the driver binds it to TEXTURE_EXTERNAL_OES)
- "image": as samplers, without shadow
- "atomic_uint"
- "struct": `fields` (tuple of `StructField`)
- "block": an interface block; `fields` plus `block_kind` ("uniform", "buffer", "in", "out")
- "array": `element` and `length` (None = unsized)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .versions import GLSLVersion

SCALAR_BASES = ("bool", "int", "uint", "float", "double", "int64", "uint64")
BASES_64 = ("double", "int64", "uint64")


@dataclass(frozen=True, slots=True)
class StructField:
    name: str
    type: "GLSLType"
    # Per-member qualifiers of interface blocks (layout, interpolation, ...);
    # an opaque mapping owned by semantic analysis.
    qualifiers: object = None


@dataclass(frozen=True, eq=False, slots=True)
class GLSLType:
    name: str
    base: str
    vector_size: int = 1  # components of a vector; rows of a matrix
    columns: int = 1  # > 1 only for matrices
    element: "GLSLType | None" = None
    length: int | None = None
    fields: tuple[StructField, ...] = ()
    sampler_dim: str = ""
    sampler_shadow: bool = False
    sampler_array: bool = False
    sampled_base: str = ""
    block_kind: str = ""
    sampler_external: bool = False

    # -- equality: arrays structural, everything else by identity -----------

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, GLSLType):
            return NotImplemented
        if self.base == "array" and other.base == "array":
            return self.length == other.length and self.element == other.element
        return False

    def __hash__(self) -> int:
        if self.base == "array":
            return hash(("array", self.length, self.element))
        return id(self)

    def __repr__(self) -> str:
        return f"GLSLType({self})"

    def __str__(self) -> str:
        if self.base == "array":
            # GLSL spelling: float[3][2] is an array of 3 arrays of 2 floats.
            inner, dims = self, []
            while inner.base == "array":
                dims.append("" if inner.length is None else str(inner.length))
                inner = inner.element
            return inner.name + "".join(f"[{d}]" for d in dims)
        return self.name

    # -- classification ------------------------------------------------------

    @property
    def is_scalar(self) -> bool:
        return self.base in SCALAR_BASES and self.vector_size == 1 and self.columns == 1

    @property
    def is_vector(self) -> bool:
        return self.base in SCALAR_BASES and self.vector_size > 1 and self.columns == 1

    @property
    def is_matrix(self) -> bool:
        return self.columns > 1

    @property
    def is_numeric(self) -> bool:
        """int, uint, float, double, int64 or uint64 scalar, vector or matrix."""
        return self.base in ("int", "uint", "float", "double", "int64", "uint64")

    @property
    def is_boolean(self) -> bool:
        return self.base == "bool"

    @property
    def is_integer(self) -> bool:
        return self.base in ("int", "uint", "int64", "uint64")

    @property
    def is_float(self) -> bool:
        return self.base in ("float", "double")

    @property
    def is_array(self) -> bool:
        return self.base == "array"

    @property
    def is_struct(self) -> bool:
        return self.base == "struct"

    @property
    def is_block(self) -> bool:
        return self.base == "block"

    @property
    def is_sampler(self) -> bool:
        return self.base == "sampler"

    @property
    def is_image(self) -> bool:
        return self.base == "image"

    @property
    def is_opaque(self) -> bool:
        return self.base in ("sampler", "image", "atomic_uint")

    @property
    def is_void(self) -> bool:
        return self.base == "void"

    @property
    def components(self) -> int:
        """Scalar components of a scalar, vector or matrix (0 for anything else)."""
        return self.vector_size * self.columns if self.base in SCALAR_BASES else 0

    def contains(self, pred) -> bool:
        """Whether this type, an element or a member (recursively) satisfies pred."""
        if pred(self):
            return True
        if self.base == "array":
            return self.element.contains(pred)
        return any(f.type.contains(pred) for f in self.fields)

    @property
    def contains_opaque(self) -> bool:
        return self.contains(lambda t: t.is_opaque)

    @property
    def scalar_type(self) -> "GLSLType":
        """The scalar type of a scalar, vector or matrix."""
        return scalar(self.base)

    @property
    def column_type(self) -> "GLSLType":
        """The column vector of a matrix."""
        return vector(self.base, self.vector_size)

    @property
    def row_type(self) -> "GLSLType":
        return vector(self.base, self.columns)

    @property
    def innermost_element(self) -> "GLSLType":
        t = self
        while t.base == "array":
            t = t.element
        return t

    def field_type(self, name: str) -> "GLSLType | None":
        for f in self.fields:
            if f.name == name:
                return f.type
        return None

    def with_base(self, base: str) -> "GLSLType":
        """The same shape with another scalar base (vec3 -> ivec3)."""
        return vector(base, self.vector_size) if self.columns == 1 else matrix(base, self.columns, self.vector_size)


# ---------------------------------------------------------------------------
# Interned built-in types

_BY_NAME: dict[str, GLSLType] = {}
_MIN_VERSION: dict[str, tuple[int, int]] = {}  # name -> (desktop, es) where a keyword


def _add(t: GLSLType, desktop: int, es: int) -> GLSLType:
    _BY_NAME[t.name] = t
    _MIN_VERSION[t.name] = (desktop, es)
    return t


VOID = _add(GLSLType("void", "void"), 110, 100)
_VEC_PREFIX = {"bool": "b", "int": "i", "uint": "u", "float": "", "double": "d", "int64": "i64",
               "uint64": "u64"}
_SCALAR_VERSIONS = {"bool": (110, 100), "int": (110, 100), "uint": (130, 300),
                    "float": (110, 100), "double": (400, 0),
                    "int64": (0, 0), "uint64": (0, 0)}        # only through GL_ARB_gpu_shader_int64
_SCALAR_NAMES = {"int64": "int64_t", "uint64": "uint64_t"}

for _b in SCALAR_BASES:
    _add(GLSLType(_SCALAR_NAMES.get(_b, _b), _b), *_SCALAR_VERSIONS[_b])
    if _b in _SCALAR_NAMES:
        _BY_NAME[_b] = _BY_NAME[_SCALAR_NAMES[_b]]     # scalar(base) and vector(base, 1); not a keyword
    for _n in (2, 3, 4):
        _add(GLSLType(f"{_VEC_PREFIX[_b]}vec{_n}", _b, _n), *_SCALAR_VERSIONS[_b])
for _b, _p in (("float", ""), ("double", "d")):
    for _c in (2, 3, 4):
        for _r in (2, 3, 4):
            _ver = _SCALAR_VERSIONS[_b] if _c == _r else ((120, 300) if _b == "float" else (400, 0))
            _t = _add(GLSLType(f"{_p}mat{_c}x{_r}", _b, _r, _c), *_ver)
            if _c == _r:
                _BY_NAME[f"{_p}mat{_c}"] = _t
                _MIN_VERSION[f"{_p}mat{_c}"] = _ver

ATOMIC_UINT = _add(GLSLType("atomic_uint", "atomic_uint"), 420, 310)

# (name suffix, dim, array, shadow, desktop, es) for float samplers; int/uint
# samplers exist for the non-shadow ones from 1.30 / ES 3.00.
_SAMPLERS = [
    ("1D", "1D", False, False, 110, 0), ("2D", "2D", False, False, 110, 100),
    ("3D", "3D", False, False, 110, 300), ("Cube", "Cube", False, False, 110, 100),
    ("1DShadow", "1D", False, True, 110, 0), ("2DShadow", "2D", False, True, 110, 300),
    ("CubeShadow", "Cube", False, True, 130, 300), ("1DArray", "1D", True, False, 130, 0),
    ("2DArray", "2D", True, False, 130, 300), ("1DArrayShadow", "1D", True, True, 130, 0),
    ("2DArrayShadow", "2D", True, True, 130, 300), ("2DRect", "Rect", False, False, 140, 0),
    ("2DRectShadow", "Rect", False, True, 140, 0), ("Buffer", "Buffer", False, False, 140, 0),
    ("2DMS", "2DMS", False, False, 150, 310), ("2DMSArray", "2DMS", True, False, 150, 0),
    ("CubeArray", "Cube", True, False, 400, 0), ("CubeArrayShadow", "Cube", True, True, 400, 0),
]
for _suffix, _dim, _arr, _shadow, _d, _e in _SAMPLERS:
    _add(GLSLType(f"sampler{_suffix}", "sampler", sampler_dim=_dim, sampler_array=_arr,
                  sampler_shadow=_shadow, sampled_base="float"), _d, _e)
    if not _shadow:
        for _b, _p in (("int", "i"), ("uint", "u")):
            _add(GLSLType(f"{_p}sampler{_suffix}", "sampler", sampler_dim=_dim, sampler_array=_arr,
                          sampled_base=_b), max(_d, 130), max(_e, 300) if _e else 0)

_IMAGES = [("1D", "1D", False, 0), ("2D", "2D", False, 310), ("3D", "3D", False, 310),
           ("2DRect", "Rect", False, 0), ("Cube", "Cube", False, 310), ("Buffer", "Buffer", False, 0),
           ("1DArray", "1D", True, 0), ("2DArray", "2D", True, 310), ("CubeArray", "Cube", True, 0),
           ("2DMS", "2DMS", False, 0), ("2DMSArray", "2DMS", True, 0)]
for _suffix, _dim, _arr, _e in _IMAGES:
    for _b, _p in (("float", ""), ("int", "i"), ("uint", "u")):
        _add(GLSLType(f"{_p}image{_suffix}", "image", sampler_dim=_dim, sampler_array=_arr,
                      sampled_base=_b), 420, _e)

# OES_EGL_image_external (GLSL ES 1.00) and its _essl3 form: a type of no core version
SAMPLER_EXTERNAL = _add(GLSLType("samplerExternalOES", "sampler", sampler_dim="2D", sampled_base="float",
                                 sampler_external=True), 0, 0)

# Extensions that make type names available earlier than their core version.
_EXTENSION_TYPES = {
    "GL_ARB_texture_rectangle": ("sampler2DRect", "sampler2DRectShadow"),
    "GL_ARB_shader_atomic_counters": ("atomic_uint",),
    "GL_OES_EGL_image_external": ("samplerExternalOES",),
    "GL_OES_EGL_image_external_essl3": ("samplerExternalOES",),
    "GL_ARB_shader_image_load_store": tuple(n for n, t in _BY_NAME.items() if t.base == "image"),
    "GL_EXT_texture_array": ("sampler1DArray", "sampler2DArray", "sampler1DArrayShadow",
                             "sampler2DArrayShadow"),
    "GL_ARB_texture_cube_map_array": ("samplerCubeArray", "samplerCubeArrayShadow", "isamplerCubeArray",
                                      "usamplerCubeArray"),
    "GL_ARB_texture_multisample": tuple(f"{p}sampler2DMS{a}" for p in ("", "i", "u") for a in ("", "Array")),
    "GL_OES_texture_storage_multisample_2d_array": tuple(f"{p}sampler2DMSArray" for p in ("", "i", "u")),
    # GLSL ES 3.10: the ES names add the cube-array images too
    **{ext: ("samplerCubeArray", "samplerCubeArrayShadow", "isamplerCubeArray", "usamplerCubeArray",
             "imageCubeArray", "iimageCubeArray", "uimageCubeArray")
       for ext in ("GL_OES_texture_cube_map_array", "GL_EXT_texture_cube_map_array")},
    **{ext: ("samplerBuffer", "isamplerBuffer", "usamplerBuffer", "imageBuffer", "iimageBuffer", "uimageBuffer")
       for ext in ("GL_OES_texture_buffer", "GL_EXT_texture_buffer")},
    # EXT_gpu_shader4 (GLSL 1.10/1.20): unsigned integers and the sampler types of GLSL 1.30/1.40
    "GL_EXT_gpu_shader4": ("uint", "uvec2", "uvec3", "uvec4", "samplerCubeShadow", "sampler1DArray",
                           "sampler2DArray", "sampler1DArrayShadow", "sampler2DArrayShadow",
                           "samplerBuffer", "sampler2DRect", "sampler2DRectShadow")
    + tuple(f"{p}sampler{d}" for p in ("i", "u")
            for d in ("1D", "2D", "3D", "Cube", "2DRect", "1DArray", "2DArray", "Buffer")),
    "GL_ARB_gpu_shader_fp64": tuple(n for n, t in _BY_NAME.items() if t.base == "double"),
    "GL_ARB_gpu_shader_int64": tuple(n for n, t in _BY_NAME.items() if t.base in ("int64", "uint64")
                                     and n in _MIN_VERSION),
}


def builtin_type_names(version: GLSLVersion, extensions=()) -> set[str]:
    """Type-name keywords of this version (plus those enabled by extensions); a new set."""
    return set(builtin_type_names_frozen(version, frozenset(extensions)))


@lru_cache(maxsize=128)
def builtin_type_names_frozen(version: GLSLVersion, extensions: frozenset = frozenset()) -> frozenset[str]:
    """``builtin_type_names`` computed once per (version, extensions): the built-in
    function tables ask it for each of their ~2,000 overloads."""
    names = {n for n, (d, e) in _MIN_VERSION.items() if version.at_least(d, e)}
    for ext in extensions:
        names.update(_EXTENSION_TYPES.get(ext, ()))
    return frozenset(names)


def all_builtin_type_names() -> set[str]:
    return set(_BY_NAME)


def lookup(name: str) -> GLSLType:
    """A built-in type by name (KeyError when there is none)."""
    return _BY_NAME[name]


def scalar(base: str) -> GLSLType:
    return _BY_NAME[base]


def vector(base: str, size: int) -> GLSLType:
    if size == 1:
        return _BY_NAME[base]
    return _BY_NAME[f"{_VEC_PREFIX[base]}vec{size}"]


def matrix(base: str, columns: int, rows: int) -> GLSLType:
    if columns == 1:
        return vector(base, rows)
    return _BY_NAME[f"{'d' if base == 'double' else ''}mat{columns}x{rows}"]


def array_of(element: GLSLType, length: int | None) -> GLSLType:
    return GLSLType(f"{element}[{'' if length is None else length}]", "array",
                    element=element, length=length)


def struct_type(name: str, fields: list[StructField]) -> GLSLType:
    return GLSLType(name, "struct", fields=tuple(fields))


def block_type(name: str, kind: str, fields: list[StructField]) -> GLSLType:
    return GLSLType(name, "block", fields=tuple(fields), block_kind=kind)


VOID = _BY_NAME["void"]
BOOL = _BY_NAME["bool"]
INT = _BY_NAME["int"]
UINT = _BY_NAME["uint"]
FLOAT = _BY_NAME["float"]
DOUBLE = _BY_NAME["double"]
INT64 = _BY_NAME["int64_t"]
UINT64 = _BY_NAME["uint64_t"]
VEC2, VEC3, VEC4 = (_BY_NAME[f"vec{n}"] for n in (2, 3, 4))
IVEC2, IVEC3, IVEC4 = (_BY_NAME[f"ivec{n}"] for n in (2, 3, 4))
UVEC2, UVEC3, UVEC4 = (_BY_NAME[f"uvec{n}"] for n in (2, 3, 4))
BVEC2, BVEC3, BVEC4 = (_BY_NAME[f"bvec{n}"] for n in (2, 3, 4))
MAT2, MAT3, MAT4 = (_BY_NAME[f"mat{n}"] for n in (2, 3, 4))


def implicit_conversion_allowed(src: GLSLType, dst: GLSLType, version: GLSLVersion,
                                extensions=()) -> bool:
    """Whether `src` converts implicitly to `dst` (GLSL 1.20+: int->float, 4.00: ->double).

    ES and GLSL 1.10 have no implicit conversions. uint exists from 1.30.
    """
    if src == dst:
        return True
    if version.es or not version.at_least(120):
        return False
    if src.base not in SCALAR_BASES or dst.base not in SCALAR_BASES:
        return False
    if src.vector_size != dst.vector_size or src.columns != dst.columns:
        return False
    pairs = {("int", "float"), ("uint", "float")}
    if version.at_least(400):
        pairs |= {("int", "uint"), ("int", "double"), ("uint", "double"), ("float", "double")}
    elif "GL_ARB_gpu_shader5" in extensions or "GL_MESA_shader_integer_functions" in extensions:
        pairs.add(("int", "uint"))       # ARB_gpu_shader5 / MESA_shader_integer_functions 4.1.10
    if "GL_ARB_gpu_shader_fp64" in extensions:
        pairs |= {("int", "double"), ("uint", "double"), ("float", "double")}
    if "GL_ARB_gpu_shader_int64" in extensions:          # its section 4.1.10
        pairs |= {("int", "int64"), ("int", "uint64"), ("uint", "uint64"), ("int64", "uint64"),
                  ("int64", "double"), ("uint64", "double")}
    return (src.base, dst.base) in pairs


def type_size_slots(t: GLSLType) -> int:
    """Locations (vec4 slots) a type occupies as a shader input/output."""
    if t.is_array:
        return (t.length or 0) * type_size_slots(t.element)
    if t.is_struct or t.is_block:
        return sum(type_size_slots(f.type) for f in t.fields)
    if t.is_matrix:
        return t.columns * (2 if t.base in BASES_64 and t.vector_size > 2 else 1)
    if t.base in BASES_64 and t.vector_size > 2:
        return 2
    return 1


def is_dual_slot(t: GLSLType) -> bool:
    """A dvec3/dvec4 (or a 64-bit integer vector of 3 or 4, or a matrix, or an array
    of these, whose columns are): 64-bit vectors that need two 32-bit fetch slots
    (Mesa's "dual slot") though a vertex input of this type takes one location."""
    while t.is_array:
        t = t.element
    return t.base in BASES_64 and t.vector_size > 2


def vertex_input_locations(t: GLSLType) -> int:
    """Generic attribute locations a vertex input takes (GLSL 4.60 section 4.4.1,
    ARB_vertex_attrib_64bit): one per scalar or vector, dvec3 and dvec4 included,
    one per matrix column, and that per array element. (Other stages' inputs and
    outputs count a dvec3/dvec4 twice: `type_size_slots`.)"""
    if t.is_array:
        return (t.length or 0) * vertex_input_locations(t.element)
    return t.columns if t.is_matrix else 1


def vertex_fetch_slots(locations: dict[int, bool]) -> dict[int, int]:
    """Generic attribute location -> first 32-bit fetch slot (vertex element index)
    of the locations a program's vertex inputs take, ``locations`` mapping each to
    whether a dual-slot input (`is_dual_slot`) is there. A dual-slot location takes
    two consecutive fetch slots: every such location below another moves that one
    a slot further, so location L goes to L + (dual-slot locations below L), the
    dual-slot mapping Mesa's state tracker makes. Without 64-bit inputs every
    location is its own slot."""
    out, shift = {}, 0
    for loc in sorted(locations):
        out[loc] = loc + shift
        if locations[loc]:
            shift += 1
    return out


def _round_up(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def std_alignment_size(t: GLSLType, std430: bool = False, row_major: bool = False) -> tuple[int, int]:
    """(base alignment, size) in bytes of `t` in a std140 or std430 block (GLSL 4.30 7.6.2.2).

    Unsized arrays have size 0 (the runtime length decides). Arrays' stride is
    `std_array_stride`.
    """
    if t.base in SCALAR_BASES:
        comp = 8 if t.base in BASES_64 else 4
        if t.is_matrix:
            vec = vector(t.base, t.columns if row_major else t.vector_size)
            count = t.vector_size if row_major else t.columns
            return std_alignment_size(array_of(vec, count), std430)
        n = t.vector_size
        align = comp * (4 if n >= 3 else n)
        return align, comp * n
    if t.is_array:
        stride = std_array_stride(t, std430, row_major)
        align, _ = std_alignment_size(t.element, std430, row_major)
        if not std430:
            align = _round_up(align, 16)
        return align, stride * (t.length or 0)
    if t.is_struct or t.is_block:
        offset, align = 0, 0
        for f in t.fields:
            a, size = std_alignment_size(f.type, std430, _row_major(f, row_major))
            offset = _round_up(offset, a) + size
            align = max(align, a)
        if not std430:
            align = _round_up(align, 16)
        return align, _round_up(offset, align)
    raise ValueError(f"type {t} has no std140/std430 layout")


def std_array_stride(t: GLSLType, std430: bool = False, row_major: bool = False) -> int:
    align, size = std_alignment_size(t.element, std430, row_major)
    if not std430:
        align = _round_up(align, 16)
    return _round_up(size, align)


def _row_major(f: StructField, default: bool) -> bool:
    layout = (f.qualifiers or {}).get("layout", {}) if isinstance(f.qualifiers, dict) else {}
    if layout.get("row_major"):
        return True
    if layout.get("column_major"):
        return False
    return default


def block_packing(layout: dict) -> str:
    """The layout ("std140" or "std430") of a uniform or storage block whose layout
    qualifiers, the defaults of `layout(...) uniform;` / `buffer;` before it merged
    in, are ``layout``: std140 when asked for, std430 otherwise. `shared` and
    `packed` (the default) are the implementation's choice (GLSL 4.60 section
    4.4.5); shimgl lays them out as std430, as Mesa does on hardware that reads
    blocks from memory (Asahi and llvmpipe: UseSTD430AsDefaultPacking), so an
    array of scalars is tightly packed. The compiler and the GL's offset queries
    both ask this function."""
    return "std140" if layout.get("std140") else "std430"


def block_member_offsets(block: GLSLType) -> list[tuple[str, int]]:
    """(member name, byte offset) of a uniform or storage block's members.

    std430 when the members' layout qualifiers say so, std140 otherwise (the
    layout of a block without either is ``block_packing``'s choice).
    """
    out = []
    offset = 0
    for f in block.fields:
        layout = f.qualifiers.get("layout", {}) if isinstance(f.qualifiers, dict) else {}
        std430 = bool(layout.get("std430"))
        a, size = std_alignment_size(f.type, std430, _row_major(f, False))
        offset = _round_up(offset, a)
        out.append((f.name, offset))
        offset += size
    return out


__all__ = [
    "std_alignment_size", "std_array_stride", "block_member_offsets", "block_packing",
    "GLSLType", "StructField", "lookup", "scalar", "vector", "matrix", "array_of", "struct_type",
    "block_type", "builtin_type_names", "implicit_conversion_allowed", "type_size_slots",
    "is_dual_slot", "vertex_input_locations", "vertex_fetch_slots",
    "VOID", "BOOL", "INT", "UINT", "FLOAT", "DOUBLE", "INT64", "UINT64", "BASES_64", "VEC2", "VEC3", "VEC4", "IVEC2", "IVEC3",
    "IVEC4", "UVEC2", "UVEC3", "UVEC4", "BVEC2", "BVEC3", "BVEC4", "MAT2", "MAT3", "MAT4",
    "ATOMIC_UINT",
]
