"""The interface shader of a SPIR-V entry point (the shape of compiler.arb's).

What a SPIR-V module declares -- inputs and outputs by Location (and
Component), built-ins by BuiltIn decoration, default-block uniforms by
Location, samplers by Binding, uniform and storage blocks by Binding, shared
variables, the compute work-group size -- is written once as a GLSL 4.50 core
*interface* shader whose globals have generated names (SPIR-V names are not
used: ARB_gl_spirv links by location and binding only):

- ``shimgl_spv_loc<L>[_c<C>]``: a stage input or output at location L (the same
  name in the stage before and after, so the GL linker matches varyings by
  location); vertex inputs ``shimgl_spv_attr<L>``, fragment outputs
  ``shimgl_spv_frag<L>[_i<I>]``;
- ``shimgl_spv_uniform<L>``: a default-block uniform at location L;
- ``shimgl_spv_sampler<B>`` / ``shimgl_spv_image<B>``: a sampler / image at binding B (its unit);
- ``shimgl_spv_ubo<B>`` / ``shimgl_spv_ssbo<B>``: a block at binding B (instance ``..._i``);
- ``shimgl_spv_shared<id>``: a workgroup variable;
- ``shimgl_spv_counter<B>_<offset>``: an atomic counter.

Resources are named by binding so that one resource used by two stages is one GL
uniform or block (a second variable at one binding in a module adds ``_v<id>``).

The interface's ``main`` names every global once (an expression statement; blocks
and arrays of opaque types are instead marked used after the parse), so the GL
linker sees them all as active; the instructions are translated by
``compiler.spirv.to_ir`` straight to IR. ``Interface.globals`` maps each
SPIR-V variable id to its ``Global`` (kind, generated name, per-member
built-ins for gl_PerVertex blocks).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from compiler.glsl import types as GT

from .module import Module, SpirvError
from .spec import BUILTIN_NAME, EXECUTION_MODE_NAME, IMAGE_FORMAT
from .types import SpirvTypes

__all__ = ["Global", "Interface", "BUILTIN_VARIABLES", "stage_layout"]

#: SPIR-V BuiltIn -> (GLSL built-in, stages where it is an input, stages where it is an output)
BUILTIN_VARIABLES = {
    "Position": "gl_Position", "PointSize": "gl_PointSize", "ClipDistance": "gl_ClipDistance",
    "CullDistance": "gl_CullDistance", "VertexId": "gl_VertexID", "InstanceId": "gl_InstanceID",
    "VertexIndex": "gl_VertexID", "InstanceIndex": "gl_InstanceID", "PrimitiveId": "gl_PrimitiveID",
    "Layer": "gl_Layer", "ViewportIndex": "gl_ViewportIndex", "FragCoord": "gl_FragCoord",
    "PointCoord": "gl_PointCoord", "FrontFacing": "gl_FrontFacing", "SampleId": "gl_SampleID",
    "SamplePosition": "gl_SamplePosition", "SampleMask": "gl_SampleMask", "FragDepth": "gl_FragDepth",
    "HelperInvocation": "gl_HelperInvocation", "NumWorkgroups": "gl_NumWorkGroups",
    "WorkgroupSize": "gl_WorkGroupSize", "WorkgroupId": "gl_WorkGroupID",
    "LocalInvocationId": "gl_LocalInvocationID", "GlobalInvocationId": "gl_GlobalInvocationID",
    "LocalInvocationIndex": "gl_LocalInvocationIndex", "BaseVertex": "gl_BaseVertexARB",
    "BaseInstance": "gl_BaseInstanceARB", "DrawIndex": "gl_DrawIDARB", "InvocationId": "gl_InvocationID",
    "TessLevelOuter": "gl_TessLevelOuter", "TessLevelInner": "gl_TessLevelInner", "TessCoord": "gl_TessCoord",
    "PatchVertices": "gl_PatchVerticesIn"}
#: (GLSL 4.50 with ARB_shader_draw_parameters: the interface is GLSL 4.50)
_EXTENSION_BUILTINS = {"gl_BaseVertexARB", "gl_BaseInstanceARB", "gl_DrawIDARB"}
#: stages whose inputs (and, for tessellation control, outputs) are arrays with one element per vertex
PER_VERTEX_STAGES = ("geometry", "tess_control", "tess_evaluation")

# execution modes -> the GLSL layout qualifiers of geometry and tessellation stages
_GS_INPUT = {"InputPoints": "points", "InputLines": "lines", "InputLinesAdjacency": "lines_adjacency",
             "Triangles": "triangles", "InputTrianglesAdjacency": "triangles_adjacency"}
_GS_OUTPUT = {"OutputPoints": "points", "OutputLineStrip": "line_strip", "OutputTriangleStrip": "triangle_strip"}
_TES_PRIMITIVE = {"Triangles": "triangles", "Quads": "quads", "Isolines": "isolines"}
_TES_SPACING = {"SpacingEqual": "equal_spacing", "SpacingFractionalEven": "fractional_even_spacing",
                "SpacingFractionalOdd": "fractional_odd_spacing"}
_TES_ORDER = {"VertexOrderCw": "cw", "VertexOrderCcw": "ccw"}


def stage_layout(stage: str, modes) -> list[str]:
    """The GLSL layout declarations of a geometry or tessellation entry point's
    execution modes (``modes``: (mode, operands) pairs). Raises SpirvError when a
    mode the stage needs is missing."""
    named = {EXECUTION_MODE_NAME.get(mode, ""): ops for mode, ops in modes}

    def one(table, what):
        got = [q for n, q in table.items() if n in named]
        if len(got) > 1:
            raise SpirvError(f"the {stage} entry point declares {len(got)} {what} execution modes")
        return got[0] if got else None
    if stage == "geometry":
        inp, out = one(_GS_INPUT, "input primitive"), one(_GS_OUTPUT, "output primitive")
        if inp is None or out is None or "OutputVertices" not in named:
            raise SpirvError("a geometry entry point needs an input primitive, an output primitive and "
                             "OutputVertices execution modes")
        invocations = named.get("Invocations", (1,))[0]
        return [f"layout({inp}, invocations = {invocations}) in;",
                f"layout({out}, max_vertices = {named['OutputVertices'][0]}) out;"]
    if stage == "tess_control":
        if "OutputVertices" not in named:
            raise SpirvError("a tessellation control entry point needs an OutputVertices execution mode")
        if any(n in named for n in list(_TES_PRIMITIVE) + list(_TES_SPACING) + list(_TES_ORDER) + ["PointMode"]):
            raise SpirvError("tessellation modes on the tessellation control entry point are not supported "
                             "(declare them on the evaluation entry point)")
        return [f"layout(vertices = {named['OutputVertices'][0]}) out;"]
    if stage == "tess_evaluation":
        quals = [one(_TES_PRIMITIVE, "primitive"), one(_TES_SPACING, "spacing"), one(_TES_ORDER, "vertex order")]
        if quals[0] is None:
            raise SpirvError("a tessellation evaluation entry point needs a Triangles, Quads or Isolines "
                             "execution mode")
        if "PointMode" in named:
            quals.append("point_mode")
        return [f"layout({', '.join(q for q in quals if q)}) in;"]
    return []


@dataclass
class Global:
    """One SPIR-V global variable as the interface declares it.

    ``kind``: in, out, builtin (``name`` is the GLSL built-in), per_vertex (a
    Block struct of built-ins: ``members`` member index -> GLSL built-in),
    uniform, sampler, ubo, ssbo, shared, private. ``type_id`` is the pointee."""
    id: int
    kind: str
    name: str
    type_id: int
    storage: str
    members: dict[int, str] = field(default_factory=dict)
    block_name: str = ""
    array_dims: tuple[int, ...] = ()


def _used_members(m: Module, constants: dict) -> dict[int, set[int] | None]:
    """Per variable: the struct members access chains reach (None: the whole
    variable is loaded, stored or passed on)."""
    used: dict[int, set[int] | None] = {}
    for instrs in m.functions.values():
        for ins in instrs:
            if ins.op in ("AccessChain", "InBoundsAccessChain") and len(ins.operands) > 1:
                base, first = ins.operands[0], ins.operands[1]
                if used.get(base, set()) is not None:
                    if first in constants:
                        used.setdefault(base, set()).add(int(constants[first]))
                    else:
                        used[base] = None
            elif ins.op in ("Load", "Store"):
                used[ins.operands[0]] = None
            elif ins.op == "CopyMemory":
                used[ins.operands[0]] = used[ins.operands[1]] = None
            elif ins.op == "FunctionCall":
                for o in ins.operands[1:]:
                    used[o] = None
    return used


def _decl(t: GT.GLSLType, name: str) -> str:
    dims = ""
    while t.is_array:
        dims += f"[{'' if t.length is None else t.length}]"
        t = t.element
    return f"{t} {name}{dims}"


class Interface:
    def __init__(self, m: Module, types: SpirvTypes, stage: str, entry_fn: int, iface_ids, local_size,
                 early_fragment_tests: bool, digest_text: str, constants: dict, layout: tuple[str, ...] = ()):
        self.m, self.types, self.stage = m, types, stage
        self.constants = constants
        self.used_members = _used_members(m, constants)
        self._taken: set[str] = set()
        self.relocated = self._relocations()    # variable id -> the location it gets instead of its own
        self.globals: dict[int, Global] = {}
        self.structs: list[int] = []
        self._struct_done: set[int] = set()
        decls, body = [], []
        exts = set()
        for ins in m.globals:
            if ins.op != "Variable":
                continue
            ptr = types.info(ins.type_id)
            storage, tid = ptr.storage, ptr.element
            vid = ins.result
            g = self._global(vid, storage, tid)
            if g is None:
                continue
            self.globals[vid] = g
            decl = self._declare(g)
            if decl:
                decls.append(decl)
            if g.kind == "per_vertex":
                used = self.used_members.get(vid)
                if g.array_dims:        # gl_in[] / gl_out[]: the members the code reaches (any vertex's)
                    used = self._per_vertex_used(vid)
                    body += [f"{g.name}[0].{n};" for i, n in g.members.items() if used is None or i in used]
                else:
                    body += [f"{n};" for i, n in g.members.items() if used is None or i in used]
                exts |= {n for n in g.members.values() if n in _EXTENSION_BUILTINS}
            elif g.kind == "builtin":
                if g.name != "gl_WorkGroupSize":
                    body.append(f"{g.name};")
                exts |= {g.name} & _EXTENSION_BUILTINS
            elif g.kind in ("ubo", "ssbo", "in_block", "out_block") or g.array_dims:
                pass        # (marked used after the parse: an expression of them would be lowered)
            elif g.kind != "private":
                body.append(f"{g.name};")
        header = ["#version 450 core"]
        if exts:
            header.append("#extension GL_ARB_shader_draw_parameters : require")
        if local_size is not None:
            header.append("layout(local_size_x = {}, local_size_y = {}, local_size_z = {}) in;".format(*local_size))
        if early_fragment_tests:
            header.append("layout(early_fragment_tests) in;")
        header += list(layout)
        structs = [self._struct_decl(s) for s in self.structs]
        # the binary's digest closes the source: two modules with one interface differ
        tail = [f"// SPIR-V module {hashlib.sha256(digest_text.encode()).hexdigest()}"]
        self.source = "\n".join(header + structs + decls + ["void main() {"] + ["    " + s for s in body]
                                + ["}"] + tail + [""])

    # ------------------------------------------------------------ globals
    def _global(self, vid: int, storage: str, tid: int) -> Global | None:
        m, types = self.m, self.types
        builtin = m.decoration(vid, "BuiltIn")
        if builtin is not None:
            name = BUILTIN_VARIABLES.get(BUILTIN_NAME.get(builtin[0], ""))
            if name is None:
                raise SpirvError(f"built-in {BUILTIN_NAME.get(builtin[0], builtin[0])} is not supported")
            if name == "gl_PrimitiveID" and storage == "Input" and self.stage == "geometry":
                name = "gl_PrimitiveIDIn"
            return Global(vid, "builtin", name, tid, storage)
        t = types.info(tid)
        if storage in ("Input", "Output") and t.kind == "array" and self.stage in PER_VERTEX_STAGES and \
                types.info(t.element).kind == "struct" and m.has(t.element, "Block") and \
                m.decoration(t.element, "BuiltIn", 0) is not None:
            # gl_in[] (gl_out[] of a tessellation control stage): an array of gl_PerVertex blocks
            members = self._builtin_members(t.element)
            return Global(vid, "per_vertex", "gl_in" if storage == "Input" else "gl_out", tid, storage, members,
                          array_dims=(t.count,))
        if storage in ("Input", "Output") and t.kind == "array" and types.info(t.element).kind == "struct" and \
                m.has(t.element, "Block") and self.stage in ("vertex", "fragment", "geometry") and \
                all(m.decoration(t.element, "BuiltIn", i) is None for i in range(len(types.info(t.element).members))):
            # an array of blocks of user variables (a vertex output, a fragment input)
            stid, dims = tid, []
            while types.info(stid).kind == "array":
                dims.append(types.info(stid).count)
                stid = types.info(stid).element
            loc = self._location(vid)
            kind = "in_block" if storage == "Input" else "out_block"
            name = f"shimgl_spv_block{self.relocated.get(vid, loc)}" if loc is not None else f"shimgl_spv_block_v{vid}"
            return Global(vid, kind, name, tid, storage, block_name=name, array_dims=tuple(dims))
        if storage in ("Input", "Output") and t.kind == "struct" and m.has(tid, "Block"):
            members = {}
            if all(m.decoration(tid, "BuiltIn", i) is None for i in range(len(t.members))):
                # a block of user variables: named by its location, so the stages' blocks match
                loc = m.decoration(vid, "Location")
                if loc is None:
                    loc = m.decoration(tid, "Location", 0)
                kind = "in_block" if storage == "Input" else "out_block"
                loc = (self.relocated.get(vid, loc[0]),) if loc is not None else None
                name = f"shimgl_spv_block{loc[0]}" if loc is not None else f"shimgl_spv_block_v{vid}"
                return Global(vid, kind, name, tid, storage, block_name=name)
            return Global(vid, "per_vertex", "", tid, storage, self._builtin_members(tid))
        if storage in ("Input", "Output"):
            if t.kind in ("array", "struct") and self.stage != "vertex" and \
                    t.kind == "array" and types.info(t.element).kind == "struct" and m.has(t.element, "Block"):
                raise SpirvError("arrays of per-vertex blocks are not supported")
            loc = m.decoration(vid, "Location")
            if loc is None:
                raise SpirvError(f"{storage.lower()} variable %{vid} has no Location decoration")
            comp = m.decoration(vid, "Component")
            suffix = f"_c{comp[0]}" if comp else ""
            if storage == "Input" and self.stage == "vertex":
                return Global(vid, "in", f"shimgl_spv_attr{loc[0]}{suffix}", tid, storage)
            if storage == "Output" and self.stage == "fragment":
                index = m.decoration(vid, "Index")
                return Global(vid, "out", f"shimgl_spv_frag{loc[0]}{'_i1' if index and index[0] else ''}",
                              tid, storage)
            name = f"shimgl_spv_loc{self.relocated.get(vid, loc[0])}{suffix}"
            if m.has(vid, "Patch"):
                name = f"shimgl_spv_patch{loc[0]}{suffix}"
            elif storage == "Input" and self.stage in PER_VERTEX_STAGES:
                name = f"shimgl_spv_in{loc[0]}{suffix}"       # (its outputs take the _loc names; matched by location)
            return Global(vid, "in" if storage == "Input" else "out", name, tid, storage)
        if storage == "UniformConstant":
            inner = t
            dims = []
            while inner.kind == "array":
                dims.append(inner.count)
                inner = types.info(inner.element)
            if inner.kind in ("sampled_image", "image"):
                return Global(vid, "sampler" if inner.kind == "sampled_image" else "image",
                              self._by_binding(vid, "sampler" if inner.kind == "sampled_image" else "image"),
                              tid, storage, array_dims=tuple(dims))
            loc = m.decoration(vid, "Location")
            if loc is None:
                raise SpirvError(f"uniform %{vid} has no Location decoration")
            return Global(vid, "uniform", f"shimgl_spv_uniform{loc[0]}", tid, storage)
        if storage in ("Uniform", "StorageBuffer"):
            tid_inner, dims = tid, []
            while types.info(tid_inner).kind == "array":
                dims.append(types.info(tid_inner).count)
                tid_inner = types.info(tid_inner).element
            is_ssbo = storage == "StorageBuffer" or m.has(tid_inner, "BufferBlock")
            if not (m.has(tid_inner, "Block") or m.has(tid_inner, "BufferBlock")):
                raise SpirvError(f"uniform variable %{vid} is not a block")
            kind = "ssbo" if is_ssbo else "ubo"
            name = self._by_binding(vid, kind)
            return Global(vid, kind, name, tid, storage, block_name=name,
                          array_dims=tuple(dims))
        if storage == "AtomicCounter":
            tid_inner, dims = tid, []
            while types.info(tid_inner).kind == "array":
                dims.append(types.info(tid_inner).count)
                tid_inner = types.info(tid_inner).element
            return Global(vid, "atomic", self._by_binding(vid, "counter"), tid, storage, array_dims=tuple(dims))
        if storage == "Workgroup":
            return Global(vid, "shared", f"shimgl_spv_shared{vid}", tid, storage)
        if storage == "Private":
            return Global(vid, "private", "", tid, storage)
        raise SpirvError(f"variables of storage class {storage} are not supported")

    def _builtin_members(self, tid: int) -> dict[int, str]:
        """Member index -> GLSL built-in of a gl_PerVertex block type."""
        members = {}
        for i in range(len(self.types.info(tid).members)):
            b = self.m.decoration(tid, "BuiltIn", i)
            if b is None:
                raise SpirvError("a block mixes built-in and user variables")
            name = BUILTIN_VARIABLES.get(BUILTIN_NAME.get(b[0], ""))
            if name is None:
                raise SpirvError(f"built-in {BUILTIN_NAME.get(b[0], b[0])} is not supported")
            members[i] = name
        return members

    def _per_vertex_used(self, vid: int) -> set[int] | None:
        """The members of an array of gl_PerVertex blocks the code reaches (access chains
        whose second index, after the vertex, is a constant; None: all of them)."""
        used: set[int] = set()
        for instrs in self.m.functions.values():
            for ins in instrs:
                if ins.op in ("AccessChain", "InBoundsAccessChain") and ins.operands[0] == vid:
                    if len(ins.operands) > 2 and ins.operands[2] in self.constants:
                        used.add(int(self.constants[ins.operands[2]]))
                    else:
                        return None
                elif ins.op in ("Load", "Store", "CopyMemory", "FunctionCall") and vid in ins.operands:
                    return None
        return used

    def _glsl_value(self, tid: int, value) -> str:
        """A GLSL constant expression of a SPIR-V constant's value."""
        types = self.types
        t = types.info(tid)
        if t.kind in ("vector", "matrix", "array", "struct"):
            members = t.members if t.kind == "struct" else [t.element] * t.count
            parts = ", ".join(self._glsl_value(mt, v) for mt, v in zip(members, value))
            return f"{types.glsl(tid)}({parts})"
        base = types.scalar_base(tid)
        if base == "bool":
            return "true" if value else "false"
        if base in ("float", "double"):
            text = repr(float(value))
            if text in ("inf", "-inf", "nan"):
                raise SpirvError(f"a uniform initializer of {text} is not supported")
            return text + ("lf" if base == "double" else "")
        if base in ("uint", "uint64"):
            return f"{int(value) & ((1 << 64) - 1)}u" + ("l" if base == "uint64" else "")
        return f"{int(value)}" + ("l" if base == "int64" else "")

    def _location(self, vid: int) -> int | None:
        """A stage input's or output's location: its own, or its block's first member's."""
        loc = self.m.decoration(vid, "Location")
        if loc is None:
            tid = self.types.info(self.m.defs[vid].type_id).element
            while self.types.info(tid).kind == "array":
                tid = self.types.info(tid).element
            loc = self.m.decoration(tid, "Location", 0) if self.types.info(tid).kind == "struct" else None
        return loc[0] if loc is not None else None

    def _relocations(self) -> dict[int, int]:
        """Outputs that share locations (glslang gives outputs only captured by transform
        feedback automatic locations that may overlap others'): the transform feedback ones
        move past every location used, the others keep theirs (they feed the next stage)."""
        m, types = self.m, self.types
        outs = []
        for ins in m.globals:
            if ins.op != "Variable" or types.info(ins.type_id).storage != "Output" or \
                    m.decoration(ins.result, "BuiltIn") is not None or m.has(ins.result, "Component"):
                continue        # (components of one location are not an overlap)
            loc = self._location(ins.result)
            tid = types.info(ins.type_id).element
            t = types.info(tid)
            if loc is None or (t.kind == "struct" and any(m.decoration(tid, "BuiltIn", i) is not None
                                                         for i in range(len(t.members)))):
                continue
            if t.kind == "struct" and m.has(tid, "Block"):
                slots = sum(GT.type_size_slots(types.glsl(mt)) for mt in t.members)
            elif t.kind == "array" and self.stage == "tess_control" and not m.has(ins.result, "Patch"):
                slots = GT.type_size_slots(types.glsl(t.element))       # (one element per vertex)
            else:
                slots = GT.type_size_slots(types.glsl(tid))
            xfb = m.decoration(ins.result, "XfbBuffer") is not None
            outs.append((xfb, ins.result, loc, slots))
        taken: set[int] = set()
        moved = {}
        end = max((loc + n for _x, _v, loc, n in outs), default=0)
        for xfb, vid, loc, n in sorted(outs, key=lambda o: o[0]):      # the others claim theirs first
            span = set(range(loc, loc + n))
            if span & taken:
                moved[vid], loc = end, end
                end += n
                span = set(range(loc, loc + n))
            taken |= span
        return moved

    def _by_binding(self, vid: int, kind: str) -> str:
        """The generated name of a resource: by its binding (and offset for counters), so
        the same resource in two stages is one GL uniform / block; a second variable of one
        binding in the module gets its id too."""
        binding = self.m.decoration(vid, "Binding")
        name = f"shimgl_spv_{kind}{binding[0] if binding else 0}"
        if kind == "counter":
            off = self.m.decoration(vid, "Offset")
            name += f"_{off[0] if off else 0}"
        if name in self._taken:
            name += f"_v{vid}"
        self._taken.add(name)
        return name

    def _need_struct(self, gt: GT.GLSLType, tid: int) -> None:
        """Declare the struct types ``tid`` uses (members first)."""
        t = self.types.info(tid)
        if t.kind in ("array", "runtime_array"):
            self._need_struct(gt, t.element)
        elif t.kind == "struct" and tid not in self._struct_done:
            for mt in t.members:
                self._need_struct(gt, mt)
            self._struct_done.add(tid)
            self.structs.append(tid)

    def _struct_decl(self, tid: int) -> str:
        t = self.types.info(tid)
        members = " ".join(f"{_decl(self.types.glsl(mt), f'm{i}')};" for i, mt in enumerate(t.members))
        return f"struct shimgl_spv_s{tid} {{ {members} }};"

    def _declare(self, g: Global) -> str:
        m, types = self.m, self.types
        if g.kind in ("builtin", "per_vertex", "private"):
            return ""
        if g.kind in ("in", "out"):
            gt = types.glsl(g.type_id)
            self._need_struct(gt, g.type_id)
            patch = m.has(g.id, "Patch")
            if gt.is_array and not patch and (self.stage in ("tess_control", "tess_evaluation") and g.kind == "in"
                                              or self.stage == "tess_control" and g.kind == "out"):
                gt = GT.array_of(gt.element, None)      # one per vertex of the patch (sized by the stage)
            loc = self.relocated.get(g.id, m.decoration(g.id, "Location")[0])
            lay = [f"location = {loc}"]
            for d, q in (("XfbBuffer", "xfb_buffer"), ("XfbStride", "xfb_stride"), ("Offset", "xfb_offset"),
                         ("Stream", "stream")):
                w = m.decoration(g.id, d)
                if w is not None and g.kind == "out":
                    lay.append(f"{q} = {w[0]}")
            comp = m.decoration(g.id, "Component")
            if comp:
                lay.append(f"component = {comp[0]}")
            index = m.decoration(g.id, "Index")
            if index:
                lay.append(f"index = {index[0]}")
            quals = ""
            for d, q in (("Flat", "flat "), ("NoPerspective", "noperspective "), ("Centroid", "centroid "),
                         ("Sample", "sample ")):
                if m.has(g.id, d):
                    quals += q
            base = gt.innermost_element if gt.is_array else gt
            if not quals and base.base in ("int", "uint") and (
                    (g.kind == "in" and self.stage == "fragment") or
                    (g.kind == "out" and self.stage in ("vertex", "geometry", "tess_evaluation"))):
                quals = "flat "
            if patch:
                quals += "patch "
            return f"layout({', '.join(lay)}) {quals}{g.kind} {_decl(gt, g.name)};"
        if g.kind in ("in_block", "out_block"):
            stid = g.type_id
            while types.info(stid).kind == "array":
                stid = types.info(stid).element
            t = types.info(stid)
            lay = []
            loc = m.decoration(g.id, "Location")
            shift = self.relocated[g.id] - self._location(g.id) if g.id in self.relocated else 0
            if loc is not None:
                lay.append(f"location = {loc[0] + shift}")
            for d, q in (("XfbBuffer", "xfb_buffer"), ("XfbStride", "xfb_stride"), ("Stream", "stream")):
                w = m.decoration(g.id, d)
                if w is not None and g.kind == "out_block":
                    lay.append(f"{q} = {w[0]}")
            members = []
            for i, mt in enumerate(t.members):
                gt = types.glsl(mt)
                self._need_struct(gt, mt)
                quals = []
                mloc = m.decoration(stid, "Location", i)
                if mloc is not None:
                    quals.append(f"location = {mloc[0] + shift}")
                off = m.decoration(stid, "Offset", i)
                if off is not None and g.kind == "out_block":
                    quals.append(f"xfb_offset = {off[0]}")
                interp = ""
                for d, q in (("Flat", "flat "), ("NoPerspective", "noperspective "), ("Centroid", "centroid "),
                             ("Sample", "sample ")):
                    if m.has(stid, d, i):
                        interp += q
                lq = f"layout({', '.join(quals)}) " if quals else ""
                members.append(f"{lq}{interp}{_decl(gt, f'm{i}')};")
            direction = "in" if g.kind == "in_block" else "out"
            head = f"layout({', '.join(lay)}) " if lay else ""
            dims = "".join(f"[{d}]" for d in g.array_dims)
            return f"{head}{direction} {g.block_name} {{ {' '.join(members)} }} {g.name}_i{dims};"
        if g.kind == "uniform":
            gt = types.glsl(g.type_id)
            self._need_struct(gt, g.type_id)
            loc = m.decoration(g.id, "Location")[0]
            init = ""
            ops = m.defs[g.id].operands
            if len(ops) > 1:            # an initializer: the uniform's value after the link
                if ops[1] not in self.constants:
                    raise SpirvError(f"the initializer of uniform %{g.id} is not a constant")
                init = " = " + self._glsl_value(g.type_id, self.constants[ops[1]])
            return f"layout(location = {loc}) uniform {_decl(gt, g.name)}{init};"
        if g.kind in ("sampler", "image"):
            binding = m.decoration(g.id, "Binding")
            inner = g.type_id
            while types.info(inner).kind == "array":
                inner = types.info(inner).element
            tname = types.opaque_name(inner)
            quals = [f"binding = {binding[0]}"] if binding else []
            fmt = IMAGE_FORMAT.get(types.info(inner).image_format) if g.kind == "image" else None
            if fmt:
                quals.append(fmt)
            lay = f"layout({', '.join(quals)}) " if quals else ""
            if g.kind == "image":
                for d, q in (("Coherent", "coherent "), ("Volatile", "volatile "), ("Restrict", "restrict "),
                             ("NonWritable", "readonly "), ("NonReadable", "writeonly ")):
                    if m.has(g.id, d):
                        lay += q
            dims = "".join(f"[{d}]" for d in g.array_dims)
            return f"{lay}uniform {tname} {g.name}{dims};"
        if g.kind == "atomic":
            binding = m.decoration(g.id, "Binding")
            offset = m.decoration(g.id, "Offset")
            dims = "".join(f"[{d}]" for d in g.array_dims)
            return (f"layout(binding = {binding[0] if binding else 0}, offset = {offset[0] if offset else 0}) "
                    f"uniform atomic_uint {g.name}{dims};")
        if g.kind in ("ubo", "ssbo"):
            tid = g.type_id
            while types.info(tid).kind == "array":
                tid = types.info(tid).element
            t = types.info(tid)
            binding = m.decoration(g.id, "Binding")
            packing = "std430" if g.kind == "ssbo" else "std140"
            members = []
            for i, mt in enumerate(t.members):
                gt = types.glsl(mt)
                self._need_struct(gt, mt)
                quals = []
                off = m.decoration(tid, "Offset", i)
                if off is not None:
                    quals.append(f"offset = {off[0]}")          # ARB_enhanced_layouts (GLSL 4.40)
                if m.has(tid, "RowMajor", i):
                    quals.append("row_major")
                lay = f"layout({', '.join(quals)}) " if quals else ""
                members.append(f"{lay}{_decl(gt, f'm{i}')};")
            lay = f"layout({packing}, binding = {binding[0] if binding else 0})"
            dims = "".join(f"[{d}]" for d in g.array_dims)
            kw = "buffer" if g.kind == "ssbo" else "uniform"
            return f"{lay} {kw} {g.block_name} {{ {' '.join(members)} }} {g.name}_i{dims};"
        if g.kind == "shared":
            gt = types.glsl(g.type_id)
            self._need_struct(gt, g.type_id)
            return f"shared {_decl(gt, g.name)};"
        raise SpirvError(f"cannot declare {g.kind}")
