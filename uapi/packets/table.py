"""The packet-table machinery: field and packet descriptors, and the pack / unpack /
format functions generated from them (after Mesa's genxml).

A packet is a fixed number of little-endian 32-bit words. Bit ``n`` of a packet is
bit ``n % 32`` of word ``n // 32``; a field may straddle two words. A field is one
line: name, start bit, encoded size in bits, type, optional modifier, default.

Types:
  ``uint``    unsigned integer
  ``int``     two's-complement signed integer
  ``bool``    one bit
  ``float``   IEEE-754 binary32 (size must be 32); the value is rounded to float32
  ``address`` a GPU virtual address in bytes (printed in hex)
  ``enum``    an :class:`enum.IntEnum`; pack takes a member, its name or its value

Modifiers (what is stored, given the logical value ``v``):
  ``minus(k)``  ``v - k``            (e.g. width minus one)
  ``shr(n)``    ``v >> n``           (the low ``n`` bits of ``v`` must be zero)
  ``log2``      ``log2(v)``          (``v`` must be a power of two)

Sole responsibility: turning field values into words and back, exactly. ``pack``
raises ``ValueError`` naming the field when a value does not fit or a modifier would
lose information; ``unpack`` never raises on bad data: it reports nonzero bits in
places no field defines and enum values that name nothing, in ``Record.problems``.
"""

from __future__ import annotations

import enum
import math
import struct
from dataclasses import dataclass, field as dc_field
from typing import Any, Iterable, Mapping

__all__ = [
    "Field", "Packet", "Group", "Record", "GroupRecord", "PACKETS", "GROUPS",
    "uint", "sint", "boolean", "flt", "address", "enumf", "at",
    "minus", "shr", "LOG2", "pack", "unpack", "format_record", "print_record", "lookup",
    "words_to_bytes", "bytes_to_words", "describe_packet",
]

TYPES = ("uint", "int", "bool", "float", "address", "enum")


def at(word: int, bit: int = 0) -> int:
    """Absolute start bit of ``bit`` in ``word`` (Mesa's ``start="word:bit"``)."""
    return word * 32 + bit


# -- modifiers ---------------------------------------------------------------------

@dataclass(frozen=True)
class Modifier:
    kind: str  # "minus", "shr", "log2"
    amount: int = 0

    def __str__(self) -> str:
        return "log2" if self.kind == "log2" else f"{self.kind}({self.amount})"


def minus(k: int) -> Modifier:
    return Modifier("minus", k)


def shr(n: int) -> Modifier:
    return Modifier("shr", n)


LOG2 = Modifier("log2")


# -- fields ------------------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    """One field of a packet: ``size`` is the encoded width in bits."""

    name: str
    start: int
    size: int
    type: str = "uint"
    modifier: Modifier | None = None
    default: Any = 0
    enum: type[enum.IntEnum] | None = None
    exact: int | None = None  # a fixed encoded value (block types, tags)
    doc: str = ""

    def __post_init__(self):
        assert self.type in TYPES, f"field {self.name}: unknown type {self.type!r}"
        assert self.size >= 1, f"field {self.name}: size must be positive"
        assert self.type != "float" or self.size == 32, f"field {self.name}: floats are 32 bits"
        assert self.type != "bool" or self.size == 1, f"field {self.name}: bools are 1 bit"
        assert (self.type == "enum") == (self.enum is not None), f"field {self.name}: enum type needs enum="

    @property
    def mask(self) -> int:
        return ((1 << self.size) - 1) << self.start

    # logical value -> encoded unsigned bits
    def encode(self, value: Any, packet: str = "") -> int:
        where = f"{packet}.{self.name}" if packet else self.name
        if self.type == "float":
            try:
                return struct.unpack("<I", struct.pack("<f", float(value)))[0]
            except (TypeError, ValueError, OverflowError) as e:
                raise ValueError(f"{where}: {value!r} is not a float32 value ({e})") from None
        if self.type == "bool":
            if value not in (0, 1, True, False):
                raise ValueError(f"{where}: {value!r} is not a bool")
            v = int(bool(value))
        elif self.type == "enum":
            v = self._enum_value(value, where)
        else:
            if isinstance(value, bool) or not hasattr(value, "__index__"):
                raise ValueError(f"{where}: {value!r} is not an integer")
            v = value.__index__()
        v = self._apply_modifier(v, where)
        if self.type == "int":
            lo, hi = -(1 << (self.size - 1)), (1 << (self.size - 1)) - 1
            if not lo <= v <= hi:
                raise ValueError(f"{where}: {value!r} does not fit in a signed {self.size}-bit field")
            return v & ((1 << self.size) - 1)
        if not 0 <= v < (1 << self.size):
            raise ValueError(f"{where}: {value!r} does not fit in {self.size} bits"
                             + (f" after {self.modifier}" if self.modifier else ""))
        return v

    def _enum_value(self, value: Any, where: str) -> int:
        e = self.enum
        if isinstance(value, str):
            try:
                return int(e[value.upper()])
            except KeyError:
                raise ValueError(f"{where}: {value!r} is not a {e.__name__}") from None
        try:
            return int(e(int(value)))
        except (ValueError, TypeError):
            raise ValueError(f"{where}: {value!r} is not a {e.__name__}") from None

    def _apply_modifier(self, v: int, where: str) -> int:
        m = self.modifier
        if m is None:
            return v
        if m.kind == "minus":
            if v < m.amount:
                raise ValueError(f"{where}: {v} is below {m.amount}, cannot store {m}")
            return v - m.amount
        if m.kind == "shr":
            if v & ((1 << m.amount) - 1):
                raise ValueError(f"{where}: 0x{v:x} is not a multiple of {1 << m.amount}; {m} would lose bits")
            return v >> m.amount
        if v < 1 or v & (v - 1):
            raise ValueError(f"{where}: {v} is not a power of two; log2 would lose it")
        return v.bit_length() - 1

    # encoded unsigned bits -> logical value (never raises)
    def decode(self, bits: int) -> Any:
        if self.type == "float":
            return struct.unpack("<f", struct.pack("<I", bits))[0]
        if self.type == "bool":
            return bool(bits)
        v = bits
        if self.type == "int" and bits >> (self.size - 1):
            v = bits - (1 << self.size)
        m = self.modifier
        if m is not None:
            v = v + m.amount if m.kind == "minus" else v << m.amount if m.kind == "shr" else 1 << v
        if self.type == "enum":
            try:
                return self.enum(v)
            except ValueError:
                return v
        return v

    def format_value(self, value: Any) -> str:
        if self.type == "address":
            return f"0x{value:x}"
        if self.type == "enum" and isinstance(value, enum.IntEnum):
            return value.name
        if self.type == "enum":
            return f"{value} (not a {self.enum.__name__})"
        if self.type == "float":
            return repr(float(value))
        return str(value)


def uint(name, start, size, *, modifier=None, default=0, doc=""):
    return Field(name, start, size, "uint", modifier, default, doc=doc)


def sint(name, start, size, *, default=0, doc=""):
    return Field(name, start, size, "int", None, default, doc=doc)


def boolean(name, start, *, default=False, doc=""):
    return Field(name, start, 1, "bool", None, default, doc=doc)


def flt(name, start, *, default=0.0, doc=""):
    return Field(name, start, 32, "float", None, default, doc=doc)


def address(name, start, size=40, *, modifier=None, doc=""):
    """A byte address; ``size`` is the encoded width (after ``shr``)."""
    return Field(name, start, size, "address", modifier, 0, doc=doc)


def enumf(name, start, size, enum_type, *, default=None, exact=None, doc=""):
    if default is None:
        default = exact if exact is not None else min(enum_type)
    return Field(name, start, size, "enum", None, enum_type(default), enum=enum_type,
                 exact=None if exact is None else int(exact), doc=doc)


# -- packets -----------------------------------------------------------------------

PACKETS: dict[str, "Packet"] = {}
GROUPS: dict[str, "Group"] = {}


class Packet:
    """A fixed-size packet: a name, a size in 32-bit words, and its fields.

    Field overlaps and fields past the end are rejected here, at import time.
    """

    def __init__(self, name: str, size_words: int, fields: Iterable[Field], doc: str = ""):
        self.name = name
        self.size_words = size_words
        self.fields: tuple[Field, ...] = tuple(fields)
        self.doc = doc
        self.by_name = {f.name: f for f in self.fields}
        assert len(self.by_name) == len(self.fields), f"{name}: duplicate field names"
        used = 0
        for f in self.fields:
            assert f.start + f.size <= 32 * size_words, f"{name}.{f.name} runs past the packet's {size_words} words"
            assert not used & f.mask, f"{name}.{f.name} overlaps another field"
            used |= f.mask
            if f.default is not None and f.exact is None:
                f.encode(f.default, name)  # defaults must be valid values
        self.defined_mask = used
        assert name not in PACKETS, f"packet {name} defined twice"
        PACKETS[name] = self

    @property
    def size_B(self) -> int:
        return 4 * self.size_words

    def __repr__(self) -> str:
        return f"<Packet {self.name} ({self.size_words} words)>"

    def pack(self, **values: Any) -> bytes:
        """Encode ``values`` (unspecified fields take their defaults) into bytes."""
        unknown = set(values) - set(self.by_name)
        if unknown:
            raise ValueError(f"{self.name}: no field named {', '.join(sorted(unknown))}")
        bits = 0
        for f in self.fields:
            if f.exact is not None:
                if f.name in values and f._enum_value(values[f.name], f.name) != f.exact:
                    raise ValueError(f"{self.name}.{f.name} is fixed at {f.exact}")
                enc = f.exact
            else:
                enc = f.encode(values.get(f.name, f.default), self.name)
            bits |= enc << f.start
        return bits.to_bytes(self.size_B, "little")

    def unpack(self, data: bytes | Iterable[int]) -> "Record":
        """Decode ``data`` (bytes, or a sequence of 32-bit words). Never raises on bad
        values: nonzero undefined bits and impossible enum values go to ``problems``."""
        raw = _as_bytes(data)
        if len(raw) < self.size_B:
            raise ValueError(f"{self.name}: needs {self.size_B} bytes, got {len(raw)}")
        bits = int.from_bytes(raw[:self.size_B], "little")
        values = {}
        problems = []
        for f in self.fields:
            enc = (bits >> f.start) & ((1 << f.size) - 1)
            values[f.name] = f.decode(enc)
            if f.exact is not None and enc != f.exact:
                problems.append(f"{f.name} is {enc}, expected {f.exact}")
            if f.type == "enum" and not isinstance(values[f.name], enum.IntEnum):
                problems.append(f"{f.name}: {enc} is not a {f.enum.__name__}")
        stray = bits & ~self.defined_mask
        undefined = [(w, (stray >> (32 * w)) & 0xFFFFFFFF) for w in range(self.size_words)
                     if (stray >> (32 * w)) & 0xFFFFFFFF]
        for w, m in undefined:
            problems.append(f"nonzero undefined bits in word {w}: 0x{m:08x}")
        return Record(self, values, undefined, problems)


def _as_bytes(data: bytes | Iterable[int]) -> bytes:
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    if hasattr(data, "dtype") and getattr(data, "dtype").itemsize == 1:
        return bytes(data)
    return words_to_bytes(data)


def words_to_bytes(words: Iterable[int]) -> bytes:
    return b"".join((int(w) & 0xFFFFFFFF).to_bytes(4, "little") for w in words)


def bytes_to_words(data: bytes) -> list[int]:
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data) - len(data) % 4, 4)]


class Record:
    """A decoded packet: field values as attributes (``rec.width``) or ``rec["width"]``.

    ``undefined`` lists ``(word, mask)`` of nonzero bits no field defines;
    ``problems`` lists every such finding in words, empty for a clean packet.
    """

    __slots__ = ("packet", "values", "undefined", "problems")

    def __init__(self, packet: Packet, values: dict, undefined: list, problems: list):
        self.packet, self.values, self.undefined, self.problems = packet, values, undefined, problems

    @property
    def name(self) -> str:
        return self.packet.name

    def __getattr__(self, item: str) -> Any:
        try:
            return self.values[item]
        except KeyError:
            raise AttributeError(f"{self.packet.name} has no field {item!r}") from None

    def __getitem__(self, item: str) -> Any:
        return self.values[item]

    def __eq__(self, other) -> bool:
        return isinstance(other, Record) and other.packet is self.packet and _same(other.values, self.values)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"{self.packet.name}({inner})"

    def __str__(self) -> str:
        return format_record(self)


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))
        for x, y in ((a[k], b[k]) for k in a))


def format_record(record: "Record | GroupRecord", indent: str = "", *, defaults: bool = True) -> str:
    """Human-readable text for a record: one ``name: value`` line per field.

    With ``defaults=False`` fields equal to their default are left out."""
    if isinstance(record, GroupRecord):
        out = [format_record(record.header, indent, defaults=defaults)]
        out += [format_record(r, indent + "  ", defaults=defaults) for r in record.members.values()]
        return "\n".join(out)
    lines = [f"{indent}{record.packet.name}"]
    for f in record.packet.fields:
        v = record.values[f.name]
        if f.exact is not None or (not defaults and v == f.default):
            continue
        lines.append(f"{indent}  {f.name}: {f.format_value(v)}")
    lines += [f"{indent}  (!) {p}" for p in record.problems]
    return "\n".join(lines)


def print_record(record: "Record | GroupRecord", *, defaults: bool = True, file=None) -> None:
    """Print ``format_record(record)`` (to ``file``, default stdout)."""
    print(format_record(record, defaults=defaults), file=file)


# -- groups: a header word whose bools say which records follow --------------------

@dataclass
class GroupRecord:
    """A decoded group: the header record and the present member records by name."""

    group: "Group"
    header: Record
    members: dict[str, Record] = dc_field(default_factory=dict)
    size_words: int = 0

    @property
    def problems(self) -> list[str]:
        return self.header.problems + [p for r in self.members.values() for p in r.problems]

    def __str__(self) -> str:
        return format_record(self)


class Group:
    """A header packet whose bool field ``m`` says whether member record ``m`` follows.

    Members follow the header in table order (like Mesa's PPP and VDM state words).
    """

    def __init__(self, name: str, header: Packet, members: Iterable[tuple[str, Packet]], doc: str = ""):
        self.name, self.header, self.doc = name, header, doc
        self.members = dict(members)
        for m in self.members:
            assert m in header.by_name and header.by_name[m].type == "bool", \
                f"group {name}: header {header.name} has no presence bit {m!r}"
        assert name not in GROUPS, f"group {name} defined twice"
        GROUPS[name] = self

    def __repr__(self) -> str:
        return f"<Group {self.name}>"

    def pack(self, **members: Mapping[str, Any]) -> bytes:
        """``members``: member name -> dict of that record's fields (or its packed bytes)."""
        unknown = set(members) - set(self.members)
        if unknown:
            raise ValueError(f"{self.name}: no member named {', '.join(sorted(unknown))}")
        out = [self.header.pack(**{m: True for m in members})]
        for m, packet in self.members.items():
            if m in members:
                v = members[m]
                out.append(bytes(v) if isinstance(v, (bytes, bytearray)) else packet.pack(**v))
        return b"".join(out)

    def size_words_for(self, header: Record) -> int:
        return self.header.size_words + sum(p.size_words for m, p in self.members.items() if header[m])

    def unpack(self, data: bytes | Iterable[int]) -> GroupRecord:
        raw = _as_bytes(data)
        header = self.header.unpack(raw)
        rec = GroupRecord(self, header, {}, self.size_words_for(header))
        if len(raw) < 4 * rec.size_words:
            raise ValueError(f"{self.name}: header announces {rec.size_words} words, got {len(raw) // 4}")
        off = self.header.size_B
        for m, packet in self.members.items():
            if header[m]:
                rec.members[m] = packet.unpack(raw[off:off + packet.size_B])
                off += packet.size_B
        return rec


def lookup(what: "str | Packet | Group") -> "Packet | Group":
    if isinstance(what, (Packet, Group)):
        return what
    if what in PACKETS:
        return PACKETS[what]
    if what in GROUPS:
        return GROUPS[what]
    raise ValueError(f"no packet or group named {what!r}")


def pack(what: "str | Packet | Group", **fields: Any) -> bytes:
    """Pack a packet (by name or descriptor) from field values, or a group from members."""
    return lookup(what).pack(**fields)


def unpack(what: "str | Packet | Group", data: bytes | Iterable[int]) -> "Record | GroupRecord":
    return lookup(what).unpack(data)


def describe_packet(packet: Packet) -> str:
    """A Markdown table of a packet's fields (README.md is generated from this)."""
    lines = [f"### {packet.name} ({packet.size_words} words)", ""]
    if packet.doc:
        lines += [packet.doc, ""]
    lines += ["| bits | field | type | notes |", "|---|---|---|---|"]
    for f in sorted(packet.fields, key=lambda f: f.start):
        w0, b0 = divmod(f.start, 32)
        w1, b1 = divmod(f.start + f.size - 1, 32)
        bits = f"{w0}:{b0}" if f.size == 1 else f"{w0}:{b0}..{w1}:{b1}"
        typ = f.enum.__name__ if f.enum else f.type
        notes = []
        if f.modifier:
            notes.append(str(f.modifier))
        if f.exact is not None:
            notes.append(f"= {f.enum(f.exact).name}")
        elif f.default not in (0, False, None) and not (f.enum and int(f.default) == 0):
            notes.append(f"default {f.format_value(f.default)}")
        if f.doc:
            notes.append(f.doc)
        lines.append(f"| {bits} | `{f.name}` | {typ} | {'; '.join(notes)} |")
    return "\n".join(lines)
