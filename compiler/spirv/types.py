"""SPIR-V types and constants of a module: the GLSL type each type id stands for,
and the value of each constant after specialization.

``SpirvTypes(module)``: ``info(id)`` is the decoded OpType* (``TypeInfo``),
``glsl(id)`` the equivalent ``compiler.glsl.types.GLSLType`` (structs become
``shimgl_spv_s<id>`` with members ``m0, m1, ...``: SPIR-V names are not used).

``evaluate_constants(module, types, spec)``: id -> Python value of every
OpConstant*/OpSpecConstant* (bool, int as the unsigned 32-bit pattern's
meaning for its signedness, float; composites as lists), with ``spec``
(SpecId -> 32-bit word) replacing the defaults of the specialization constants
and OpSpecConstantOp folded. Raises ``SpirvError`` for what cannot be folded.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from compiler.glsl import types as GT

from .module import Module, SpirvError
from .spec import DIM, STORAGE_NAME

__all__ = ["TypeInfo", "SpirvTypes", "evaluate_constants", "null_value"]


@dataclass
class TypeInfo:
    kind: str               # void bool int float vector matrix array runtime_array struct pointer function
    #                         image sampler sampled_image
    width: int = 32
    signed: bool = True
    element: int = 0        # vector/matrix/array element type id; pointer pointee
    count: int = 1          # vector components, matrix columns, array length
    members: tuple[int, ...] = ()
    storage: str = ""       # pointers
    dim: str = ""           # images
    depth: bool = False
    arrayed: bool = False
    ms: bool = False
    sampled: int = 1        # 1: sampled image, 2: storage image
    image_format: int = 0


class SpirvTypes:
    def __init__(self, module: Module, constants: dict | None = None):
        self.m = module
        self.infos: dict[int, TypeInfo] = {}
        self._glsl: dict[int, GT.GLSLType] = {}
        self.constants = constants if constants is not None else {}
        for ins in module.globals:
            if ins.op.startswith("Type"):
                self.infos[ins.result] = self._decode(ins)

    def _decode(self, ins) -> TypeInfo:
        o = ins.operands
        op = ins.op
        if op == "TypeVoid":
            return TypeInfo("void")
        if op == "TypeBool":
            return TypeInfo("bool", 1)
        if op == "TypeInt":
            if o[0] not in (32, 64):
                raise SpirvError(f"{o[0]}-bit integers are not supported")
            return TypeInfo("int", o[0], bool(o[1]))
        if op == "TypeFloat":
            if o[0] not in (32, 64):
                raise SpirvError(f"{o[0]}-bit floats are not supported")
            return TypeInfo("float", o[0])
        if op == "TypeVector":
            return TypeInfo("vector", element=o[0], count=o[1])
        if op == "TypeMatrix":
            return TypeInfo("matrix", element=o[0], count=o[1])
        if op == "TypeArray":
            return TypeInfo("array", element=o[0], count=-o[1])   # length id, resolved lazily
        if op == "TypeRuntimeArray":
            return TypeInfo("runtime_array", element=o[0], count=0)
        if op == "TypeStruct":
            return TypeInfo("struct", members=tuple(o))
        if op == "TypePointer":
            return TypeInfo("pointer", storage=STORAGE_NAME.get(o[0], str(o[0])), element=o[1])
        if op == "TypeFunction":
            return TypeInfo("function", element=o[0], members=tuple(o[1:]))
        if op == "TypeImage":
            return TypeInfo("image", element=o[0], dim=DIM.get(o[1], "?"), depth=o[2] == 1, arrayed=bool(o[3]),
                            ms=bool(o[4]), sampled=o[5], image_format=o[6])
        if op == "TypeSampler":
            return TypeInfo("sampler")
        if op == "TypeSampledImage":
            return TypeInfo("sampled_image", element=o[0])
        raise SpirvError(f"Op{op} is not supported")

    def info(self, tid: int) -> TypeInfo:
        t = self.infos.get(tid)
        if t is None:
            raise SpirvError(f"%{tid} is not a type")
        if t.kind == "array" and t.count <= 0:
            n = self.constants.get(-t.count)
            if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
                raise SpirvError(f"the length of array type %{tid} is not a positive integer constant")
            t.count = n
        return t

    def scalar_base(self, tid: int) -> str:
        """GLSL base of a scalar/vector/matrix type: float double int uint bool int64 uint64."""
        t = self.info(tid)
        while t.kind in ("vector", "matrix"):
            t = self.info(t.element)
        if t.kind == "bool":
            return "bool"
        if t.kind == "float":
            return "double" if t.width == 64 else "float"
        if t.kind == "int":
            return ("int" if t.signed else "uint") + ("64" if t.width == 64 else "")
        raise SpirvError(f"%{tid} is not a numeric type")

    def components(self, tid: int) -> int:
        t = self.info(tid)
        return t.count if t.kind == "vector" else 1

    def glsl(self, tid: int) -> GT.GLSLType:
        g = self._glsl.get(tid)
        if g is not None:
            return g
        t = self.info(tid)
        if t.kind in ("bool", "int", "float"):
            g = GT.scalar(self.scalar_base(tid))
        elif t.kind == "vector":
            g = GT.vector(self.scalar_base(tid), t.count)
        elif t.kind == "matrix":
            col = self.info(t.element)
            g = GT.matrix(self.scalar_base(tid), t.count, col.count)
        elif t.kind in ("array", "runtime_array"):
            g = GT.array_of(self.glsl(t.element), t.count if t.kind == "array" else None)
        elif t.kind == "struct":
            g = GT.struct_type(f"shimgl_spv_s{tid}",
                               [GT.StructField(f"m{i}", self.glsl(m)) for i, m in enumerate(t.members)])
        elif t.kind in ("image", "sampled_image"):
            g = GT.lookup(self.opaque_name(tid))
        elif t.kind == "void":
            g = GT.VOID
        else:
            raise SpirvError(f"%{tid} ({t.kind}) has no GLSL equivalent")
        self._glsl[tid] = g
        return g

    def opaque_name(self, tid: int) -> str:
        """The GLSL sampler or image type name of an image / sampled image type."""
        t = self.info(tid)
        sampled = t.kind == "sampled_image"
        img = self.info(t.element) if sampled else t
        base = self.scalar_base(img.element)
        prefix = {"float": "", "int": "i", "uint": "u"}.get(base)
        if prefix is None:
            raise SpirvError(f"images of {base} are not supported")
        dim = {"1D": "1D", "2D": "2D", "3D": "3D", "Cube": "Cube", "Rect": "2DRect", "Buffer": "Buffer"}.get(img.dim)
        if dim is None:
            raise SpirvError(f"image dimension {img.dim} is not supported")
        if img.ms:
            dim = "2DMS"
        name = f"{prefix}{'sampler' if sampled and img.sampled != 2 else 'image'}{dim}"
        if img.arrayed:
            name += "Array"
        if img.depth and sampled and img.sampled != 2:
            name += "Shadow"
        return name

    def layout_size_B(self, tid: int, row_major: bool = False, matrix_stride_B: int = 16) -> int:
        """Bytes a value of ``tid`` spans in a buffer with explicit layout (Offset /
        ArrayStride / MatrixStride / RowMajor decorations): up to the end of its last
        component (an array: its last element's end, a struct: its furthest member's)."""
        t = self.info(tid)
        m = self.m
        if t.kind in ("bool", "int", "float"):
            return max(4, t.width // 8)
        if t.kind == "vector":
            return t.count * self.layout_size_B(t.element)
        if t.kind == "matrix":
            col = self.info(t.element)
            scalar = self.layout_size_B(col.element)
            if row_major:
                return (col.count - 1) * matrix_stride_B + t.count * scalar
            return (t.count - 1) * matrix_stride_B + col.count * scalar
        if t.kind == "array":
            stride = m.decoration(tid, "ArrayStride")
            element = self.layout_size_B(t.element, row_major, matrix_stride_B)
            return (t.count - 1) * (stride[0] if stride else element) + element
        if t.kind == "runtime_array":
            return 0
        if t.kind == "struct":
            end = 0
            for i, mid in enumerate(t.members):
                off = m.decoration(tid, "Offset", i)
                ms = m.decoration(tid, "MatrixStride", i)
                size = self.layout_size_B(mid, m.has(tid, "RowMajor", i), ms[0] if ms else 16)
                end = max(end, (off[0] if off else 0) + size)
            return end
        raise SpirvError(f"%{tid} has no buffer layout")


def _f32(word: int) -> float:
    return struct.unpack("<f", struct.pack("<I", word & 0xFFFFFFFF))[0]


def _word(value, base: str) -> int:
    if base == "float":
        return struct.unpack("<I", struct.pack("<f", value))[0]
    return int(value) & 0xFFFFFFFF


def _scalar_from_words(types: SpirvTypes, tid: int, words) -> object:
    t = types.info(tid)
    if t.kind == "float":
        if t.width == 64:
            return struct.unpack("<d", struct.pack("<II", words[0], words[1]))[0]
        return _f32(words[0])
    if t.kind == "int":
        v = words[0] if t.width == 32 else words[0] | (words[1] << 32)
        if t.signed and v >> (t.width - 1):
            v -= 1 << t.width
        return v
    raise SpirvError(f"OpConstant of type %{tid} ({t.kind})")


def null_value(types: SpirvTypes, tid: int):
    """The zero of type ``tid`` as a constant value (OpConstantNull, OpUndef)."""
    t = types.info(tid)
    if t.kind == "bool":
        return False
    if t.kind == "int":
        return 0
    if t.kind == "float":
        return 0.0
    if t.kind in ("vector", "matrix", "array"):
        return [null_value(types, t.element) for _ in range(t.count)]
    if t.kind == "struct":
        return [null_value(types, m) for m in t.members]
    raise SpirvError(f"no null value of type %{tid} ({t.kind})")


def _wrap_int(types: SpirvTypes, tid: int, v: int) -> int:
    t = types.info(tid)
    v &= (1 << t.width) - 1
    if t.signed and v >> (t.width - 1):
        v -= 1 << t.width
    return v


def evaluate_constants(module: Module, types: SpirvTypes, spec: dict[int, int] | None = None) -> dict:
    spec = spec or {}
    values: dict[int, object] = {}
    types.constants = values
    for ins in module.globals:
        op, o, tid = ins.op, ins.operands, ins.type_id
        if not op.startswith(("Constant", "SpecConstant")):
            continue
        spec_id = module.decoration(ins.result, "SpecId")
        override = spec.get(spec_id[0]) if spec_id else None
        if op in ("ConstantTrue", "ConstantFalse", "SpecConstantTrue", "SpecConstantFalse"):
            v = op.endswith("True")
            if op.startswith("Spec") and override is not None:
                v = bool(override)
        elif op in ("Constant", "SpecConstant"):
            words = list(o)
            if op == "SpecConstant" and override is not None:
                words[0] = override & 0xFFFFFFFF
            v = _scalar_from_words(types, tid, words)
        elif op in ("ConstantComposite", "SpecConstantComposite"):
            try:
                v = [values[c] for c in o]
            except KeyError as e:
                raise SpirvError(f"constant %{ins.result} uses %{e.args[0]}, which is not a constant") from None
        elif op == "ConstantNull":
            v = null_value(types, tid)
        elif op == "SpecConstantOp":
            v = _fold(types, tid, o[0], [values.get(x, x) for x in o[1:]], o[1:], values)
        else:
            raise SpirvError(f"Op{op} is not supported")
        values[ins.result] = v
    return values


def _fold(types: SpirvTypes, tid: int, opcode: int, args, raw, values):
    from .spec import OPCODES
    name = OPCODES.get(opcode, (str(opcode),))[0]

    def num(i):
        v = args[i]
        if raw[i] not in values:
            raise SpirvError(f"OpSpecConstantOp {name} reads %{raw[i]}, which is not a constant")
        return v

    def per(fn, *vals):
        if isinstance(vals[0], list):
            return [per(fn, *[v[i] if isinstance(v, list) else v for v in vals]) for i in range(len(vals[0]))]
        return fn(*vals)

    ints = {"IAdd": lambda a, b: a + b, "ISub": lambda a, b: a - b, "IMul": lambda a, b: a * b,
            "ShiftLeftLogical": lambda a, b: a << b, "BitwiseOr": lambda a, b: a | b,
            "BitwiseAnd": lambda a, b: a & b, "BitwiseXor": lambda a, b: a ^ b}
    comps = {"IEqual": lambda a, b: a == b, "INotEqual": lambda a, b: a != b,
             "SLessThan": lambda a, b: a < b, "SGreaterThan": lambda a, b: a > b,
             "SLessThanEqual": lambda a, b: a <= b, "SGreaterThanEqual": lambda a, b: a >= b,
             "ULessThan": lambda a, b: a & 0xFFFFFFFF < b & 0xFFFFFFFF,
             "UGreaterThan": lambda a, b: a & 0xFFFFFFFF > b & 0xFFFFFFFF,
             "ULessThanEqual": lambda a, b: a & 0xFFFFFFFF <= b & 0xFFFFFFFF,
             "UGreaterThanEqual": lambda a, b: a & 0xFFFFFFFF >= b & 0xFFFFFFFF,
             "LogicalEqual": lambda a, b: a == b, "LogicalNotEqual": lambda a, b: a != b,
             "LogicalOr": lambda a, b: a or b, "LogicalAnd": lambda a, b: a and b}
    elem = tid
    while types.info(elem).kind in ("vector",):
        elem = types.info(elem).element
    if name in ints:
        return per(lambda a, b: _wrap_int(types, elem, ints[name](a, b)), num(0), num(1))
    if name in comps:
        return per(comps[name], num(0), num(1))
    if name == "LogicalNot":
        return per(lambda a: not a, num(0))
    if name == "Not":
        return per(lambda a: _wrap_int(types, elem, ~a), num(0))
    if name == "SNegate":
        return per(lambda a: _wrap_int(types, elem, -a), num(0))
    if name in ("UDiv", "SDiv", "UMod", "SRem", "SMod"):
        def div(a, b):
            if b == 0:
                return 0
            if name == "UDiv":
                return (a & 0xFFFFFFFF) // (b & 0xFFFFFFFF)
            if name == "UMod":
                return (a & 0xFFFFFFFF) % (b & 0xFFFFFFFF)
            q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
            if name == "SDiv":
                return q
            r = a - q * b
            return r + b if name == "SMod" and r and (r < 0) != (b < 0) else r
        return per(lambda a, b: _wrap_int(types, elem, div(a, b)), num(0), num(1))
    if name in ("ShiftRightLogical", "ShiftRightArithmetic"):
        if name == "ShiftRightLogical":
            return per(lambda a, b: _wrap_int(types, elem, (a & 0xFFFFFFFF) >> b), num(0), num(1))
        return per(lambda a, b: _wrap_int(types, elem, a >> b), num(0), num(1))
    if name == "Select":
        return per(lambda c, a, b: a if c else b, num(0), num(1), num(2))
    if name in ("SConvert", "UConvert"):
        return per(lambda a: _wrap_int(types, elem, a), num(0))
    if name == "CompositeExtract":
        v = num(0)
        for i in raw[1:]:
            v = v[i]
        return v
    if name == "VectorShuffle":
        a, b = num(0), num(1)
        pool = list(a) + list(b)
        return [pool[i] for i in raw[2:]]
    raise SpirvError(f"OpSpecConstantOp {name} is not supported")
