"""Generate driver/gl/enums.py, driver/gl/registry_commands.py,
driver/gl/registry_aliases.py and driver/gl/registry_extensions.py from the
Khronos XML registry (gl.xml).

The registry is the single source of GL enum values, of which commands each
API version has and of which commands each extension adds. Run:

    python -m driver.gl.gen_registry [path/to/gl.xml]

Without a path the registry is the one the C ABI's build reads (``registry_path``:
the directory named by SHIMGL_KHRONOS_XML, the glad2 package's copy, or
/usr/share/khronos-api). The checked-in outputs carry a banner naming this
generator; a test regenerates them and compares (it skips when no registry copy
is installed)."""

from __future__ import annotations

import importlib.util
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

__all__ = ["DEFAULT_REGISTRY", "generate_aliases", "generate_enums", "generate_commands",
           "generate_extension_commands", "main", "registry_path"]

DEFAULT_REGISTRY = Path("/usr/share/khronos-api/gl.xml")
HERE = Path(__file__).resolve().parent


def registry_path() -> Path:
    """gl.xml where the C ABI's build finds it (driver/abi/registry.py): the directory
    named by SHIMGL_KHRONOS_XML, the glad2 package's copy, else DEFAULT_REGISTRY
    (which may not exist: callers check)."""
    env = os.environ.get("SHIMGL_KHRONOS_XML")
    candidates = [Path(env) / "gl.xml"] if env else []
    spec = importlib.util.find_spec("glad")
    if spec is not None and spec.submodule_search_locations:
        candidates += [Path(p) / "files" / "gl.xml" for p in spec.submodule_search_locations]
    return next((c for c in candidates if c.is_file()), DEFAULT_REGISTRY)

# The API versions whose enums and commands we take (GL up to 4.6, GLES 1.1 common
# profile, GLES up to 3.2).
FEATURE_APIS = {"gl", "gles1", "gles2"}
# Extension enums used by our contexts beyond the core versions.
EXTENSION_ENUMS = (
    # OpenGL ES 1.1 extensions (driver/gl/features/gles1.py)
    "GL_POINT_SIZE_ARRAY_OES",
    "GL_POINT_SIZE_ARRAY_TYPE_OES",
    "GL_POINT_SIZE_ARRAY_STRIDE_OES",
    "GL_POINT_SIZE_ARRAY_POINTER_OES",
    "GL_POINT_SIZE_ARRAY_BUFFER_BINDING_OES",
    "GL_TEXTURE_CROP_RECT_OES",
    "GL_MODELVIEW_MATRIX_FLOAT_AS_INT_BITS_OES",
    "GL_PROJECTION_MATRIX_FLOAT_AS_INT_BITS_OES",
    "GL_TEXTURE_MATRIX_FLOAT_AS_INT_BITS_OES",
    "GL_TEXTURE_MAX_ANISOTROPY_EXT",
    "GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT",
    # EXT_framebuffer_multisample_blit_scaled: glBlitFramebuffer's scaled-resolve filters
    "GL_SCALED_RESOLVE_FASTEST_EXT",
    "GL_SCALED_RESOLVE_NICEST_EXT",
    # EXT_framebuffer_sRGB: whether the draw framebuffer can encode sRGB (glGet)
    "GL_FRAMEBUFFER_SRGB_CAPABLE_EXT",
    # ARB_texture_gather / ARB_gpu_shader5: how many components textureGather can select
    "GL_MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB",
    # GL_ARB_vertex_program / GL_ARB_fragment_program (driver/gl/arbprogram.py)
    "GL_VERTEX_PROGRAM_ARB",
    "GL_FRAGMENT_PROGRAM_ARB",
    "GL_PROGRAM_FORMAT_ASCII_ARB",
    "GL_PROGRAM_LENGTH_ARB",
    "GL_PROGRAM_FORMAT_ARB",
    "GL_PROGRAM_BINDING_ARB",
    "GL_PROGRAM_STRING_ARB",
    "GL_PROGRAM_ERROR_POSITION_ARB",
    "GL_PROGRAM_ERROR_STRING_ARB",
    "GL_PROGRAM_INSTRUCTIONS_ARB",
    "GL_MAX_PROGRAM_INSTRUCTIONS_ARB",
    "GL_PROGRAM_NATIVE_INSTRUCTIONS_ARB",
    "GL_MAX_PROGRAM_NATIVE_INSTRUCTIONS_ARB",
    "GL_PROGRAM_TEMPORARIES_ARB",
    "GL_MAX_PROGRAM_TEMPORARIES_ARB",
    "GL_PROGRAM_NATIVE_TEMPORARIES_ARB",
    "GL_MAX_PROGRAM_NATIVE_TEMPORARIES_ARB",
    "GL_PROGRAM_PARAMETERS_ARB",
    "GL_MAX_PROGRAM_PARAMETERS_ARB",
    "GL_PROGRAM_NATIVE_PARAMETERS_ARB",
    "GL_MAX_PROGRAM_NATIVE_PARAMETERS_ARB",
    "GL_PROGRAM_ATTRIBS_ARB",
    "GL_MAX_PROGRAM_ATTRIBS_ARB",
    "GL_PROGRAM_NATIVE_ATTRIBS_ARB",
    "GL_MAX_PROGRAM_NATIVE_ATTRIBS_ARB",
    "GL_PROGRAM_ADDRESS_REGISTERS_ARB",
    "GL_MAX_PROGRAM_ADDRESS_REGISTERS_ARB",
    "GL_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB",
    "GL_MAX_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB",
    "GL_MAX_PROGRAM_LOCAL_PARAMETERS_ARB",
    "GL_MAX_PROGRAM_ENV_PARAMETERS_ARB",
    "GL_PROGRAM_UNDER_NATIVE_LIMITS_ARB",
    "GL_PROGRAM_ALU_INSTRUCTIONS_ARB",
    "GL_PROGRAM_TEX_INSTRUCTIONS_ARB",
    "GL_PROGRAM_TEX_INDIRECTIONS_ARB",
    "GL_PROGRAM_NATIVE_ALU_INSTRUCTIONS_ARB",
    "GL_PROGRAM_NATIVE_TEX_INSTRUCTIONS_ARB",
    "GL_PROGRAM_NATIVE_TEX_INDIRECTIONS_ARB",
    "GL_MAX_PROGRAM_ALU_INSTRUCTIONS_ARB",
    "GL_MAX_PROGRAM_TEX_INSTRUCTIONS_ARB",
    "GL_MAX_PROGRAM_TEX_INDIRECTIONS_ARB",
    "GL_MAX_PROGRAM_NATIVE_ALU_INSTRUCTIONS_ARB",
    "GL_MAX_PROGRAM_NATIVE_TEX_INSTRUCTIONS_ARB",
    "GL_MAX_PROGRAM_NATIVE_TEX_INDIRECTIONS_ARB",
    "GL_MAX_PROGRAM_MATRICES_ARB",
    "GL_MAX_PROGRAM_MATRIX_STACK_DEPTH_ARB",
    "GL_CURRENT_MATRIX_ARB",
    "GL_CURRENT_MATRIX_STACK_DEPTH_ARB",
    "GL_TRANSPOSE_CURRENT_MATRIX_ARB",
    "GL_MATRIX0_ARB",
    "GL_MATRIX1_ARB",
    "GL_MATRIX2_ARB",
    "GL_MATRIX3_ARB",
    "GL_MATRIX4_ARB",
    "GL_MATRIX5_ARB",
    "GL_MATRIX6_ARB",
    "GL_MATRIX7_ARB",
    # GL_ATI_fragment_shader (driver/gl/legacy/atifs.py)
    "GL_FRAGMENT_SHADER_ATI",
    "GL_REG_0_ATI",
    "GL_REG_1_ATI",
    "GL_REG_2_ATI",
    "GL_REG_3_ATI",
    "GL_REG_4_ATI",
    "GL_REG_5_ATI",
    "GL_CON_0_ATI",
    "GL_CON_1_ATI",
    "GL_CON_2_ATI",
    "GL_CON_3_ATI",
    "GL_CON_4_ATI",
    "GL_CON_5_ATI",
    "GL_CON_6_ATI",
    "GL_CON_7_ATI",
    "GL_MOV_ATI",
    "GL_ADD_ATI",
    "GL_MUL_ATI",
    "GL_SUB_ATI",
    "GL_DOT3_ATI",
    "GL_DOT4_ATI",
    "GL_MAD_ATI",
    "GL_LERP_ATI",
    "GL_CND_ATI",
    "GL_CND0_ATI",
    "GL_DOT2_ADD_ATI",
    "GL_SECONDARY_INTERPOLATOR_ATI",
    "GL_SWIZZLE_STR_ATI",
    "GL_SWIZZLE_STQ_ATI",
    "GL_SWIZZLE_STR_DR_ATI",
    "GL_SWIZZLE_STQ_DQ_ATI",
    "GL_RED_BIT_ATI",
    "GL_GREEN_BIT_ATI",
    "GL_BLUE_BIT_ATI",
    "GL_2X_BIT_ATI",
    "GL_4X_BIT_ATI",
    "GL_8X_BIT_ATI",
    "GL_HALF_BIT_ATI",
    "GL_QUARTER_BIT_ATI",
    "GL_EIGHTH_BIT_ATI",
    "GL_SATURATE_BIT_ATI",
    "GL_COMP_BIT_ATI",
    "GL_NEGATE_BIT_ATI",
    "GL_BIAS_BIT_ATI",
    "GL_NUM_FRAGMENT_REGISTERS_ATI",
    "GL_NUM_FRAGMENT_CONSTANTS_ATI",
    "GL_NUM_PASSES_ATI",
    "GL_NUM_INSTRUCTIONS_PER_PASS_ATI",
    "GL_NUM_INSTRUCTIONS_TOTAL_ATI",
    "GL_NUM_INPUT_INTERPOLATOR_COMPONENTS_ATI",
    "GL_NUM_LOOPBACK_COMPONENTS_ATI",
    "GL_COLOR_ALPHA_PAIRING_ATI",
    # GL_NV_fog_distance (driver/gl/legacy/fixedfunc.py) and GL_MESA_pack_invert
    "GL_FOG_DISTANCE_MODE_NV",
    "GL_EYE_RADIAL_NV",
    "GL_EYE_PLANE_ABSOLUTE_NV",
    "GL_PACK_INVERT_MESA",
    # GL_EXT_vertex_array's counts (driver/gl/legacy/ext_vertex_array.py)
    "GL_VERTEX_ARRAY_COUNT_EXT",
    "GL_NORMAL_ARRAY_COUNT_EXT",
    "GL_COLOR_ARRAY_COUNT_EXT",
    "GL_INDEX_ARRAY_COUNT_EXT",
    "GL_TEXTURE_COORD_ARRAY_COUNT_EXT",
    "GL_EDGE_FLAG_ARRAY_COUNT_EXT",
    # GL_ARB_gpu_shader_int64: the uniform types (driver/gl/glsl.py)
    "GL_INT64_ARB",
    "GL_INT64_VEC2_ARB",
    "GL_INT64_VEC3_ARB",
    "GL_INT64_VEC4_ARB",
    "GL_UNSIGNED_INT64_ARB",
    "GL_UNSIGNED_INT64_VEC2_ARB",
    "GL_UNSIGNED_INT64_VEC3_ARB",
    "GL_UNSIGNED_INT64_VEC4_ARB",
    # GL_OES_EGL_image_external (driver/gl/features/egl_image.py)
    "GL_TEXTURE_EXTERNAL_OES",
    "GL_SAMPLER_EXTERNAL_OES",
    "GL_TEXTURE_BINDING_EXTERNAL_OES",
    "GL_REQUIRED_TEXTURE_IMAGE_UNITS_OES",
    # old extension names of compatibility contexts (driver/gl/features/old_names.py,
    # shader_objects.py; formats.py; legacy/ffgen.py's texture environments; legacy/get.py)
    "GL_ARRAY_ELEMENT_LOCK_FIRST_EXT",
    "GL_ARRAY_ELEMENT_LOCK_COUNT_EXT",
    "GL_PROGRAM_OBJECT_ARB",
    "GL_SHADER_OBJECT_ARB",
    "GL_OBJECT_TYPE_ARB",
    "GL_OBJECT_SUBTYPE_ARB",
    "GL_RGB2_EXT",
    "GL_COMPRESSED_LUMINANCE_ALPHA_3DC_ATI",
    "GL_REPLACE_EXT",
    "GL_DOT3_RGB_EXT",
    "GL_DOT3_RGBA_EXT",
    "GL_MODULATE_ADD_ATI",
    "GL_MODULATE_SIGNED_ADD_ATI",
    "GL_MODULATE_SUBTRACT_ATI",
    "GL_COMBINE4_NV",
    "GL_SOURCE3_RGB_NV",
    "GL_SOURCE3_ALPHA_NV",
    "GL_OPERAND3_RGB_NV",
    "GL_OPERAND3_ALPHA_NV",
    "GL_MAX_SHININESS_NV",
    "GL_MAX_SPOT_EXPONENT_NV",
    # session 14's extension names llvmpipe lists: 3DFX_texture_compression_FXT1 and
    # S3_s3tc (formats.py), AMD_pinned_memory (buffers), ARB/EXT_texture_filter_minmax,
    # EXT_texture_sRGB_R8/RG8, EXT_texture_mirror_clamp, ATI_texture_mirror_once,
    # MESA_ycbcr_texture, ARB_shading_language_include
    "GL_COMPRESSED_RGB_FXT1_3DFX",
    "GL_COMPRESSED_RGBA_FXT1_3DFX",
    "GL_RGB_S3TC",
    "GL_RGB4_S3TC",
    "GL_RGBA_S3TC",
    "GL_RGBA4_S3TC",
    "GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD",
    "GL_TEXTURE_REDUCTION_MODE_ARB",
    "GL_WEIGHTED_AVERAGE_ARB",
    "GL_SR8_EXT",
    "GL_SRG8_EXT",
    "GL_MIRROR_CLAMP_EXT",
    "GL_MIRROR_CLAMP_TO_BORDER_EXT",
    "GL_YCBCR_MESA",
    "GL_UNSIGNED_SHORT_8_8_MESA",
    "GL_UNSIGNED_SHORT_8_8_REV_MESA",
    "GL_SHADER_INCLUDE_ARB",
    "GL_NAMED_STRING_LENGTH_ARB",
    "GL_NAMED_STRING_TYPE_ARB",
    # EXT_shader_framebuffer_fetch (driver/gl/features/framebuffer_fetch.py)
    "GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT",
    # session 15's API-side names llvmpipe lists: EXT_stencil_two_side, IBM_rasterpos_clip,
    # EXT_debug_label, MESA_framebuffer_flip_y, EXT_memory_object(_fd)
    "GL_STENCIL_TEST_TWO_SIDE_EXT",
    "GL_ACTIVE_STENCIL_FACE_EXT",
    "GL_RASTER_POSITION_UNCLIPPED_IBM",
    "GL_BUFFER_OBJECT_EXT",
    "GL_SHADER_OBJECT_EXT",
    "GL_PROGRAM_OBJECT_EXT",
    "GL_QUERY_OBJECT_EXT",
    "GL_VERTEX_ARRAY_OBJECT_EXT",
    "GL_PROGRAM_PIPELINE_OBJECT_EXT",
    "GL_FRAMEBUFFER_FLIP_Y_MESA",
    "GL_TEXTURE_TILING_EXT",
    "GL_DEDICATED_MEMORY_OBJECT_EXT",
    "GL_PROTECTED_MEMORY_OBJECT_EXT",
    "GL_NUM_TILING_TYPES_EXT",
    "GL_TILING_TYPES_EXT",
    "GL_OPTIMAL_TILING_EXT",
    "GL_LINEAR_TILING_EXT",
    "GL_NUM_DEVICE_UUIDS_EXT",
    "GL_DEVICE_UUID_EXT",
    "GL_DRIVER_UUID_EXT",
    "GL_UUID_SIZE_EXT",
    "GL_HANDLE_TYPE_OPAQUE_FD_EXT",
)


def _banner(path: Path) -> str:
    return (
        f'"""Generated by driver/gl/gen_registry.py from the Khronos XML registry\n'
        f"({path.name}). Do not edit: rerun the generator.\"\"\"\n"
    )


def _features(root):
    for feature in root.findall("feature"):
        if feature.get("api") in FEATURE_APIS:
            yield feature


def generate_enums(registry: Path = DEFAULT_REGISTRY) -> str:
    root = ET.parse(registry).getroot()
    values: dict[str, int] = {}
    for enum in root.findall("enums/enum"):
        api = enum.get("api")
        if api not in (None, "gl"):
            continue  # e.g. api="gles2" duplicates with other values (none in use)
        value = enum.get("value")
        name = enum.get("name")
        if value is None or name is None:
            continue
        values[name] = int(value, 0)
    wanted: set[str] = set(EXTENSION_ENUMS)
    for feature in _features(root):
        for req in feature.findall("require/enum"):
            wanted.add(req.get("name"))
    names = sorted(n for n in wanted if n in values)
    out = [_banner(registry), "# fmt: off", "__all__ = ["]
    out += [f'    "{n}",' for n in names]
    out.append("]\n")
    for n in names:
        v = values[n]
        out.append(f"{n} = {v:#06x}" if v >= 0 else f"{n} = {v}")
    out.append("")
    return "\n".join(out) + "\n"


def generate_commands(registry: Path = DEFAULT_REGISTRY) -> str:
    """COMMANDS[(api, version)] = the commands that version has (required by it
    or an earlier version of the same API, minus those removed by the core
    profile for gl >= 3.2 core, which is listed separately as CORE_REMOVED)."""
    root = ET.parse(registry).getroot()
    added: dict[tuple[str, str], list[str]] = {}
    removed_core: set[str] = set()
    compatibility: set[str] = set()
    for feature in _features(root):
        key = (feature.get("api"), feature.get("number"))
        names = []
        for req in feature.findall("require"):
            if req.get("profile") not in (None, "core", "compatibility", "common"):
                continue
            names += [c.get("name") for c in req.findall("command")]
            if req.get("profile") == "compatibility":
                compatibility.update(c.get("name") for c in req.findall("command"))
        added[key] = sorted(set(names))
        for rem in feature.findall("remove"):
            if rem.get("profile") == "core":
                removed_core.update(c.get("name") for c in rem.findall("command"))
    out = [_banner(registry), "# fmt: off",
           '__all__ = ["ADDED_IN", "COMPATIBILITY_PROFILE", "CORE_REMOVED"]\n',
           "# (api, version) -> commands first required by that version",
           "ADDED_IN: dict[tuple[str, str], tuple[str, ...]] = {"]
    for key, names in added.items():
        out.append(f"    {key!r}: (")
        out += [f'        "{n}",' for n in names]
        out.append("    ),")
    out.append("}\n")
    out.append("# commands the GL 3.2+ core profile removes")
    out.append("CORE_REMOVED: frozenset[str] = frozenset({")
    out += [f'    "{n}",' for n in sorted(removed_core)]
    out.append("})\n")
    out.append("# commands a GL version requires of the compatibility profile only (never in a core profile)")
    out.append("COMPATIBILITY_PROFILE: frozenset[str] = frozenset({")
    out += [f'    "{n}",' for n in sorted(compatibility)]
    out.append("})\n")
    return "\n".join(out)


def generate_aliases(registry: Path = DEFAULT_REGISTRY) -> str:
    """ALIASES[name] = the core command an extension command is an alias of
    (the registry's <alias>), for aliases of commands some GL or GLES version
    has; ALIAS_EXTENSIONS[name] = the extensions that add the alias."""
    root = ET.parse(registry).getroot()
    core: set[str] = set()
    for feature in _features(root):
        for req in feature.findall("require"):
            core.update(c.get("name") for c in req.findall("command"))
    aliases = {}
    for cmd in root.find("commands"):
        name = cmd.find("proto/name").text
        alias = cmd.find("alias")
        if alias is not None and alias.get("name") in core and name not in core:
            aliases[name] = alias.get("name")
    adders: dict[str, set[str]] = {n: set() for n in aliases}
    for ext in root.find("extensions"):
        for req in ext.findall("require"):
            for c in req.findall("command"):
                if c.get("name") in adders:
                    adders[c.get("name")].add(ext.get("name"))
    out = [_banner(registry), "# fmt: off",
           '__all__ = ["ALIASES", "ALIAS_EXTENSIONS"]\n',
           "# extension command -> the core command it is an alias of",
           "ALIASES: dict[str, str] = {"]
    out += [f'    "{n}": "{aliases[n]}",' for n in sorted(aliases)]
    out.append("}\n")
    out.append("# extension command -> the extensions that add it")
    out.append("ALIAS_EXTENSIONS: dict[str, tuple[str, ...]] = {")
    out += [f'    "{n}": {tuple(sorted(adders[n]))!r},' for n in sorted(aliases)]
    out.append("}\n")
    return "\n".join(out)


def generate_extension_commands(registry: Path = DEFAULT_REGISTRY) -> str:
    """EXTENSION_COMMANDS[extension] = the commands it adds, one string of words
    ``command`` or ``command@api`` or ``command@api:profile`` (the registry's
    <require api=... profile=...>; read with driver.gl.entrypoints). A <require> the
    registry marks as an interaction with another extension ("A interactions with
    B") is listed under "A+B": it needs both. Only the extensions of GL, GL core and
    GLES. (One string per extension: the module is imported when a context's
    dispatch is built, and a string constant costs nothing to compile.)"""
    root = ET.parse(registry).getroot()
    wanted = {"gl", "glcore", "gles1", "gles2"}
    table: dict[str, list[str]] = {}
    for ext in root.find("extensions"):
        if not wanted & set((ext.get("supported") or "").split("|")):
            continue
        name = ext.get("name")
        for req in ext.findall("require"):
            commands = [c.get("name") for c in req.findall("command")]
            if not commands:
                continue
            key = name
            comment = req.get("comment") or ""
            if " interactions with " in comment:
                other = comment.split(" interactions with ")[1].split()[0]
                key = f"{name}+GL_{other}"
            where = req.get("api") or ""
            if req.get("profile"):
                where += ":" + req.get("profile")
            table.setdefault(key, []).extend(f"{c}@{where}" if where else c for c in commands)
    out = [_banner(registry), "# fmt: off",
           '__all__ = ["EXTENSION_COMMANDS"]\n',
           '# extension ("A+B": A with B) -> "command command@api command@api:profile ..." it adds',
           "EXTENSION_COMMANDS: dict[str, str] = {"]
    out += [f'    "{key}": "{" ".join(table[key])}",' for key in sorted(table)]
    out.append("}\n")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    registry = Path(argv[0]) if argv else registry_path()
    (HERE / "enums.py").write_text(generate_enums(registry))
    (HERE / "registry_commands.py").write_text(generate_commands(registry))
    (HERE / "registry_aliases.py").write_text(generate_aliases(registry))
    (HERE / "registry_extensions.py").write_text(generate_extension_commands(registry))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
