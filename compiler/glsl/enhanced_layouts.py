"""ARB_enhanced_layouts (GLSL 4.40 section 4.4): the ``component``, ``offset``/``align``
and ``xfb_buffer``/``xfb_offset``/``xfb_stride`` layout qualifiers.

A mixin of ``semantic.Analyzer`` (used by ``qualifiers.QualifierRules``). It checks what
one shader may declare and records what the link needs:

- ``component``: on inputs and outputs that also have a location; scalars and
  vectors (and arrays of them) only; a 64-bit type takes two components each and
  starts at component 0 or 2; no variable runs past component 3. Two variables of one
  stage and storage may share a location only in disjoint components and with the
  same base type (float, int/uint or double), except vertex inputs (GLSL 4.60
  section 4.4.1): a link-time check of the stage (``location_aliasing_error``, which
  ``compiler.link.link_stage`` runs), as piglit's linker tests expect.
- ``offset``/``align`` on members of uniform and storage blocks (``align`` on the
  block too) of ``std140``/``std430`` layout: an offset is a multiple of the member's
  base alignment and not inside or before the previous member; an alignment is a
  power of two. ``place_block_members`` computes the members' actual offsets (with
  ``types.std_alignment_size``) into ``StructField.qualifiers["offset_B"]``; the block's
  IR type keeps them (``compiler.ir.types.StructType.offsets_B``).
- transform feedback: ``xfb_buffer`` (default set by ``layout(xfb_buffer = n) out;``,
  inherited by later declarations), ``xfb_offset`` (bytes, a multiple of 4, or 8 when
  the captured value holds doubles), ``xfb_stride`` (bytes per buffer; one value per
  buffer in a shader). Captured outputs of one buffer may not overlap or run past the
  stride; the stride is at most ``gl_MaxTransformFeedbackInterleavedComponents`` * 4.
  Every captured output gets ``layout["xfb_buffer"]`` (the inherited one) and block
  members get their own ``xfb_offset`` (consecutive from the block's). The unit keeps
  ``xfb_strides`` (buffer -> explicit stride) for the link (``compiler.link.xfb_captures``).
"""

from __future__ import annotations

from . import types as T
from .builtin_variables import limits

ENHANCED_KEYS = ("component", "align", "xfb_buffer", "xfb_offset", "xfb_stride")
XFB_KEYS = ("xfb_buffer", "xfb_offset", "xfb_stride")
XFB_STAGES = ("vertex", "tess_evaluation", "geometry")


def _is_64(t: T.GLSLType) -> bool:
    return t.contains(lambda x: x.base in ("double", "int64", "uint64"))


def component_class(t: T.GLSLType) -> str:
    """The numerical class that location aliases must share (GLSL 4.60 section 4.4.1)."""
    base = t.innermost_element.base
    return {"int": "int", "uint": "int", "double": "double", "int64": "int64", "uint64": "int64"}.get(base, "float")


def components_of(t: T.GLSLType) -> int:
    """32-bit components one location of a scalar/vector (element) type takes."""
    el = t.innermost_element
    return el.vector_size * (2 if el.base in ("double", "int64", "uint64") else 1)


def xfb_size_B(t: T.GLSLType) -> int:
    """Bytes an output of type ``t`` takes in a transform feedback record (tightly packed)."""
    if t.is_array:
        return (t.length or 0) * xfb_size_B(t.element)
    if t.is_struct or t.is_block:
        return sum(xfb_size_B(f.type) for f in t.fields)
    return t.components * (8 if t.base in ("double", "int64", "uint64") else 4)


def _arrayed(storage: str, stage: str, patch: bool) -> bool:
    """Inputs/outputs with a per-vertex array level that takes no locations."""
    return not patch and ((storage == "in" and stage in ("geometry", "tess_control", "tess_evaluation"))
                          or (storage == "out" and stage == "tess_control"))


def _slots(t: T.GLSLType, first: int, comp: int, patch: bool):
    """(location, component mask, numerical class, patch) of each location of a value of
    type ``t`` placed at location ``first``, component ``comp``."""
    el = t.innermost_element
    if el.is_struct or el.is_block:
        out, loc = [], first
        for f in el.fields:
            out += _slots(f.type, loc, 0, patch)
            loc += T.type_size_slots(f.type)
        count = (T.type_size_slots(t) // max(1, T.type_size_slots(el))) if t.is_array else 1
        per = T.type_size_slots(el)
        return [(s + k * per, m, c, p) for k in range(count) for s, m, c, p in out]
    cls = component_class(el)
    width = components_of(el)
    out = []
    for i in range(T.type_size_slots(t)):
        if el.base in ("double", "int64", "uint64") and el.vector_size > 2:     # 4 words then the rest
            words = 4 if i % 2 == 0 else width - 4
            mask = (1 << max(words, 0)) - 1
        else:
            mask = ((1 << min(width, 4)) - 1) << comp
        out.append((first + i, mask, cls, patch))
    return out


def interface_slots(unit, storage: str):
    """(name, location, component mask, numerical class, patch, index) of every location
    a stage's inputs or outputs with explicit locations take: variables, and the
    members of blocks with a block or member location (members after one with a
    location take the next locations, GLSL 4.50 section 4.4.1)."""
    stage = unit.stage
    out = []
    for var in unit.globals:
        layout = var.layout or {}
        if var.storage != storage or "location" not in layout or getattr(var, "builtin", False) \
                or var.block is not None or var.type.innermost_element.is_block:
            continue
        t = var.type.element if var.type.is_array and _arrayed(storage, stage, bool(var.patch)) else var.type
        for slot, mask, cls, patch in _slots(t, layout["location"], layout.get("component", 0), bool(var.patch)):
            out.append((var.name, slot, mask, cls, patch, layout.get("index", 0)))
    for b in unit.interface_blocks:
        bt = b.type
        if bt is None or bt.block_kind != storage:
            continue
        block_loc = (b.variable.layout if b.variable is not None else {}).get("location") \
            if b.variable is not None else None
        if block_loc is None:
            block_loc = next((lid.value.const[0] for lid in b.qualifier.layout if lid.name == "location"
                              and lid.value is not None and getattr(lid.value, "const", None)), None)
        own = [(f.qualifiers or {}).get("own_layout", {}) for f in bt.fields]
        if block_loc is None and not any("location" in o for o in own):
            continue
        loc = block_loc if block_loc is not None else 0
        for f, o in zip(bt.fields, own):
            loc = o.get("location", loc)
            for slot, mask, cls, patch in _slots(f.type, loc, o.get("component", 0), False):
                out.append((f.name, slot, mask, cls, patch, 0))
            loc += T.type_size_slots(f.type)
    return out


def location_aliasing_error(unit) -> str | None:
    """GLSL 4.60 section 4.4.1 (ARB_enhanced_layouts), a link-time check of one stage:
    location aliases of its inputs (not the vertex stage's) or outputs use disjoint
    components of one numerical class. The message, or None."""
    version = unit.version
    if not (version.at_least(440) or "GL_ARB_enhanced_layouts" in (getattr(unit, "extensions", None) or {})):
        return None
    for storage in ("in", "out"):
        if storage == "in" and unit.stage == "vertex":
            continue
        seen: dict = {}
        for name, slot, mask, cls, patch, index in interface_slots(unit, storage):
            key = (slot, patch, index)
            prev = seen.get(key)
            if prev is None:
                seen[key] = (mask, cls, name)
                continue
            pmask, pcls, pname = prev
            if pmask & mask:
                return f"{unit.stage} shader {storage}puts `{name}' and `{pname}' use the same components of " \
                       f"location {slot}"
            if pcls != cls:
                return f"{unit.stage} shader {storage}puts `{name}' and `{pname}' share location {slot} with " \
                       "different numerical types"
            seen[key] = (pmask | mask, cls, pname)
    return None


class EnhancedLayoutRules:
    """Mixin: see the module docstring."""

    xfb_default_buffer: int = 0

    @property
    def enhanced_layouts(self) -> bool:
        return self.version.at_least(440) or "GL_ARB_enhanced_layouts" in self.enabled

    @property
    def xfb_strides(self) -> dict:
        """buffer -> explicit stride (bytes) declared in this shader."""
        d = self.__dict__.get("_xfb_strides")
        if d is None:
            d = self.__dict__["_xfb_strides"] = {}
        return d

    @property
    def xfb_extents(self) -> list:
        """(buffer, first byte, end byte, name, loc) of every captured output, in order."""
        d = self.__dict__.get("_xfb_extents")
        if d is None:
            d = self.__dict__["_xfb_extents"] = []
        return d

    def require_enhanced(self, key: str, loc) -> bool:
        if self.enhanced_layouts:
            return True
        self.error(loc, f"layout qualifier `{key}' requires GLSL 4.40 or GL_ARB_enhanced_layouts")
        return False

    # -- component -----------------------------------------------------------------

    def check_component(self, var, layout: dict, loc) -> None:
        if not self.require_enhanced("component", loc):
            return
        if var.storage not in ("in", "out"):
            self.error(loc, "the component layout qualifier may only be used on shader inputs and outputs")
            return
        if "location" not in layout:
            self.error(loc, "component layout qualifier requires a location")
            return
        self.check_component_type(var.type, layout["component"], loc)

    def check_component_type(self, t: T.GLSLType, component: int, loc) -> bool:
        el = t.innermost_element
        if el.is_matrix or el.is_struct or el.is_block or not el.is_numeric:
            self.error(loc, f"the component layout qualifier cannot be applied to type {t}")
            return False
        if component > 3:
            self.error(loc, f"component layout qualifier {component} is out of range (0..3)")
            return False
        wide = el.base in ("double", "int64", "uint64")
        if wide and el.vector_size > 2:
            self.error(loc, f"the component layout qualifier cannot be applied to type {el}")
            return False
        if wide and component % 2:
            self.error(loc, f"component {component} of a 64-bit type must be 0 or 2")
            return False
        if component + components_of(el) > 4:
            self.error(loc, f"component layout qualifier {component} with type {el} overflows the location")
            return False
        return True

    # -- offset / align on block members ------------------------------------------------

    def check_block_layout_keys(self, kind: str, block_layout: dict, layout: dict, loc) -> set:
        """The enhanced keys of a block's own layout; returns those handled here."""
        handled = set()
        if "align" in layout:
            handled.add("align")
            if self.require_enhanced("align", loc):
                if kind not in ("uniform", "buffer"):
                    self.error(loc, "the align layout qualifier may only be used on uniform and storage blocks")
                else:
                    self.check_align_value(layout["align"], loc)
                    self.check_explicit_packing(block_layout, "align", loc)
        for key in XFB_KEYS:
            if key in layout:
                handled.add(key)
                if self.require_enhanced(key, loc) and kind != "out":
                    self.error(loc, f"the {key} layout qualifier may only be used on outputs")
        return handled

    def check_align_value(self, value: int, loc) -> None:
        if value <= 0 or value & (value - 1):
            self.error(loc, f"align layout qualifier {value} is not a power of two")

    def check_explicit_packing(self, block_layout: dict, key: str, loc) -> None:
        if not ("std140" in block_layout or "std430" in block_layout):
            self.error(loc, f"the {key} layout qualifier requires a std140 or std430 block layout")

    def place_block_members(self, kind: str, block_layout: dict, fields: list, member_locs: list) -> None:
        """The actual offsets of a uniform/storage block's members when some member has
        ``offset`` or ``align`` (``fields``: StructFields whose ``qualifiers["layout"]`` hold
        the member's and the inherited qualifiers): each field gets
        ``qualifiers["offset_B"]``, which the IR type of the block keeps."""
        if kind not in ("uniform", "buffer"):
            return
        if not any("offset" in f.qualifiers["layout"] or "align" in f.qualifiers["layout"] for f in fields):
            return
        std430 = "std430" in block_layout
        end = 0
        for f, loc in zip(fields, member_locs):
            lay = f.qualifiers["layout"]
            base_align, size = T.std_alignment_size(f.type, std430, bool(lay.get("row_major")))
            actual_align = max(base_align, lay.get("align") or 0)
            start = end
            if "offset" in lay:
                offset = lay["offset"]
                if offset % base_align:
                    self.error(loc, f"offset {offset} of `{f.name}' is not a multiple of its base alignment "
                               f"{base_align}")
                    return
                if offset < end:
                    self.error(loc, f"offset {offset} of `{f.name}' lies within or before the previous member "
                               f"(which ends at {end})")
                    return
                start = offset
            start = -(-start // actual_align) * actual_align
            f.qualifiers["offset_B"] = start
            end = start + size

    def check_member_locations(self, kind: str, block, block_layout: dict, fields: list, member_locs: list) -> None:
        """GLSL 4.50 section 4.4.1: without a block location, all members or none have one;
        a block array that needs locations per element takes none on its members (the
        per-vertex array of an arrayed interface is stripped first)."""
        if kind not in ("in", "out"):
            return
        with_loc = ["location" in f.qualifiers.get("own_layout", {}) for f in fields]
        if not any(with_loc):
            return
        arrayed = (kind == "in" and self.stage in ("geometry", "tess_control", "tess_evaluation")) or \
            (kind == "out" and self.stage == "tess_control")
        dims = list(getattr(block, "array_dims", None) or [])
        if arrayed and dims:
            dims = dims[1:]
        if dims:
            self.error(block.loc, "locations on the members of an array of blocks are not allowed")
            return
        if "location" not in block_layout and not all(with_loc):
            i = with_loc.index(False)
            self.error(member_locs[i], f"member `{fields[i].name}' needs a location: the block has no location "
                       "and other members have one")

    # -- transform feedback ----------------------------------------------------------------

    def xfb_default_declaration(self, loc, layout: dict) -> dict:
        """``layout(xfb_buffer = n, xfb_stride = s) out;``: returns the keys left."""
        rest = {k: v for k, v in layout.items() if k not in XFB_KEYS}
        if not (layout.keys() & set(XFB_KEYS)):
            return rest
        for key in XFB_KEYS:
            if key in layout and not self.require_enhanced(key, loc):
                return rest
        if "xfb_offset" in layout:
            self.error(loc, "xfb_offset may only be used on variables, block members or blocks")
        if "xfb_buffer" in layout:
            if self.check_xfb_buffer(layout["xfb_buffer"], loc):
                self.xfb_default_buffer = layout["xfb_buffer"]
        if "xfb_stride" in layout:
            self.record_xfb_stride(layout.get("xfb_buffer", self.xfb_default_buffer), layout["xfb_stride"], loc, False)
        return rest

    def check_xfb_buffer(self, n: int, loc) -> bool:
        limit = limits()["gl_MaxTransformFeedbackBuffers"]
        if n >= limit:
            self.error(loc, f"xfb_buffer {n} must be less than gl_MaxTransformFeedbackBuffers ({limit})")
            return False
        return True

    def record_xfb_stride(self, buffer: int, stride: int, loc, wide: bool) -> None:
        limit = limits()["gl_MaxTransformFeedbackInterleavedComponents"] * 4
        if stride > limit:
            self.error(loc, f"xfb_stride {stride} exceeds gl_MaxTransformFeedbackInterleavedComponents * 4 ({limit})")
            return
        if stride % (8 if wide else 4):
            self.error(loc, f"xfb_stride {stride} must be a multiple of {8 if wide else 4}")
            return
        prev = self.xfb_strides.get(buffer)
        if prev is not None and prev != stride:
            self.error(loc, f"xfb_stride {stride} of buffer {buffer} differs from its stride {prev} declared before")
            return
        self.xfb_strides[buffer] = stride

    def xfb_output(self, var, layout: dict, loc) -> dict:
        """A global output (not a block) with xfb qualifiers: the layout with its buffer."""
        keys = layout.keys() & set(XFB_KEYS)
        if not keys:
            return layout
        if not all(self.require_enhanced(k, loc) for k in keys):
            return layout
        if var.storage != "out" or self.stage not in XFB_STAGES:
            self.error(loc, "transform feedback layout qualifiers may only be used on outputs of the vertex, "
                       "tessellation evaluation and geometry stages")
            return layout
        buffer = layout.get("xfb_buffer", self.xfb_default_buffer)
        if "xfb_buffer" in layout and not self.check_xfb_buffer(buffer, loc):
            return layout
        layout = {**layout, "xfb_buffer": buffer}
        if "xfb_stride" in layout:
            self.record_xfb_stride(buffer, layout["xfb_stride"], loc, _is_64(var.type))
        if "xfb_offset" in layout:
            self.xfb_capture(var.name, var.type, buffer, layout["xfb_offset"], loc)
        return layout

    def xfb_capture(self, name: str, t: T.GLSLType, buffer: int, offset: int, loc) -> bool:
        if t.is_array and t.length is None:
            self.error(loc, f"`{name}': an unsized array cannot be captured with xfb_offset")
            return False
        wide = _is_64(t)
        if offset % (8 if wide else 4):
            self.error(loc, f"xfb_offset {offset} of `{name}' must be a multiple of {8 if wide else 4}")
            return False
        end = offset + xfb_size_B(t)
        for b, first, last, other, _l in self.xfb_extents:
            if b == buffer and first < end and offset < last:
                self.error(loc, f"`{name}' overlaps `{other}' in transform feedback buffer {buffer}")
                return False
        self.xfb_extents.append((buffer, offset, end, name, loc))
        return True

    def xfb_block(self, kind: str, block_layout: dict, fields: list, member_locs: list, loc) -> None:
        """An output block's xfb qualifiers: members inherit the block's buffer (their own
        must match); a block ``xfb_offset`` gives every member one, consecutively, and a
        member's own offset starts a new run."""
        member_keys = any(f.qualifiers["layout"].keys() & set(XFB_KEYS) for f in fields)
        if not (block_layout.keys() & set(XFB_KEYS)) and not member_keys:
            return
        if kind != "out" or self.stage not in XFB_STAGES:
            if kind == "out" or block_layout.keys() & set(XFB_KEYS) or member_keys:
                self.error(loc, "transform feedback layout qualifiers may only be used on outputs of the vertex, "
                           "tessellation evaluation and geometry stages")
            return
        if not self.enhanced_layouts:
            return          # (reported for each key already)
        own_buffer = block_layout.get("xfb_buffer")
        buffer = own_buffer if own_buffer is not None else self.xfb_default_buffer
        if own_buffer is not None and not self.check_xfb_buffer(buffer, loc):
            return
        block_layout["xfb_buffer"] = buffer
        if "xfb_stride" in block_layout:
            self.record_xfb_stride(buffer, block_layout["xfb_stride"], loc,
                                   any(_is_64(f.type) for f in fields))
        next_offset = block_layout.get("xfb_offset")
        block_offset = next_offset
        if block_offset is not None:
            first = fields[0].type if fields else None
            if first is not None and block_offset % (8 if _is_64(first) else 4):
                self.error(loc, f"xfb_offset {block_offset} must be a multiple of {8 if _is_64(first) else 4}")
                return
        for f, mloc in zip(fields, member_locs):
            lay = f.qualifiers["layout"]
            mine = f.qualifiers.get("own_layout", {})
            if "xfb_buffer" in mine and mine["xfb_buffer"] != buffer:
                self.error(mloc, f"xfb_buffer {mine['xfb_buffer']} of member `{f.name}' differs from its "
                           f"block's buffer {buffer}")
                return
            lay["xfb_buffer"] = buffer
            if "xfb_stride" in mine:
                self.record_xfb_stride(buffer, mine["xfb_stride"], mloc, _is_64(f.type))
            offset = mine.get("xfb_offset", next_offset if block_offset is not None else None)
            if offset is None:
                lay.pop("xfb_offset", None)
                continue
            if not self.xfb_capture(f.name, f.type, buffer, offset, mloc):
                return
            lay["xfb_offset"] = offset
            if block_offset is not None:
                next_offset = offset + xfb_size_B(f.type)

    def check_xfb_strides(self) -> None:
        """Captured outputs end within their buffer's explicit stride; the implicit stride
        (the end of the last capture) is within the limit too."""
        limit = limits()["gl_MaxTransformFeedbackInterleavedComponents"] * 4
        for buffer, first, end, name, loc in self.xfb_extents:
            stride = self.xfb_strides.get(buffer)
            if stride is not None and end > stride:
                self.error(loc, f"`{name}' (bytes {first}..{end}) overflows xfb_stride {stride} of buffer {buffer}")
                return
            if end > limit:
                self.error(loc, f"`{name}' ends at byte {end}, beyond gl_MaxTransformFeedbackInterleavedComponents "
                           f"* 4 ({limit})")
                return
