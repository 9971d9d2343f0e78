"""glGet*: the state and limit tables (GL 4.6 chapter 23, GLES 3.2 chapter 21)
and the type conversions of GL 4.6 section 2.2.2."""

from __future__ import annotations

import math

from driver.gl import enums as E
from driver.gl.color_clamp import QUERY_CLAMPED_PNAMES, clamp_query, mode as clamp_mode
from driver.gl.errors import GLError, check, check_enum
from driver.gl.features.gles_ext import es_has, parallel_compile
from driver.gl.formats import general_purpose_compressed
from driver.gl.textures import bound_texture, texture_binding_name
from driver.gl.framebuffers import draw_framebuffer_bits
from driver.gl.state import STENCIL_TWO_SIDE_BACK

__all__ = ["GetMixin", "NORMALIZED_PNAMES"]

# Values converted to integers by the [-1, 1] -> [INT_MIN, INT_MAX] mapping
# (GL 4.6 section 2.2.2, "color" and normalized values).
NORMALIZED_PNAMES = frozenset({E.GL_COLOR_CLEAR_VALUE, E.GL_BLEND_COLOR, E.GL_DEPTH_CLEAR_VALUE,
                               E.GL_DEPTH_RANGE, E.GL_CURRENT_COLOR})


# ARB_texture_buffer_object's glGet names (the _ARB enums have no core spelling)
_TEXTURE_BUFFER_DATA_STORE_BINDING, _TEXTURE_BUFFER_FORMAT = 0x8C2D, 0x8C2E
# EXT_packed_float's query of the draw framebuffer (no core spelling either)
_RGBA_SIGNED_COMPONENTS_EXT = 0x8C3C


_READ_FRAMEBUFFER = object()       # _implementation_read's default: the bound read framebuffer


def _active_stencil(c):
    """The StencilFace the front-face queries answer (EXT_stencil_two_side: the
    active stencil face's)."""
    sb = c.state.stencil_buffer
    return sb.stencil[sb.active_stencil_face]


def _name(obj) -> int:
    return 0 if obj is None else obj.name


INT32_RANGE = (-(1 << 31), (1 << 31) - 1)
INT64_RANGE = (-(1 << 63), (1 << 63) - 1)


def _float_to_int(v: float, normalized: bool) -> int:
    if normalized:
        v = max(-1.0, min(1.0, v))
        return int(round(v * 0x7FFFFFFF)) if v >= 0 else int(round(v * 0x80000000))
    if math.isnan(v):
        return 0
    if math.isinf(v):
        return INT64_RANGE[1] if v > 0 else INT64_RANGE[0]
    return int(round(v))


# bit masks answered as their 32-bit pattern, never clamped (GL 4.6 section 2.2.2)
MASK_PNAMES = frozenset({E.GL_STENCIL_VALUE_MASK, E.GL_STENCIL_WRITEMASK,
                         E.GL_STENCIL_BACK_VALUE_MASK, E.GL_STENCIL_BACK_WRITEMASK,
                         E.GL_SAMPLE_MASK_VALUE})
#: GLuint state GetIntegerv returns as the same 32 bits, as Mesa's TYPE_UINT does
#: (KHR_parallel_shader_compile: MAX_SHADER_COMPILER_THREADS_KHR's 0xFFFFFFFF reads as -1)
UINT_BITS_PNAMES = frozenset({0x91B0})


def _clamped(values, bounds) -> list[int]:
    """Integer answers in the query's type: a value it cannot represent is
    clamped to the nearest one it can (GL 4.6 section 2.2.2), e.g.
    MAX_SERVER_WAIT_TIMEOUT (a GLuint64 limit) through GetIntegerv/GetInteger64v."""
    lo, hi = bounds
    return [min(max(v, lo), hi) for v in values]


class GetMixin:
    def _get_entries(self) -> dict:
        """pname -> function(ctx) returning a scalar or tuple."""
        api = self.api
        lim = self.limits
        t = {}
        for name, value in lim.items():
            t[getattr(E, name)] = (lambda v: lambda c: v)(value)
        t.update({
            E.GL_ARRAY_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_ARRAY_BUFFER)),
            E.GL_ELEMENT_ARRAY_BUFFER_BINDING: lambda c: _name(c.vao.element_buffer),
            E.GL_VIEWPORT: lambda c: c.state.viewports.viewport,
            E.GL_SCISSOR_BOX: lambda c: c.state.viewports.scissor,
            E.GL_DEPTH_RANGE: lambda c: c.state.viewports.depth_range,
            E.GL_COLOR_CLEAR_VALUE: lambda c: c.state.color_buffer.clear_color,
            E.GL_DEPTH_CLEAR_VALUE: lambda c: c.state.depth_buffer.clear_depth,
            E.GL_STENCIL_CLEAR_VALUE: lambda c: c.state.stencil_buffer.clear_stencil,
            E.GL_COLOR_WRITEMASK: lambda c: c.state.color_buffer.rt[0].color_mask,
            E.GL_DEPTH_WRITEMASK: lambda c: c.state.depth_buffer.depth_mask,
            E.GL_DEPTH_FUNC: lambda c: c.state.depth_buffer.depth_func,
            E.GL_BLEND_SRC_RGB: lambda c: c.state.color_buffer.rt[0].src_rgb,
            E.GL_BLEND_DST_RGB: lambda c: c.state.color_buffer.rt[0].dst_rgb,
            E.GL_BLEND_SRC_ALPHA: lambda c: c.state.color_buffer.rt[0].src_alpha,
            E.GL_BLEND_DST_ALPHA: lambda c: c.state.color_buffer.rt[0].dst_alpha,
            E.GL_BLEND_EQUATION_RGB: lambda c: c.state.color_buffer.rt[0].eq_rgb,
            E.GL_BLEND_EQUATION_ALPHA: lambda c: c.state.color_buffer.rt[0].eq_alpha,
            E.GL_BLEND_COLOR: lambda c: c.state.color_buffer.blend_color,
            E.GL_STENCIL_FUNC: lambda c: _active_stencil(c).func,
            E.GL_STENCIL_REF: lambda c: _active_stencil(c).ref,
            E.GL_STENCIL_VALUE_MASK: lambda c: _active_stencil(c).value_mask,
            E.GL_STENCIL_WRITEMASK: lambda c: _active_stencil(c).write_mask,
            E.GL_STENCIL_FAIL: lambda c: _active_stencil(c).fail,
            E.GL_STENCIL_PASS_DEPTH_FAIL: lambda c: _active_stencil(c).zfail,
            E.GL_STENCIL_PASS_DEPTH_PASS: lambda c: _active_stencil(c).zpass,
            E.GL_STENCIL_BACK_FUNC: lambda c: c.state.stencil_buffer.stencil[1].func,
            E.GL_STENCIL_BACK_REF: lambda c: c.state.stencil_buffer.stencil[1].ref,
            E.GL_STENCIL_BACK_VALUE_MASK: lambda c: c.state.stencil_buffer.stencil[1].value_mask,
            E.GL_STENCIL_BACK_WRITEMASK: lambda c: c.state.stencil_buffer.stencil[1].write_mask,
            E.GL_STENCIL_BACK_FAIL: lambda c: c.state.stencil_buffer.stencil[1].fail,
            E.GL_STENCIL_BACK_PASS_DEPTH_FAIL: lambda c: c.state.stencil_buffer.stencil[1].zfail,
            E.GL_STENCIL_BACK_PASS_DEPTH_PASS: lambda c: c.state.stencil_buffer.stencil[1].zpass,
            E.GL_CULL_FACE_MODE: lambda c: c.state.raster.cull_face,
            E.GL_FRONT_FACE: lambda c: c.state.raster.front_face,
            E.GL_POLYGON_OFFSET_FACTOR: lambda c: c.state.raster.polygon_offset_factor,
            E.GL_POLYGON_OFFSET_UNITS: lambda c: c.state.raster.polygon_offset_units,
            E.GL_POLYGON_OFFSET_CLAMP: lambda c: c.state.raster.polygon_offset_clamp,
            E.GL_CLIP_ORIGIN: lambda c: c.state.transform.clip_origin,
            E.GL_CLIP_DEPTH_MODE: lambda c: c.state.transform.clip_depth_mode,
            E.GL_LINE_WIDTH: lambda c: c.state.raster.line_width,
            E.GL_SAMPLE_COVERAGE_VALUE: lambda c: c.state.multisample.sample_coverage_value,
            E.GL_SAMPLE_COVERAGE_INVERT: lambda c: c.state.multisample.sample_coverage_invert,
            E.GL_UNPACK_ALIGNMENT: lambda c: c.state.pixel.unpack.alignment,
            E.GL_PACK_ALIGNMENT: lambda c: c.state.pixel.pack.alignment,
            E.GL_GENERATE_MIPMAP_HINT: lambda c: c.state.misc.hints.get(E.GL_GENERATE_MIPMAP_HINT, E.GL_DONT_CARE),
            E.GL_ACTIVE_TEXTURE: lambda c: E.GL_TEXTURE0 + c.active_texture,
            E.GL_TEXTURE_BINDING_2D: lambda c: texture_binding_name(c, E.GL_TEXTURE_2D),
            E.GL_TEXTURE_BINDING_CUBE_MAP: lambda c: texture_binding_name(c, E.GL_TEXTURE_CUBE_MAP),
            E.GL_CURRENT_PROGRAM: lambda c: _name(c.current_program),
            E.GL_FRAMEBUFFER_BINDING: lambda c: _name(c.draw_framebuffer),
            E.GL_RENDERBUFFER_BINDING: lambda c: _name(c.renderbuffer_binding),
            E.GL_SUBPIXEL_BITS: lambda c: c.caps.subpixel_bits,
            E.GL_RED_BITS: lambda c: draw_framebuffer_bits(c, 0),
            E.GL_GREEN_BITS: lambda c: draw_framebuffer_bits(c, 1),
            E.GL_BLUE_BITS: lambda c: draw_framebuffer_bits(c, 2),
            E.GL_ALPHA_BITS: lambda c: draw_framebuffer_bits(c, 3),
            E.GL_DEPTH_BITS: lambda c: draw_framebuffer_bits(c, 4),
            E.GL_STENCIL_BITS: lambda c: draw_framebuffer_bits(c, 5),
            E.GL_IMPLEMENTATION_COLOR_READ_FORMAT: lambda c: c._implementation_read()[0],
            E.GL_IMPLEMENTATION_COLOR_READ_TYPE: lambda c: c._implementation_read()[1],
            E.GL_NUM_COMPRESSED_TEXTURE_FORMATS: lambda c: len(general_purpose_compressed(c.api.es, c.api.version)),
            E.GL_COMPRESSED_TEXTURE_FORMATS: lambda c: general_purpose_compressed(c.api.es, c.api.version),
            E.GL_NUM_SHADER_BINARY_FORMATS: lambda c: len(c.spirv_binary_formats()),
            E.GL_SHADER_BINARY_FORMATS: lambda c: c.spirv_binary_formats(),      # features/gl_spirv.py
            E.GL_SHADER_COMPILER: lambda c: True,
            E.GL_SAMPLE_BUFFERS: lambda c: int(c._draw_fb_samples() > 1),
            E.GL_SAMPLES: lambda c: c._draw_fb_samples(),
        })
        if api.has_extension("GL_EXT_memory_object"):     # one device UUID (features/memory_object.py)
            t[E.GL_NUM_DEVICE_UUIDS_EXT] = lambda c: 1
        if self.spirv_binary_formats():          # where SPIR-V is available (features/gl_spirv.py)
            t[E.GL_NUM_SPIR_V_EXTENSIONS] = lambda c: c.spirv_extension_count()
        if api.gl_or_es((3, 0), (3, 0)):
            t.update({
                E.GL_MAJOR_VERSION: lambda c: api.version[0],
                E.GL_MINOR_VERSION: lambda c: api.version[1],
                E.GL_NUM_EXTENSIONS: lambda c: len(c.extensions),
                E.GL_VERTEX_ARRAY_BINDING: lambda c: _name(c.vao) if c.vao is not c.default_vao else 0,
                E.GL_DRAW_FRAMEBUFFER_BINDING: lambda c: _name(c.draw_framebuffer),
                E.GL_READ_FRAMEBUFFER_BINDING: lambda c: _name(c.read_framebuffer),
                E.GL_READ_BUFFER: lambda c: c._read_buffer_enum(),
                E.GL_COPY_READ_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_COPY_READ_BUFFER)),
                E.GL_COPY_WRITE_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_COPY_WRITE_BUFFER)),
                E.GL_PIXEL_PACK_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_PIXEL_PACK_BUFFER)),
                E.GL_PIXEL_UNPACK_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER)),
                E.GL_UNIFORM_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_UNIFORM_BUFFER)),
                E.GL_TRANSFORM_FEEDBACK_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_TRANSFORM_FEEDBACK_BUFFER)),
                E.GL_TEXTURE_BINDING_3D: lambda c: texture_binding_name(c, E.GL_TEXTURE_3D),
                E.GL_TEXTURE_BINDING_2D_ARRAY: lambda c: texture_binding_name(c, E.GL_TEXTURE_2D_ARRAY),
                E.GL_TEXTURE_BINDING_CUBE_MAP_ARRAY:
                    lambda c: texture_binding_name(c, E.GL_TEXTURE_CUBE_MAP_ARRAY),
                E.GL_SAMPLER_BINDING: lambda c: _name(c.sampler_units[c.active_texture]),
                E.GL_UNPACK_ROW_LENGTH: lambda c: c.state.pixel.unpack.row_length,
                E.GL_UNPACK_SKIP_ROWS: lambda c: c.state.pixel.unpack.skip_rows,
                E.GL_UNPACK_SKIP_PIXELS: lambda c: c.state.pixel.unpack.skip_pixels,
                E.GL_UNPACK_IMAGE_HEIGHT: lambda c: c.state.pixel.unpack.image_height,
                E.GL_UNPACK_SKIP_IMAGES: lambda c: c.state.pixel.unpack.skip_images,
                E.GL_PACK_ROW_LENGTH: lambda c: c.state.pixel.pack.row_length,
                E.GL_PACK_SKIP_ROWS: lambda c: c.state.pixel.pack.skip_rows,
                E.GL_PACK_SKIP_PIXELS: lambda c: c.state.pixel.pack.skip_pixels,
                E.GL_FRAGMENT_SHADER_DERIVATIVE_HINT: lambda c: c.state.misc.hints.get(
                    E.GL_FRAGMENT_SHADER_DERIVATIVE_HINT, E.GL_DONT_CARE),
                E.GL_TRANSFORM_FEEDBACK_ACTIVE: lambda c: c.xfb.active,
                E.GL_TRANSFORM_FEEDBACK_PAUSED: lambda c: c.xfb.paused,
                E.GL_TRANSFORM_FEEDBACK_BINDING: lambda c: _name(c.xfb) if c.xfb is not c.default_xfb else 0,
            })
            for i in range(self.caps.max_render_targets):
                t[E.GL_DRAW_BUFFER0 + i] = (lambda i: lambda c: c._draw_buffer_enum(i))(i)
        elif es_has(api, "draw_buffers"):          # EXT_draw_buffers in GLES 2.0
            for i in range(self.caps.max_render_targets):
                t[E.GL_DRAW_BUFFER0 + i] = (lambda i: lambda c: c._draw_buffer_enum(i))(i)
        from driver.gl.binary import PROGRAM_BINARY_FORMAT, available as binary_available
        if binary_available(api):
            t.update({
                E.GL_PROGRAM_BINARY_FORMATS: lambda c: (PROGRAM_BINARY_FORMAT,),
                E.GL_NUM_PROGRAM_BINARY_FORMATS: lambda c: 1,
            })
        if api.gl(4, 0) or es_has(api, "tessellation_shader"):
            t.update({
                E.GL_PATCH_VERTICES: lambda c: c._patch_state()["vertices"],
                E.GL_PATCH_DEFAULT_OUTER_LEVEL: lambda c: c._patch_state()["outer"],
                E.GL_PATCH_DEFAULT_INNER_LEVEL: lambda c: c._patch_state()["inner"],
            })
        if not api.es:
            t.update({
                E.GL_POLYGON_MODE: lambda c: (c.state.raster.polygon_mode, c.state.raster.polygon_mode_back),
                E.GL_POINT_SIZE: lambda c: c.state.raster.point_size,
                E.GL_LOGIC_OP_MODE: lambda c: c.state.color_buffer.logic_op,
                E.GL_PROVOKING_VERTEX: lambda c: c.state.raster.provoking_vertex,
                # glPointParameter's core state (GL 4.6 table 23.10: 1.0, UPPER_LEFT initially;
                # the compatibility profile's fixed-function table answers them itself)
                E.GL_POINT_FADE_THRESHOLD_SIZE: lambda c: c.state.raster.point_fade_threshold,
                E.GL_POINT_SPRITE_COORD_ORIGIN: lambda c: c.state.raster.point_sprite_origin,
                # glClampColor's read clamping (GL 4.6 table 23.36, initially FIXED_ONLY)
                E.GL_CLAMP_READ_COLOR: lambda c: clamp_mode(c.state, E.GL_CLAMP_READ_COLOR),
                E.GL_PRIMITIVE_RESTART_INDEX: lambda c: c.state.misc.primitive_restart_index,
                E.GL_DRAW_BUFFER: lambda c: c._draw_buffer_enum(0),
                E.GL_PACK_IMAGE_HEIGHT: lambda c: c.state.pixel.pack.image_height,
                E.GL_PACK_SKIP_IMAGES: lambda c: c.state.pixel.pack.skip_images,
                E.GL_UNPACK_SWAP_BYTES: lambda c: c.state.pixel.unpack.swap_bytes,
                E.GL_UNPACK_LSB_FIRST: lambda c: c.state.pixel.unpack.lsb_first,
                E.GL_PACK_SWAP_BYTES: lambda c: c.state.pixel.pack.swap_bytes,
                E.GL_PACK_LSB_FIRST: lambda c: c.state.pixel.pack.lsb_first,
                E.GL_PACK_INVERT_MESA: lambda c: c.state.pixel.pack.invert,        # MESA_pack_invert
                E.GL_TEXTURE_BINDING_1D: lambda c: texture_binding_name(c, E.GL_TEXTURE_1D),
                E.GL_TEXTURE_BINDING_1D_ARRAY: lambda c: texture_binding_name(c, E.GL_TEXTURE_1D_ARRAY),
                E.GL_TEXTURE_BINDING_RECTANGLE: lambda c: texture_binding_name(c, E.GL_TEXTURE_RECTANGLE),
                E.GL_TEXTURE_BINDING_BUFFER: lambda c: texture_binding_name(c, E.GL_TEXTURE_BUFFER),
                E.GL_CONTEXT_PROFILE_MASK: lambda c: (E.GL_CONTEXT_CORE_PROFILE_BIT if api.core
                                                      else E.GL_CONTEXT_COMPATIBILITY_PROFILE_BIT),
                E.GL_CONTEXT_FLAGS: lambda c: api.flags,
                E.GL_TIMESTAMP: lambda c: c.screen.get_timestamp_ns(),   # GL 4.6 section 4.3
                E.GL_DOUBLEBUFFER: lambda c: False,
                E.GL_STEREO: lambda c: False,
                E.GL_LINE_SMOOTH_HINT: lambda c: c.state.misc.hints.get(E.GL_LINE_SMOOTH_HINT, E.GL_DONT_CARE),
                E.GL_POLYGON_SMOOTH_HINT: lambda c: c.state.misc.hints.get(E.GL_POLYGON_SMOOTH_HINT, E.GL_DONT_CARE),
                E.GL_TEXTURE_COMPRESSION_HINT:
                    lambda c: c.state.misc.hints.get(E.GL_TEXTURE_COMPRESSION_HINT, E.GL_DONT_CARE),
            })
        if api.has_extension("GL_EXT_texture_integer"):
            from driver.gl.features.texture_integer import GL_RGBA_INTEGER_MODE_EXT, rgba_integer_mode
            t[GL_RGBA_INTEGER_MODE_EXT] = rgba_integer_mode
        if not api.es and api.has_extension("GL_EXT_packed_float"):
            t[_RGBA_SIGNED_COMPONENTS_EXT] = lambda c: c._draw_fb_signed_components()
        if api.has_extension("GL_KHR_robustness"):      # GL 4.6 section 2.3.3
            t[E.GL_RESET_NOTIFICATION_STRATEGY] = lambda c: c._reset_notification_strategy()
            from driver.gl.features.robustness import GL_CONTEXT_ROBUST_ACCESS
            t[GL_CONTEXT_ROBUST_ACCESS] = lambda c: bool(api.flags & E.GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT)
        if api.gl(4, 5) or api.has_extension("GL_KHR_context_flush_control"):
            # what releasing the context does: FLUSH, or NONE when EGL's
            # EGL_CONTEXT_RELEASE_BEHAVIOR_KHR asked for it (driver.abi.egl)
            t[E.GL_CONTEXT_RELEASE_BEHAVIOR] = lambda c: getattr(c, "release_behavior",
                                                                 E.GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH)
        if api.has_extension("GL_OES_EGL_image_external"):
            t[E.GL_TEXTURE_BINDING_EXTERNAL_OES] = lambda c: texture_binding_name(c, E.GL_TEXTURE_EXTERNAL_OES)
        if api.has_extension("GL_ARB_query_buffer_object"):
            t[E.GL_QUERY_BUFFER_BINDING] = lambda c: _name(c.buffer_bindings.get(E.GL_QUERY_BUFFER))
        if api.has_extension("GL_ARB_indirect_parameters"):
            t[E.GL_PARAMETER_BUFFER_BINDING] = lambda c: _name(c.buffer_bindings.get(E.GL_PARAMETER_BUFFER))
        if not api.es and (api.compat or api.version == (3, 2)):
            # GL 3.2 core (removed in 3.3) and compatibility: a quad's flat colour comes from
            # its last vertex under either convention here
            t[E.GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION] = lambda c: False
        if api.gl(3, 1) or es_has(api, "texture_buffer"):
            # the buffer bound to the TEXTURE_BUFFER target (TEXTURE_BUFFER_BINDING, same value)
            t[E.GL_TEXTURE_BUFFER_BINDING] = lambda c: _name(c.buffer_bindings.get(E.GL_TEXTURE_BUFFER))
            t[E.GL_TEXTURE_BINDING_BUFFER] = lambda c: texture_binding_name(c, E.GL_TEXTURE_BUFFER)
            if not api.es:
                # ARB_texture_buffer_object's queries of the bound buffer texture (Mesa answers
                # them in both profiles): its buffer and its format, whose default is
                # LUMINANCE8 in the compatibility profile (the extension's) and R8 in core
                t[_TEXTURE_BUFFER_DATA_STORE_BINDING] = lambda c: _name(bound_texture(c, E.GL_TEXTURE_BUFFER).buffer)
                t[_TEXTURE_BUFFER_FORMAT] = lambda c: (bound_texture(c, E.GL_TEXTURE_BUFFER).buffer_internal_format
                                                       or (E.GL_LUMINANCE8 if api.compat else E.GL_R8))
        if not api.es and (api.gl(4, 2) or api.has_extension("GL_ARB_compressed_texture_pixel_storage")):
            for side in ("unpack", "pack"):
                for dim in ("width", "height", "depth", "size"):
                    t[getattr(E, f"GL_{side.upper()}_COMPRESSED_BLOCK_{dim.upper()}")] = (
                        lambda side, field: lambda c: getattr(getattr(c.state.pixel, side), field))(
                            side, f"compressed_block_{dim}")
        if api.has_extension("GL_EXT_framebuffer_sRGB"):
            t[E.GL_FRAMEBUFFER_SRGB_CAPABLE_EXT] = lambda c: c._draw_fb_srgb_capable()
        if api.compat and api.has_extension("GL_NV_primitive_restart"):
            from driver.gl.features import nv_primitive_restart as nv
            t[nv.GL_PRIMITIVE_RESTART_NV] = lambda c: E.GL_PRIMITIVE_RESTART in c.state.enabled
            t[nv.GL_PRIMITIVE_RESTART_INDEX_NV] = lambda c: c.state.misc.primitive_restart_index
        if api.es and api.version < (3, 0):       # GLES 2.0's pixel-store extensions
            if api.has_extension("GL_EXT_unpack_subimage"):
                t[E.GL_UNPACK_ROW_LENGTH] = lambda c: c.state.pixel.unpack.row_length
                t[E.GL_UNPACK_SKIP_ROWS] = lambda c: c.state.pixel.unpack.skip_rows
                t[E.GL_UNPACK_SKIP_PIXELS] = lambda c: c.state.pixel.unpack.skip_pixels
            if api.has_extension("GL_NV_pack_subimage"):
                t[E.GL_PACK_ROW_LENGTH] = lambda c: c.state.pixel.pack.row_length
                t[E.GL_PACK_SKIP_ROWS] = lambda c: c.state.pixel.pack.skip_rows
                t[E.GL_PACK_SKIP_PIXELS] = lambda c: c.state.pixel.pack.skip_pixels
        if es_has(api, "timer_query"):             # EXT_disjoint_timer_query
            from driver.gl.features.gles_ext import GL_GPU_DISJOINT_EXT
            t[E.GL_TIMESTAMP] = lambda c: c.screen.get_timestamp_ns()
            t[GL_GPU_DISJOINT_EXT] = lambda c: False      # the model's GPU clock never jumps
        if api.es and api.has_extension("GL_OES_standard_derivatives"):     # in GLES 2.0 too
            t[E.GL_FRAGMENT_SHADER_DERIVATIVE_HINT] = lambda c: c.state.misc.hints.get(
                E.GL_FRAGMENT_SHADER_DERIVATIVE_HINT, E.GL_DONT_CARE)
        if parallel_compile(api):
            from driver.gl.features.gles_ext import GL_MAX_SHADER_COMPILER_THREADS_KHR, compiler_threads
            t[GL_MAX_SHADER_COMPILER_THREADS_KHR] = compiler_threads
        from driver.gl.features import framebuffer_fetch
        if framebuffer_fetch.available(api):
            t[E.GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT] = framebuffer_fetch.discards_samples
        if api.gl_or_es((3, 2), (3, 1)):
            t[E.GL_SAMPLE_MASK_VALUE] = lambda c: c.state.multisample.sample_mask_value
        if api.es_(3, 2):                         # GLES 3.2 table 21.40
            t[E.GL_CONTEXT_FLAGS] = lambda c: api.flags
        from driver.gl.features import primitive_bounding_box as pbb
        if pbb.available(api):
            t[E.GL_PRIMITIVE_BOUNDING_BOX] = pbb.bounding_box
        if api.gl(4, 0) or es_has(api, "sample_shading"):
            t[E.GL_MIN_SAMPLE_SHADING_VALUE] = lambda c: c.state.multisample.min_sample_shading
        if api.gl_or_es((4, 3), (3, 1)):
            t.update({
                E.GL_DRAW_INDIRECT_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_DRAW_INDIRECT_BUFFER)),
                E.GL_DISPATCH_INDIRECT_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_DISPATCH_INDIRECT_BUFFER)),
                E.GL_SHADER_STORAGE_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_SHADER_STORAGE_BUFFER)),
                E.GL_ATOMIC_COUNTER_BUFFER_BINDING: lambda c: _name(c.buffer_bindings.get(E.GL_ATOMIC_COUNTER_BUFFER)),
                E.GL_TEXTURE_BINDING_2D_MULTISAMPLE: lambda c: texture_binding_name(c, E.GL_TEXTURE_2D_MULTISAMPLE),
                E.GL_PROGRAM_PIPELINE_BINDING:
                    lambda c: c.bound_pipeline.name if c.bound_pipeline is not None else 0,
            })
        if api.gl(4, 3) or api.es and api.has_extension("GL_OES_texture_storage_multisample_2d_array"):
            t[E.GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY] = \
                lambda c: texture_binding_name(c, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
        if api.gl(4, 3) or api.has_extension("GL_KHR_debug"):     # KHR_debug's state, GLES too
            t.update({
                E.GL_DEBUG_GROUP_STACK_DEPTH: lambda c: len(c._debug_state()["groups"]),
                E.GL_DEBUG_LOGGED_MESSAGES: lambda c: len(c._debug_state()["log"]),
                E.GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH: lambda c: (
                    len(c._debug_state()["log"][0][4].encode()) + 1 if c._debug_state()["log"] else 0),
            })
        if api.gl(4, 3):
            t[E.GL_MIN_SAMPLE_SHADING_VALUE] = lambda c: c.state.multisample.min_sample_shading
        if api.has_extension("GL_EXT_stencil_two_side"):
            t[E.GL_ACTIVE_STENCIL_FACE_EXT] = lambda c: (
                E.GL_BACK if c.state.stencil_buffer.active_stencil_face == STENCIL_TWO_SIDE_BACK else E.GL_FRONT)
        t.update(self._legacy_get_entries())
        return t

    def _legacy_get_entries(self) -> dict:
        return {}

    def _implementation_read(self, fb=_READ_FRAMEBUFFER) -> tuple[int, int]:
        """GLES 3.2 section 16.1.2: the extra format/type ReadPixels accepts for the
        read buffer of `fb` (the read framebuffer unless given; None: the default one),
        the buffer's natural one. As in Mesa, INVALID_OPERATION when that framebuffer
        has no colour image to read (no attachment at its read buffer, or NONE)."""
        from driver.gl.formats import lookup
        from driver.gl.readback import implementation_read
        fb = self.read_framebuffer if fb is _READ_FRAMEBUFFER else fb
        if fb is None:
            return implementation_read(lookup(E.GL_RGBA8))
        a = fb.attachments.get(fb.read_buffer)
        check(a is not None, E.GL_INVALID_OPERATION, "IMPLEMENTATION_COLOR_READ_*: no colour read buffer")
        return implementation_read(lookup(a.image_info()[2]))

    def _get_raw(self, pname: int):
        table = self._get_table
        if pname in table:
            if pname in QUERY_CLAMPED_PNAMES:       # glClampColor's fragment clamp (compatibility)
                return clamp_query(self, table[pname](self))
            return table[pname](self)
        if pname in self._enable_caps():
            return self._is_enabled(pname)
        raise GLError(E.GL_INVALID_ENUM, f"glGet: bad pname {pname:#x}")

    @staticmethod
    def _as_tuple(v):
        return tuple(v) if isinstance(v, (tuple, list)) else (v,)

    def _get_integers(self, pname: int) -> list[int]:
        norm = pname in NORMALIZED_PNAMES
        out = []
        for v in self._as_tuple(self._get_raw(pname)):
            out.append(_float_to_int(v, norm) if isinstance(v, float) else int(v))
        return out

    def glGetIntegerv(self, pname: int) -> list[int]:
        values = self._get_integers(pname)
        if pname in UINT_BITS_PNAMES:
            return [v - (1 << 32) if v >= 1 << 31 else v for v in values]
        return values if pname in MASK_PNAMES else _clamped(values, INT32_RANGE)

    def glGetInteger64v(self, pname: int) -> list[int]:
        check(self.api.gl_or_es((3, 2), (3, 0)) or es_has(self.api, "timer_query"), E.GL_INVALID_OPERATION)
        return _clamped(self._get_integers(pname), INT64_RANGE)

    def glGetFloatv(self, pname: int) -> list[float]:
        return [float(v) for v in self._as_tuple(self._get_raw(pname))]

    def glGetDoublev(self, pname: int) -> list[float]:
        check(not self.api.es, E.GL_INVALID_OPERATION)
        return self.glGetFloatv(pname)

    def glGetBooleanv(self, pname: int) -> list[bool]:
        return [bool(v) for v in self._as_tuple(self._get_raw(pname))]

    # -- indexed state (GL 4.6 section 22.1) ------------------------------------------
    def _get_indexed(self, target: int, index: int):
        binding = {E.GL_UNIFORM_BUFFER_BINDING: (E.GL_UNIFORM_BUFFER, 0),
                   E.GL_UNIFORM_BUFFER_START: (E.GL_UNIFORM_BUFFER, 1),
                   E.GL_UNIFORM_BUFFER_SIZE: (E.GL_UNIFORM_BUFFER, 2),
                   E.GL_TRANSFORM_FEEDBACK_BUFFER_BINDING: (E.GL_TRANSFORM_FEEDBACK_BUFFER, 0),
                   E.GL_TRANSFORM_FEEDBACK_BUFFER_START: (E.GL_TRANSFORM_FEEDBACK_BUFFER, 1),
                   E.GL_TRANSFORM_FEEDBACK_BUFFER_SIZE: (E.GL_TRANSFORM_FEEDBACK_BUFFER, 2)}
        if self.api.gl_or_es((4, 3), (3, 1)):
            binding |= {E.GL_SHADER_STORAGE_BUFFER_BINDING: (E.GL_SHADER_STORAGE_BUFFER, 0),
                        E.GL_SHADER_STORAGE_BUFFER_START: (E.GL_SHADER_STORAGE_BUFFER, 1),
                        E.GL_SHADER_STORAGE_BUFFER_SIZE: (E.GL_SHADER_STORAGE_BUFFER, 2),
                        E.GL_ATOMIC_COUNTER_BUFFER_BINDING: (E.GL_ATOMIC_COUNTER_BUFFER, 0),
                        E.GL_ATOMIC_COUNTER_BUFFER_START: (E.GL_ATOMIC_COUNTER_BUFFER, 1),
                        E.GL_ATOMIC_COUNTER_BUFFER_SIZE: (E.GL_ATOMIC_COUNTER_BUFFER, 2)}
        rt_fields = {E.GL_BLEND_SRC_RGB: "src_rgb", E.GL_BLEND_DST_RGB: "dst_rgb",
                     E.GL_BLEND_SRC_ALPHA: "src_alpha", E.GL_BLEND_DST_ALPHA: "dst_alpha",
                     E.GL_BLEND_EQUATION_RGB: "eq_rgb", E.GL_BLEND_EQUATION_ALPHA: "eq_alpha",
                     E.GL_COLOR_WRITEMASK: "color_mask", E.GL_BLEND: "enabled"}
        if not self.api.es:
            # BLEND_SRC/BLEND_DST, GL 1.x's names of the RGB factors, indexed too (as Mesa
            # answers them with ARB_draw_buffers_blend; piglit fbo-draw-buffers-blend)
            rt_fields |= {E.GL_BLEND_SRC: "src_rgb", E.GL_BLEND_DST: "dst_rgb"}
        if target in rt_fields and (self.api.gl(3, 0) or self.api.es_(3, 2)):
            check(0 <= index < self.caps.max_render_targets, E.GL_INVALID_VALUE)
            return getattr(self.state.color_buffer.rt[index], rt_fields[target])
        if target in binding:
            buf_target, field = binding[target]
            check(0 <= index < self._indexed_limit(buf_target), E.GL_INVALID_VALUE)
            if buf_target == E.GL_TRANSFORM_FEEDBACK_BUFFER:
                entry = self.xfb.buffers[index]
            else:
                entry = self.indexed_buffers[buf_target].get(index, (None, 0, 0))
            return _name(entry[0]) if field == 0 else entry[field]
        image_fields = {E.GL_IMAGE_BINDING_NAME: 0, E.GL_IMAGE_BINDING_LEVEL: 1,
                        E.GL_IMAGE_BINDING_LAYERED: 2, E.GL_IMAGE_BINDING_LAYER: 3,
                        E.GL_IMAGE_BINDING_ACCESS: 4, E.GL_IMAGE_BINDING_FORMAT: 5}
        if target in image_fields and self.api.gl_or_es((4, 2), (3, 1)):
            check(0 <= index < self.caps.max_combined_images, E.GL_INVALID_VALUE)
            entry = getattr(self, "image_units", {}).get(index)
            if entry is None:
                return {E.GL_IMAGE_BINDING_ACCESS: E.GL_READ_ONLY,
                        E.GL_IMAGE_BINDING_FORMAT: E.GL_R8}.get(target, 0)
            v = entry[image_fields[target]]
            return v.name if target == E.GL_IMAGE_BINDING_NAME else v
        if self.api.gl_or_es((4, 3), (3, 1)) and target in (
                E.GL_MAX_COMPUTE_WORK_GROUP_COUNT, E.GL_MAX_COMPUTE_WORK_GROUP_SIZE):
            check(0 <= index < 3, E.GL_INVALID_VALUE)
            src = (self.caps.max_compute_grid_size if target == E.GL_MAX_COMPUTE_WORK_GROUP_COUNT
                   else self.caps.max_compute_block_size)
            return src[index]
        if (self.api.gl(4, 1) or es_has(self.api, "viewport_array")) and target in (
                E.GL_VIEWPORT, E.GL_SCISSOR_BOX, E.GL_DEPTH_RANGE, E.GL_SCISSOR_TEST):
            # GL 4.6 section 13.8.1 / 14.9.2: per-viewport state (this device has MAX_VIEWPORTS)
            check(0 <= index < self.caps.max_viewports, E.GL_INVALID_VALUE, "viewport index")
            from driver.gl.viewports import viewport_value
            return viewport_value(self.state, {E.GL_VIEWPORT: "viewport", E.GL_SCISSOR_BOX: "scissor",
                                               E.GL_DEPTH_RANGE: "depth_range",
                                               E.GL_SCISSOR_TEST: "scissor_test"}[target], index)
        if target == E.GL_SAMPLE_MASK_VALUE and self.api.gl_or_es((3, 2), (3, 1)):
            # GL 4.6 table 23.19: SAMPLE_MASK_VALUE is indexed by the mask word
            check(0 <= index < self.limits["GL_MAX_SAMPLE_MASK_WORDS"], E.GL_INVALID_VALUE, "mask word")
            return self.state.multisample.sample_mask_value
        binding_fields = {E.GL_VERTEX_BINDING_BUFFER: "buffer", E.GL_VERTEX_BINDING_OFFSET: "offset",
                          E.GL_VERTEX_BINDING_STRIDE: "stride", E.GL_VERTEX_BINDING_DIVISOR: "divisor"}
        if target in binding_fields and self.api.gl_or_es((4, 3), (3, 1)):
            # GL 4.6 table 23.5: the bound vertex array's binding points
            check(0 <= index < len(self.vao.bindings), E.GL_INVALID_VALUE, "binding index")
            v = getattr(self.vao.bindings[index], binding_fields[target])
            return _name(v) if target == E.GL_VERTEX_BINDING_BUFFER else v
        raise GLError(E.GL_INVALID_ENUM, f"glGet*i_v: bad target {target:#x}")

    def glGetIntegeri_v(self, target: int, index: int) -> list[int]:
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        values = self._indexed_integers(target, index)
        return values if target in MASK_PNAMES else _clamped(values, INT32_RANGE)

    def _indexed_integers(self, target: int, index: int) -> list[int]:
        """An indexed value as integers: floats rounded to the nearest (an indexed
        GL_DEPTH_RANGE too, as Mesa: piglit arb_viewport_array-queries wants
        (int)(f + 0.5), not glGetIntegerv's normalized mapping)."""
        return [_float_to_int(v, False) if isinstance(v, float) else int(v)
                for v in self._as_tuple(self._get_indexed(target, index))]

    def glGetInteger64i_v(self, target: int, index: int) -> list[int]:
        check(self.api.gl_or_es((3, 2), (3, 0)), E.GL_INVALID_OPERATION)
        return _clamped(self._indexed_integers(target, index), INT64_RANGE)

    def glGetBooleani_v(self, target: int, index: int) -> list[bool]:
        check(self.api.gl_or_es((3, 0), (3, 1)), E.GL_INVALID_OPERATION)
        return [bool(v) for v in self._as_tuple(self._get_indexed(target, index))]

    # -- strings -------------------------------------------------------------------
    def glGetString(self, name: int) -> str:
        values = {E.GL_VENDOR: self.caps.vendor, E.GL_RENDERER: self.caps.name,
                  E.GL_VERSION: self.api.version_string,
                  E.GL_SHADING_LANGUAGE_VERSION: self.api.glsl_version_string}
        if not self.api.core:      # GL 4.6 core section 22.2: EXTENSIONS only via GetStringi
            values[E.GL_EXTENSIONS] = " ".join(self.extensions)
        check_enum(name, values)
        return values[name]

    def glGetStringi(self, name: int, index: int) -> str:
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        if name == E.GL_EXTENSIONS:
            check(0 <= index < len(self.extensions), E.GL_INVALID_VALUE)
            return self.extensions[index]
        if name == E.GL_SPIR_V_EXTENSIONS:
            return self.spirv_extension_string(index)
        if name == E.GL_SHADING_LANGUAGE_VERSION and self.api.gl(4, 3):
            versions = self._glsl_version_list()
            check(0 <= index < len(versions), E.GL_INVALID_VALUE)
            return versions[index]
        raise GLError(E.GL_INVALID_ENUM, "glGetStringi: bad name")

    def _glsl_version_list(self) -> list[str]:
        """GL 4.3 section 22.2: NUM_SHADING_LANGUAGE_VERSIONS strings, the
        empty string meaning #version 110 with no #version directive."""
        return list(self.api.glsl) + [""]
