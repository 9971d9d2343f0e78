"""Storage, interpolation and layout qualifier rules; interface blocks.

A mixin of `semantic.Analyzer`. `apply_qualifiers` turns the qualifiers as
written (ast.TypeQualifier) into the fields of a `symbols.Variable` and
reports every misuse: storage qualifiers per stage, version and scope,
interface types (no bool inputs, flat integers, ...), opaque types only as
uniforms, and each layout identifier in the places and versions that allow it.
"""

from __future__ import annotations

from . import ast as A
from . import blend_support, framebuffer_fetch
from . import types as T
from .builtin_variables import limits
from .geometry import PRIMITIVE_NAMES as GS_PRIMITIVES
from .tessellation import TES_IDENTIFIERS
from .symbols import Variable

# The members of the vertex stage's output block gl_PerVertex (compatibility ones included).
PER_VERTEX = frozenset({"gl_Position", "gl_PointSize", "gl_ClipDistance", "gl_CullDistance", "gl_ClipVertex", "gl_FrontColor",
                        "gl_BackColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor", "gl_TexCoord",
                        "gl_FogFragCoord"})

IMAGE_FORMATS = {
    "rgba32f": "float", "rgba16f": "float", "rg32f": "float", "rg16f": "float",
    "r11f_g11f_b10f": "float", "r32f": "float", "r16f": "float", "rgba16": "float",
    "rgb10_a2": "float", "rgba8": "float", "rg16": "float", "rg8": "float", "r16": "float",
    "r8": "float", "rgba16_snorm": "float", "rgba8_snorm": "float", "rg16_snorm": "float",
    "rg8_snorm": "float", "r16_snorm": "float", "r8_snorm": "float",
    "rgba32i": "int", "rgba16i": "int", "rgba8i": "int", "rg32i": "int", "rg16i": "int",
    "rg8i": "int", "r32i": "int", "r16i": "int", "r8i": "int",
    "rgba32ui": "uint", "rgba16ui": "uint", "rgb10_a2ui": "uint", "rgba8ui": "uint",
    "rg32ui": "uint", "rg16ui": "uint", "rg8ui": "uint", "r32ui": "uint", "r16ui": "uint",
    "r8ui": "uint",
}
ES_IMAGE_FORMATS = {"rgba32f", "rgba16f", "r32f", "rgba8", "rgba8_snorm", "rgba32i", "rgba16i",
                    "rgba8i", "r32i", "rgba32ui", "rgba16ui", "rgba8ui", "r32ui"}
BLOCK_LAYOUTS = {"std140", "std430", "shared", "packed"}
MATRIX_LAYOUTS = {"row_major", "column_major"}
VALUED = {"location", "binding", "offset", "index", "local_size_x", "local_size_y", "local_size_z",
          "component", "max_vertices", "invocations", "vertices", "stream", "xfb_buffer",
          "xfb_offset", "xfb_stride", "align"}
FLAGS = BLOCK_LAYOUTS | MATRIX_LAYOUTS | set(IMAGE_FORMATS) | set(GS_PRIMITIVES) | set(TES_IDENTIFIERS) | {
    "early_fragment_tests", "post_depth_coverage", "origin_upper_left", "pixel_center_integer", "depth_any",
    "depth_greater", "depth_less", "depth_unchanged"}
_DEPTH_LAYOUTS = frozenset({"depth_any", "depth_greater", "depth_less", "depth_unchanged"})
_ORDER_RANK = {"invariant": 0, "precise": 0, "interpolation": 1, "layout": 1, "auxiliary": 2,
               "storage": 2, "precision": 3, "memory": 2}


class QualifierRules:
    """Mixin: see the module docstring."""

    # -- order ---------------------------------------------------------------

    def check_qualifier_order(self, q: A.TypeQualifier) -> None:
        """Before GLSL 4.20 qualifiers come as: invariant, interpolation, storage, precision."""
        if self.version.at_least(420, 310) or "GL_ARB_shading_language_420pack" in self.enabled:
            return
        # memory qualifiers (readonly, coherent, ...) may stand anywhere, as in Mesa
        ranks = [_ORDER_RANK[k] for k in q.order if k != "memory"]
        if ranks != sorted(ranks):
            if q.invariant and q.order[0] != "invariant":
                self.error(q.loc, "invariant qualifiers must come first")
            elif q.precision and q.order[-1] != "precision":
                self.error(q.loc, "precision qualifiers must come last")
            else:
                self.error(q.loc, "interpolation qualifiers must precede storage qualifiers")

    # -- layout values -------------------------------------------------------

    def layout_values(self, q: A.TypeQualifier) -> dict:
        out: dict = {}
        group_of: dict = {}
        if q.order.count("layout") > 1 and not (self.version.at_least(420, 310)
                                               or "GL_ARB_shading_language_420pack" in self.enabled
                                               or "GL_ARB_enhanced_layouts" in self.enabled):
            self.error(q.loc, "multiple layout qualifiers in one declaration require GLSL 4.20 or "
                       "GL_ARB_shading_language_420pack")
        for lid in q.layout:
            name = lid.name
            # desktop GLSL (1.40+ section 4.3.8): layout qualifier names are not case sensitive
            key = name.lower() if not self.version.es or name.lower() in (
                "std140", "std430", "shared", "packed", "row_major", "column_major") else name
            if key in VALUED and group_of.get(key) == lid.group and not self.version.at_least(440, 320) \
                    and "GL_ARB_enhanced_layouts" not in self.enabled \
                    and key not in ("binding", "offset") and not (key == "stream" and self.stage == "geometry"):
                # one layout(...) naming an identifier twice: ARB_enhanced_layouts (4.40); binding,
                # offset (and a geometry shader's stream) may repeat in any version, the last one
                # winning, as in Mesa (programs of ARB_shader_atomic_counters rely on it)
                self.error(lid.loc, f"layout qualifier `{name}' given twice in one layout()")
            group_of[key] = lid.group
            if key in VALUED:
                if lid.value is None:
                    self.error(lid.loc, f"layout qualifier `{name}' requires a value")
                    continue
                literal = isinstance(lid.value, A.Literal)
                v = lid.value = self.expr(lid.value)
                if v.type is None:
                    continue
                if not literal and not self.version.at_least(440, 310) and "GL_ARB_enhanced_layouts" not in \
                        self.enabled and not self.version.es:
                    # GLSL 4.40 / ARB_enhanced_layouts: constant expressions in layout qualifiers
                    self.error(lid.loc, f"{name} must be an integer literal before GLSL 4.40 "
                               "(constant expressions need GL_ARB_enhanced_layouts)")
                    continue
                if v.const is None or not (v.type.is_scalar and v.type.is_integer):
                    self.error(lid.loc, f"{name} must be an integral constant expression")
                    continue
                value = v.const[0]
                if value < 0:
                    self.error(lid.loc, f"{name} layout qualifier is invalid ({value} < 0)")
                    continue
                out[key] = value    # (420pack: of several layout(...) the last one wins)
            elif key in _DEPTH_LAYOUTS and not (self.version.at_least(420) or {
                    "GL_ARB_conservative_depth", "GL_AMD_conservative_depth"} & set(self.enabled)):
                # GLSL 4.20 section 4.4.2.3 (ARB/AMD_conservative_depth below it)
                self.error(lid.loc, f"layout qualifier `{name}' needs GLSL 4.20 or GL_ARB_conservative_depth")
            elif key in FLAGS:
                if lid.value is not None:
                    self.error(lid.loc, f"layout qualifier `{name}' does not take a value")
                out[key] = True
            elif key in blend_support.BLEND_SUPPORT and blend_support.available(self.version, self.enabled):
                out[key] = True
            elif key == "noncoherent" and framebuffer_fetch.noncoherent_layout(self):
                out[key] = True
            else:
                self.error(lid.loc, f"unrecognized layout identifier `{name}'")
        return out

    def need(self, cond: bool, loc, msg: str) -> bool:
        if not cond:
            self.error(loc, msg)
        return cond

    # -- variables -----------------------------------------------------------

    def apply_qualifiers(self, var: Variable, q: A.TypeQualifier, loc, global_scope: bool) -> None:
        storage = q.storage
        stage = self.stage
        t = var.type
        var.written_storage = storage
        var.interpolation = q.interpolation
        var.centroid, var.sample, var.patch = q.centroid, q.sample, q.patch
        var.invariant = q.invariant or False
        var.precise = q.precise
        var.precision = q.precision
        var.memory = frozenset(q.memory)
        if storage is None:
            var.storage = "temporary"
        elif storage in ("const", "const in"):
            if storage == "const in":
                self.error(loc, "`in' qualifier may only be used on function parameters here")
            var.storage = "const"
            var.read_only = True
        elif storage == "attribute":
            self.need(stage == "vertex", loc, "`attribute' variables may not be declared in the "
                      f"{stage} shader")
            if not self.version.es and self.version.number >= 140 and not self.version.compatibility:
                # deprecated, still accepted in desktop core profiles (as Mesa: a warning)
                self.warning(loc, f"`attribute' is deprecated in {self.version}; use `in'")
            var.storage = "in"
        elif storage == "varying out":
            # EXT_gpu_shader4: user-defined fragment outputs in GLSL 1.10/1.20
            if "GL_EXT_gpu_shader4" not in self.enabled or stage != "fragment":
                self.error(loc, "`varying out' requires GL_EXT_gpu_shader4 in a fragment shader")
            var.storage = "out"
        elif storage == "varying":
            if not self.version.es and self.version.number >= 140 and not self.version.compatibility:
                # deprecated, still accepted in desktop core profiles (as Mesa: a warning); piglit's
                # generated GLSL 1.50 tests declare their fragment inputs this way
                self.warning(loc, f"`varying' is deprecated in {self.version}; use `in'/`out'")
            # a geometry shader of the compatibility profile may declare its outputs so (as
            # Mesa: piglit glsl-1.50 compatibility/vs-gs-ff-frag)
            gs_out = stage == "geometry" and self.version.compatibility
            self.need(stage in ("vertex", "fragment") or gs_out, loc,
                      f"`varying' variables may not be declared in the {stage} shader")
            if q.interpolation and "GL_EXT_gpu_shader4" not in self.enabled:
                # GLSL 1.30 section 4.3.9: interpolation qualifiers go with in/out only
                # (EXT_gpu_shader4 puts them on varyings: `flat varying')
                self.error(loc, f"interpolation qualifier `{q.interpolation}' cannot be applied to the "
                           "deprecated storage qualifier `varying'")
            var.storage = "out" if stage in ("vertex", "geometry") else "in"
        elif storage in ("in", "out"):
            # before 1.30, shader inputs/outputs declared with in/out come with the
            # extensions that give them layouts (as Mesa)
            if global_scope and not self.version.at_least(130, 300) and not any(
                    x in self.enabled for x in ("GL_ARB_explicit_attrib_location",
                                                "GL_ARB_separate_shader_objects",
                                                "GL_ARB_fragment_coord_conventions",
                                                "GL_EXT_gpu_shader4")):
                self.error(loc, f"`{storage}' qualifier in declaration of `{var.name}' only valid for "
                           f"function parameters in {self.version}")
            if stage == "compute":
                self.error(loc, f"compute shader variables cannot be declared `{storage}'")
            var.storage = storage
        elif storage == "inout" and global_scope and framebuffer_fetch.inout_output(
                self, var, {lid.name: True for lid in q.layout}, loc):
            var.storage = "out"             # EXT_shader_framebuffer_fetch: an output read first
            var.fetch = True
        elif storage == "inout":
            self.error(loc, f"`inout' qualifier in declaration of `{var.name}' only valid for function "
                       "parameters")
            var.storage = "temporary"
        elif storage == "uniform":
            var.storage = "uniform"
            var.read_only = True
        elif storage == "buffer":
            self.error(loc, "buffer variables must be declared in a shader storage block")
            var.storage = "buffer"
        elif storage == "shared":
            if stage != "compute":
                self.error(loc, "`shared' variables may only be declared in compute shaders")
            var.storage = "shared"
        if var.storage not in ("temporary", "const") and not global_scope:
            self.error(loc, f"`{storage}' qualifier is not allowed on local variables")
        if var.storage in ("in",) and not var.read_only:
            var.read_only = True
        layout = self.layout_values(q)
        var.layout = layout
        self.check_interface_type(var, loc)
        self.check_auxiliary(var, q, loc)
        self.check_variable_layout(var, layout, loc)
        if global_scope and var.scope == "global":
            var.layout = self.xfb_output(var, var.layout, loc)      # enhanced_layouts.py
        if global_scope and self.stage == "geometry" and var.storage == "out":
            self.geometry_output_stream(var, loc)       # geometry.py: vertex streams
        self.check_opaque(var, loc)
        if q.memory and not (t.innermost_element.is_image or var.storage == "buffer"):
            self.error(loc, "memory qualifiers may only be used on image variables and buffer variables")

    def check_interface_type(self, var: Variable, loc) -> None:
        t, stage, storage = var.type, self.stage, var.storage
        inner = t.innermost_element
        if storage not in ("in", "out") or var.scope == "parameter":
            return
        is_vs_in = stage == "vertex" and storage == "in"
        is_fs_out = stage == "fragment" and storage == "out"
        if is_vs_in:
            if inner.base == "bool" or inner.is_struct or inner.is_opaque:
                self.error(loc, f"vertex shader input / attribute cannot have type {t}")
            elif t.is_array and (self.version.es or not self.version.at_least(150)):
                self.error(loc, "vertex shader input / attribute cannot have array type")
            elif inner.base in ("int", "uint") and not self.version.at_least(130, 300) \
                    and "GL_EXT_gpu_shader4" not in self.enabled:
                self.error(loc, f"vertex shader input / attribute cannot have type {t}")
            elif inner.base == "double" and not self.version.at_least(410) \
                    and "GL_ARB_vertex_attrib_64bit" not in self.enabled:
                # ARB_vertex_attrib_64bit (GLSL 4.10) brings double vertex inputs
                self.error(loc, f"vertex shader input / attribute cannot have type {t} "
                           "(GLSL 4.10 or GL_ARB_vertex_attrib_64bit)")
            return
        if is_fs_out:
            if inner.base == "bool" or inner.is_struct or inner.is_matrix or inner.is_opaque \
                    or inner.base in T.BASES_64:        # (GLSL 4.60 section 4.3.6: no 64-bit outputs)
                self.error(loc, f"fragment shader output cannot have type {t}")
            elif t.is_array and t.element.is_array:
                self.error(loc, "fragment shader output cannot be an array of arrays")
            return
        # varyings: vertex out, fragment in
        if inner.base == "bool" or inner.is_opaque:
            self.error(loc, f"varying variables must be of base type float, int or uint (not {t})"
                       if self.version.at_least(130, 300) else
                       f"varying variables must be of base type float in {self.version}")
            return
        if inner.base in ("int", "uint") or t.contains(lambda x: x.base in ("int", "uint")):
            if not self.version.at_least(130, 300) and "GL_EXT_gpu_shader4" not in self.enabled:
                self.error(loc, f"varying variables must be of base type float in {self.version}")
            elif var.interpolation != "flat":
                if stage == "fragment":
                    self.error(loc, "if a fragment input is (or contains) an integer, then it must be "
                               "qualified with 'flat'")
                elif self.version.es:
                    self.error(loc, "if a vertex output is (or contains) an integer, then it must be "
                               "qualified with 'flat'")
        if stage == "fragment" and var.interpolation != "flat" and \
                (inner.base in T.BASES_64 or t.contains(lambda x: x.base in T.BASES_64)):
            # GLSL 4.00 section 4.3.4 (ARB_gpu_shader_fp64, ARB_gpu_shader_int64)
            self.error(loc, "if a fragment input is (or contains) a 64-bit type, then it must be "
                       "qualified with 'flat'")
        if inner.is_struct and not self.version.at_least(150, 300):
            self.error(loc, f"varying variables cannot be structures in {self.version}")

    def check_auxiliary(self, var: Variable, q: A.TypeQualifier, loc) -> None:
        io = var.storage in ("in", "out")
        if q.interpolation:
            if not io:
                self.error(loc, f"interpolation qualifier `{q.interpolation}' can only be applied to "
                           "shader inputs or outputs.")
            elif self.stage == "vertex" and var.storage == "in":
                self.error(loc, f"interpolation qualifier `{q.interpolation}' cannot be applied to "
                           "vertex shader inputs")
            elif self.stage == "fragment" and var.storage == "out":
                self.error(loc, f"interpolation qualifier `{q.interpolation}' cannot be applied to "
                           "fragment shader outputs")
        if q.centroid and q.sample:
            self.error(loc, "`sample' and `centroid' cannot be used together")   # GLSL 4.00 section 4.3
        if q.centroid or q.sample:
            word = "centroid" if q.centroid else "sample"
            if not io or (self.stage == "vertex" and var.storage == "in") or \
                    (self.stage == "fragment" and var.storage == "out"):
                self.error(loc, f"`{word}' can only be applied to shader outputs of the vertex shader "
                           "and inputs of the fragment shader")
        if q.invariant:
            ok = var.storage == "out" or (
                var.storage == "in" and self.stage in ("fragment", "geometry") and not self.version.es) or (
                var.storage == "in" and self.stage == "fragment" and self.version.number < 300)   # GLSL ES 1.00
            if not ok:
                self.error(loc, "`invariant' can only be applied to shader outputs (or fragment "
                           "inputs)")
        if q.precision and not self.version.at_least(130, 100):
            self.error(loc, f"precision qualifiers are not supported in {self.version}")

    def check_opaque(self, var: Variable, loc) -> None:
        t = var.type
        if not t.contains_opaque:
            return
        if var.storage != "uniform" and var.scope != "parameter":
            self.error(loc, "opaque variables must be declared uniform")
        inner = t.innermost_element
        if inner.is_image:
            fmt = [k for k in var.layout if k in IMAGE_FORMATS]
            if fmt:
                if IMAGE_FORMATS[fmt[0]] != inner.sampled_base:
                    self.error(loc, f"format qualifier `{fmt[0]}' does not match the base data type "
                               f"of the image")
                # NV_image_formats brings the rest of GL's formats to GLSL ES (its 16-bit
                # normalised ones need EXT_texture_norm16, listed wherever it is)
                if self.version.es and fmt[0] not in ES_IMAGE_FORMATS \
                        and "GL_NV_image_formats" not in self.enabled:
                    self.error(loc, f"format qualifier `{fmt[0]}' is not supported in {self.version} "
                               "(GL_NV_image_formats adds it)")
            elif "writeonly" not in var.memory:
                self.error(loc, "image not qualified with `writeonly' must have a format layout "
                           "qualifier")
        if inner is T.ATOMIC_UINT and self.version.es and "binding" not in var.layout:
            self.error(loc, "atomic counters require a binding")

    def check_binding_range(self, t: T.GLSLType, block: str | None, binding: int, loc) -> None:
        """A binding whose elements run past the binding points (as Mesa's compiler checks,
        at compile time): a uniform or storage block, or an array of them, takes
        ``binding`` .. ``binding + elements - 1`` of GL_MAX_UNIFORM_BUFFER_BINDINGS /
        GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS; samplers of the combined texture image
        units, images of GL_MAX_IMAGE_UNITS; atomic counters, whatever their array, name
        one buffer binding, below GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS. `block` is the
        kind of block ("uniform", "buffer") `t` is the (array) type of, None for a variable."""
        elements = 1
        while t.base == "array":
            elements *= t.length or 1
            t = t.element
        if block is not None:
            limit, what = (("gl_MaxShaderStorageBufferBindings", "shader storage buffer binding points")
                           if block == "buffer" else
                           ("gl_MaxUniformBufferBindings", "uniform buffer binding points"))
        elif t is T.ATOMIC_UINT:
            limit, what, elements = "gl_MaxAtomicCounterBindings", "atomic counter buffer bindings", 1
        elif t.is_image:
            limit, what = "gl_MaxImageUnits", "image units"
        elif t.is_sampler:
            limit, what = "gl_MaxCombinedTextureImageUnits", "texture image units"
        else:
            return
        if binding + elements > limits()[limit]:
            self.error(loc, f"layout(binding = {binding}) for {elements} element(s) exceeds the "
                       f"maximum number of {what} ({limits()[limit]})")

    def check_variable_layout(self, var: Variable, layout: dict, loc) -> None:
        if not layout:
            return
        stage, storage, v = self.stage, var.storage, self.version
        if var.scope != "global":
            self.error(loc, "layout qualifiers may only be used on global declarations")
            return
        for key in layout:
            if key == "location":
                if storage == "in" and stage == "vertex":
                    self.need(v.at_least(330, 300) or "GL_ARB_explicit_attrib_location" in self.enabled,
                              loc, "explicit location for vertex shader inputs requires GLSL 3.30, "
                              "GLSL ES 3.00 or GL_ARB_explicit_attrib_location")
                elif storage == "out" and stage == "fragment":
                    self.need(v.at_least(330, 300) or "GL_ARB_explicit_attrib_location" in self.enabled,
                              loc, "explicit location for fragment shader outputs requires GLSL 3.30, "
                              "GLSL ES 3.00 or GL_ARB_explicit_attrib_location")
                    if layout["location"] >= limits()["gl_MaxDrawBuffers"]:
                        self.error(loc, f"invalid location {layout['location']} specified for "
                                   f"`{var.name}'")
                elif storage in ("in", "out"):
                    self.need(v.at_least(410, 310) or "GL_ARB_separate_shader_objects" in self.enabled,
                              loc, "explicit location for shader inputs and outputs between stages "
                              "requires GLSL 4.10, GLSL ES 3.10 or GL_ARB_separate_shader_objects")
                elif storage == "uniform":
                    self.need(v.at_least(430, 310) or "GL_ARB_explicit_uniform_location" in self.enabled,
                              loc, "explicit location for uniforms requires GLSL 4.30, GLSL ES 3.10 or "
                              "GL_ARB_explicit_uniform_location")
                    if var.type.innermost_element is T.ATOMIC_UINT:
                        self.error(loc, "atomic counters cannot have an explicit location")
                else:
                    self.error(loc, "location qualifier may only be used on shader inputs, outputs "
                               "and uniforms")
                # a vertex input past GL_MAX_VERTEX_ATTRIBS is a link error (compiler.link's
                # attribute locations), as in Mesa: the shader itself compiles
            elif key == "binding":
                # ARB_shader_atomic_counters brings binding (and offset) for atomic counters
                counter = var.type.innermost_element is T.ATOMIC_UINT and \
                    "GL_ARB_shader_atomic_counters" in self.enabled
                self.need(v.at_least(420, 310) or "GL_ARB_shading_language_420pack" in self.enabled or counter,
                          loc, "binding layout qualifier requires GLSL 4.20, GLSL ES 3.10 or "
                          "GL_ARB_shading_language_420pack")
                if not (storage == "uniform" and var.type.contains_opaque):
                    self.error(loc, "binding qualifier may only be used on opaque uniforms and "
                               "interface blocks")
                else:
                    self.check_binding_range(var.type, None, layout["binding"], loc)
            elif key == "component":
                self.check_component(var, layout, loc)          # enhanced_layouts.py
            elif key in ("xfb_buffer", "xfb_offset", "xfb_stride"):
                pass                                            # xfb_output (enhanced_layouts.py)
            elif key == "align":
                self.error(loc, "the align layout qualifier may only be used on blocks and block members")
            elif key == "offset":
                if var.type.innermost_element is not T.ATOMIC_UINT:
                    self.error(loc, "offset qualifier may only be used on atomic counters here")
                elif layout["offset"] % 4:
                    self.error(loc, "atomic counter offset must be a multiple of 4")
            elif key == "index":
                # GLSL ES: EXT_blend_func_extended (GLSL ES 3.00 outputs; 1.00 has no layouts)
                self.need(storage == "out" and stage == "fragment" and
                          (not v.es or "GL_EXT_blend_func_extended" in self.enabled), loc,
                          "the index layout qualifier may only be used on fragment shader outputs")
                if layout["index"] > 1:
                    self.error(loc, "invalid index value; index must be 0 or 1")
            elif key in IMAGE_FORMATS:
                if not var.type.innermost_element.is_image:
                    self.error(loc, "format layout qualifiers may only be used on image variables")
            elif key in ("origin_upper_left", "pixel_center_integer"):
                if var.name != "gl_FragCoord":
                    self.error(loc, f"layout qualifier `{key}' can only be applied to gl_FragCoord")
            elif key.startswith("depth_"):
                if var.name != "gl_FragDepth":
                    self.error(loc, f"layout qualifier `{key}' can only be applied to gl_FragDepth")
            elif key in BLOCK_LAYOUTS or key in MATRIX_LAYOUTS:
                if not (storage == "uniform" and var.type.innermost_element.is_matrix) and \
                        key in MATRIX_LAYOUTS:
                    self.error(loc, f"layout qualifier `{key}' can only be applied to uniform blocks")
                elif key in BLOCK_LAYOUTS:
                    self.error(loc, f"layout qualifier `{key}' can only be applied to interface blocks")
            elif key.startswith("local_size") or key in ("early_fragment_tests", "post_depth_coverage"):
                self.error(loc, f"layout qualifier `{key}' can only be used in `layout(...) in;'")
            elif key == "noncoherent":
                if not (var.fetch or var.name == framebuffer_fetch.LAST_FRAG_DATA):
                    self.error(loc, "layout(noncoherent) may only be used on `inout' fragment outputs and "
                               "gl_LastFragData")
            elif key == "stream":
                if not (storage == "out" and stage == "geometry"):
                    self.error(loc, "the stream layout qualifier may only be used on geometry shader outputs")
            else:
                self.error(loc, f"layout qualifier `{key}' is not allowed here")

    # -- `layout(...) in;` and `layout(std140) uniform;` -------------------------

    def default_layout_declaration(self, d: A.QualifierDeclaration) -> None:
        q = d.qualifier
        layout = self.layout_values(q)
        storage = q.storage
        if storage == "out" and layout.keys() & {"xfb_buffer", "xfb_offset", "xfb_stride"}:
            layout = self.xfb_default_declaration(d.loc, layout)     # enhanced_layouts.py
            if not layout:
                return
        elif storage != "out" and layout.keys() & {"xfb_buffer", "xfb_offset", "xfb_stride"}:
            self.error(d.loc, "transform feedback layout qualifiers may only be used on outputs")
            return
        if storage == "uniform" and layout.keys() & {"binding", "offset"} and "align" not in layout and (
                self.version.at_least(420, 310) or "GL_ARB_shader_atomic_counters" in self.enabled):
            # `layout(binding = b, offset = o) uniform;' (no type): Mesa accepts it and gives it no
            # effect: neither the counters declared after it nor the blocks take these values
            # (a counter's default offset is set by a declaration naming atomic_uint)
            layout = {k: v for k, v in layout.items() if k not in ("binding", "offset")}
            if not layout:
                return
        if layout.keys() & {"offset", "align"}:
            self.error(d.loc, "offset and align layout qualifiers may only be used on blocks and block members")
            return
        if storage == "in" and any(k.startswith("local_size") for k in layout):
            if self.stage != "compute":
                self.error(d.loc, "local_size qualifiers may only be used in compute shaders")
                return
            for i, axis in enumerate("xyz"):
                key = f"local_size_{axis}"
                if key in layout:
                    value = layout[key]
                    limit = limits()["gl_MaxComputeWorkGroupSize"][i]
                    if value < 1 or value > limit:
                        self.error(d.loc, f"local_size_{axis} ({value}) must be between 1 and {limit}")
                        value = 1
                    if self.local_size[i] is not None and self.local_size[i] != value:
                        self.error(d.loc, "compute shader local group size mismatch")
                    self.local_size[i] = value
            for i in range(3):
                if self.local_size[i] is None:
                    self.local_size[i] = 1
            total = self.local_size[0] * self.local_size[1] * self.local_size[2]
            if total > 1024:
                self.error(d.loc, f"product of local_sizes ({total}) exceeds "
                           "GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS (1024)")
            wg = self.symbols.lookup("gl_WorkGroupSize")
            if isinstance(wg, Variable) and wg.builtin:
                wg.const_value = tuple(self.local_size)
            return
        if storage in ("in", "out") and self.tess_default_layout(d.loc, storage, layout):
            return
        if storage in ("in", "out") and self.geometry_default_layout(d.loc, storage, layout):
            return
        if blend_support.blend_support_layout(self, d.loc, storage, layout):
            return
        if storage == "in" and layout.keys() <= {"early_fragment_tests", "post_depth_coverage"}:
            if self.stage != "fragment":
                name = "post_depth_coverage" if "post_depth_coverage" in layout else "early_fragment_tests"
                self.error(d.loc, f"{name} layout qualifier only allowed in fragment shaders")
            if "post_depth_coverage" in layout:
                # ARB_post_depth_coverage: gl_SampleMaskIn after the early depth and stencil
                # tests, which the qualifier turns on (as glslang and Mesa take it)
                if "GL_ARB_post_depth_coverage" not in self.enabled:
                    self.error(d.loc, "post_depth_coverage layout qualifier requires GL_ARB_post_depth_coverage")
                self.post_depth_coverage = True
            self.early_fragment_tests = True
            self.early_fragment_tests_loc = d.loc
            return
        if storage in ("uniform", "buffer") and layout.keys() <= BLOCK_LAYOUTS | MATRIX_LAYOUTS:
            if "std430" in layout and storage == "uniform":
                self.error(d.loc, "std430 storage block layout qualifier is supported only for shader "
                           "storage blocks")
            _merge_layout(self.default_block_layout[storage], layout)
            return
        if storage == "out" and not layout:
            self.error(d.loc, "syntax error, unexpected ';'")
            return
        if not q.layout:
            self.error(d.loc, "declaration does not declare anything")
            return
        self.error(d.loc, "invalid layout qualifiers in default declaration")

    # -- interface blocks ------------------------------------------------------

    def redeclare_per_vertex(self, b: A.InterfaceBlock) -> None:
        """GLSL 1.50 section 7.1: ``out gl_PerVertex`` may be redeclared with a subset
        of its members, before any use or redeclaration of them; the members left out
        are gone afterwards."""
        names = [d.name for m in b.members for d in m.declarators]
        for m in b.members:
            for d in m.declarators:
                if d.name not in PER_VERTEX and not self._layer_output(d.name):
                    self.error(d.loc, f"`{d.name}' is not a member of the built-in block gl_PerVertex")
        for n in PER_VERTEX:
            old = self.symbols.scopes[0].get(n)
            if isinstance(old, Variable) and (old.used or old.redeclared):
                self.error(b.loc, f"gl_PerVertex redeclared after a use or redeclaration of `{n}'")
                break
        for n in PER_VERTEX - set(names):
            old = self.symbols.scopes[0].get(n)
            if isinstance(old, Variable) and old.storage == "out":
                del self.symbols.scopes[0][n]
        self.per_vertex_redeclared = True

    def _layer_output(self, name: str) -> bool:
        """gl_Layer / gl_ViewportIndex: members of the vertex stage's gl_PerVertex where an
        extension makes them vertex outputs (AMD_vertex_shader_layer/_viewport_index,
        ARB_shader_viewport_layer_array)."""
        old = self.symbols.scopes[0].get(name)
        return name in ("gl_Layer", "gl_ViewportIndex") and isinstance(old, Variable) and old.storage == "out"

    def interface_block(self, b: A.InterfaceBlock) -> None:
        q = b.qualifier
        kind = q.storage
        v = self.version
        if b.block_name == "gl_PerVertex" and kind == "out" and self.stage == "vertex":
            self.redeclare_per_vertex(b)
        if kind == "uniform":
            self.need(v.at_least(140, 300) or "GL_ARB_uniform_buffer_object" in self.enabled, b.loc,
                      "uniform blocks require GLSL 1.40, GLSL ES 3.00 or GL_ARB_uniform_buffer_object")
        elif kind == "buffer":
            self.need(v.at_least(430, 310) or "GL_ARB_shader_storage_buffer_object" in self.enabled,
                      b.loc, "shader storage blocks require GLSL 4.30, GLSL ES 3.10 or "
                      "GL_ARB_shader_storage_buffer_object")
        elif kind in ("in", "out"):
            self.need(v.at_least(150, 0) or "GL_OES_shader_io_blocks" in self.enabled, b.loc,
                      f"`{kind}' interface blocks require GLSL 1.50, GLSL ES 3.20 or GL_OES_shader_io_blocks")
            if (kind == "in" and self.stage == "vertex") or (kind == "out" and self.stage == "fragment"):
                self.error(b.loc, f"{self.stage} shader {'inputs' if kind == 'in' else 'outputs'} cannot "
                           "be interface blocks")
            if self.stage == "compute":
                self.error(b.loc, "compute shaders cannot have input or output interface blocks")
        else:
            self.error(b.loc, "interface block must be declared uniform, buffer, in or out")
            kind = "uniform"
        layout = self.layout_values(q)
        block_layout = dict(self.default_block_layout.get(kind, {}))
        _merge_layout(block_layout, layout)
        self.block_stream(kind, block_layout, b.loc)        # geometry.py: vertex streams
        if "std430" in block_layout and kind != "buffer":
            self.error(b.loc, "std430 storage block layout qualifier is supported only for shader "
                       "storage blocks")
        handled = self.check_block_layout_keys(kind, block_layout, layout, b.loc)  # enhanced_layouts.py
        for key in layout:
            if key in handled:
                continue
            if key == "binding":
                # as Mesa: the buffer-block and atomic-counter extensions bring the qualifier too
                self.need(v.at_least(420, 310) or not {"GL_ARB_shading_language_420pack",
                                                       "GL_ARB_shader_storage_buffer_object",
                                                       "GL_ARB_shader_atomic_counters"}.isdisjoint(self.enabled),
                          b.loc, "binding layout qualifier requires GLSL 4.20, GLSL ES 3.10 or "
                          "GL_ARB_shading_language_420pack")
                if kind not in ("uniform", "buffer"):
                    self.error(b.loc, "binding qualifier may only be used on uniform and storage blocks")
            elif key == "location" and kind in ("uniform", "buffer"):
                self.error(b.loc, "location qualifier is not allowed on uniform or storage blocks")
            elif key not in BLOCK_LAYOUTS | MATRIX_LAYOUTS | {"binding", "location", "stream"}:
                self.error(b.loc, f"layout qualifier `{key}' is not allowed on interface blocks")
        if q.memory and kind != "buffer":
            self.error(b.loc, "memory qualifiers may only be used on storage blocks")
        fields: list[T.StructField] = []
        member_locs: list = []
        names: set[str] = set()
        nmembers = sum(len(m.declarators) for m in b.members)
        count = 0
        for m in b.members:
            mq = m.qualifier
            if m.type_spec.struct is not None and self.version.at_least(120, 100):
                # GLSL 1.20 section 4.1.8 ends embedded structure definitions, in blocks as in
                # structs (GLSL 1.10 with GL_ARB_uniform_buffer_object has them, as in Mesa)
                self.error(m.type_spec.loc, "embedded structure declarations are not allowed")
            mt = self.resolve_type(m.type_spec, allow_unsized=True)
            if mt is None:
                continue
            if mq.storage and mq.storage != kind:
                self.error(m.loc, f"member storage qualifier `{mq.storage}' does not match the block's "
                           f"`{kind}'")
            mlayout = self.layout_values(mq)
            for key in mlayout:
                if key in ("offset", "align") and kind in ("uniform", "buffer"):
                    # ARB_enhanced_layouts (enhanced_layouts.py)
                    if self.require_enhanced(key, m.loc):
                        self.check_explicit_packing(block_layout, key, m.loc)
                        if key == "align":
                            self.check_align_value(mlayout[key], m.loc)
                elif key == "component" and kind in ("in", "out"):
                    if self.require_enhanced(key, m.loc):
                        if "location" not in mlayout:
                            self.error(m.loc, "component layout qualifier requires a location")
                elif key in ("xfb_buffer", "xfb_offset", "xfb_stride"):
                    self.require_enhanced(key, m.loc)
                elif key not in MATRIX_LAYOUTS and not (key == "location" and kind in ("in", "out")) \
                        and key not in ("offset", "stream"):
                    self.error(m.loc, f"layout qualifier `{key}' is not allowed on block members")
            if mq.interpolation and kind not in ("in", "out"):
                self.error(m.loc, "interpolation qualifiers are only allowed on input and output block "
                           "members")
            if (mq.sample or mq.centroid) and kind not in ("in", "out"):
                self.error(m.loc, f"`{'sample' if mq.sample else 'centroid'}' is only allowed on input and output "
                           "block members")
            for d in m.declarators:
                count += 1
                t = self.apply_array_dims(mt, d.array_dims, d.loc, allow_unsized=True)
                if t.contains_opaque:
                    self.error(d.loc, f"{kind} block member `{d.name}' cannot have opaque type {t}")
                if kind == "in" and self.stage == "fragment" and (mq.interpolation or q.interpolation) != "flat" \
                        and (t.innermost_element.base in ("int", "uint") or t.contains(lambda x: x.base in ("int", "uint"))):
                    # (GLSL ES 3.20 / GLSL 4.60 section 4.3.4: block members are fragment inputs too)
                    self.error(d.loc, "if a fragment input is (or contains) an integer, then it must be "
                               "qualified with 'flat'")
                if kind == "in" and self.stage == "fragment" and (mq.interpolation or q.interpolation) != "flat" \
                        and (t.innermost_element.base in T.BASES_64 or t.contains(lambda x: x.base in T.BASES_64)):
                    self.error(d.loc, "if a fragment input is (or contains) a 64-bit type, then it must be "
                               "qualified with 'flat'")
                if t.is_array and t.length is None and not (kind == "buffer" and count == nmembers) \
                        and not (kind in ("uniform", "in", "out") and not v.es):
                    # desktop GLSL (1.50 section 4.1.9, as Mesa): a uniform block member declared
                    # without size takes the one its largest constant index implies, at the end
                    # of analysis (Analyzer.size_implicit_block_members); GLSL ES and the other
                    # block kinds allow only a storage block's last member to be unsized
                    self.error(d.loc, f"unsized array `{d.name}' definition: only last member of a "
                               "shader storage block can be defined as unsized array")
                if d.name in names:
                    self.error(d.loc, f"`{d.name}' redeclared")
                if d.name.startswith("gl_") and b.block_name != "gl_PerVertex":
                    self.error(d.loc, f"identifier `{d.name}' uses reserved `gl_' prefix")
                names.add(d.name)
                self.check_precision(t, mq.precision, d.loc)
                self.member_stream(block_layout, mlayout, d.loc)
                member_layout = {k: v for k, v in block_layout.items() if k != "xfb_offset"}
                _merge_layout(member_layout, mlayout)
                if "component" in mlayout and kind in ("in", "out") and "location" in mlayout:
                    self.check_component_type(t, mlayout["component"], d.loc)
                fields.append(T.StructField(d.name, t, {
                    "layout": member_layout, "interpolation": mq.interpolation,
                    "memory": frozenset(q.memory) | frozenset(mq.memory), "precision": mq.precision,
                    "centroid": mq.centroid, "sample": mq.sample, "invariant": mq.invariant,
                    "own_layout": dict(mlayout)}))
                member_locs.append(d.loc)
        self.place_block_members(kind, block_layout, fields, member_locs)     # enhanced_layouts.py
        self.check_member_locations(kind, b, block_layout, fields, member_locs)
        if kind in ("in", "out"):
            # GLSL 4.50 section 4.4.1: the members of a located block take consecutive
            # locations from the block's (or the last member's own) location
            next_location = block_layout.get("location")
            for f in fields:
                own = f.qualifiers["own_layout"].get("location", next_location)
                if not isinstance(own, int):
                    continue
                f.qualifiers["layout"]["location"] = own
                next_location = own + T.type_size_slots(f.type)
        self.xfb_block(kind, block_layout, fields, member_locs, b.loc)
        bt = T.block_type(b.block_name, kind, fields)
        b.type = bt
        self.blocks.append(b)
        if b.block_name.startswith("gl_") and b.block_name != "gl_PerVertex":
            self.error(b.loc, f"identifier `{b.block_name}' uses reserved `gl_' prefix")
        block_key = f"#block {kind} {b.block_name}"
        if self.symbols.lookup(block_key) is not None:
            self.error(b.loc, f"`{b.block_name}' redeclared")
        elif self.symbols.scopes[1].get(b.block_name) is not None or self.user_functions.get(b.block_name):
            # GLSL 1.50 section 4.3.7: the block name is no other global name
            self.error(b.loc, f"block name `{b.block_name}' is already used at global scope")
        self.symbols.scopes[1][block_key] = bt  # block names: a namespace of their own
        storage = kind
        memory = frozenset(q.memory)
        if b.instance_name:
            # geometry inputs: sized by the input primitive (compiler/glsl/geometry.py)
            t = self.apply_array_dims(bt, b.array_dims, b.loc,
                                      allow_unsized=(kind == "in" and self.stage in (
                                          "geometry", "tess_control", "tess_evaluation")) or (
                                          kind == "out" and self.stage == "tess_control"))
            var = Variable(b.instance_name, t, storage=storage, scope="global", loc=b.loc,
                           layout=block_layout, memory=memory, block=b,
                           read_only=storage in ("uniform", "in") or "readonly" in memory)
            if "binding" in block_layout and kind in ("uniform", "buffer"):
                self.check_binding_range(t, kind, block_layout["binding"], b.loc)
            b.variable = var
            self.declare_variable(var, b.loc, global_scope=True)
        else:
            if "binding" in block_layout and kind in ("uniform", "buffer"):
                self.check_binding_range(bt, kind, block_layout["binding"], b.loc)
            for f in fields:
                info = f.qualifiers
                var = Variable(f.name, f.type, storage=storage, scope="global", loc=b.loc,
                               layout=info["layout"], memory=info["memory"], block=b,
                               interpolation=info["interpolation"], centroid=bool(info["centroid"]),
                               sample=bool(info["sample"]),
                               read_only=storage in ("uniform", "in") or "readonly" in info["memory"])
                b.member_variables.append(var)
                self.declare_variable(var, b.loc, global_scope=True)


def _merge_layout(layout: dict, over: dict) -> None:
    """``layout`` updated by the qualifiers ``over`` declares nearer the member: a matrix
    layout there replaces the one inherited (GLSL 4.60 section 4.4.5: a member's
    row_major/column_major overrides its block's, the block's the default's)."""
    if MATRIX_LAYOUTS & over.keys():
        for key in MATRIX_LAYOUTS:
            layout.pop(key, None)
    layout.update(over)
