"""Framebuffer and renderbuffer objects, attachments, completeness, draw and
read buffer selection (GL 4.6 chapter 9, GLES 3.2 chapter 9)."""

from __future__ import annotations

import contextlib

from driver.gallium import (
    FramebufferState, PipeBind, PipeTextureTarget, ResourceTemplate, Surface,
)
from driver.gl import enums as E
from driver.gl.errors import allocating, check, check_enum
from driver.gl.features.gles_ext import es2_renderbuffer_formats, es_color_renderable, es_has, view_offsets
from driver.gl.formats import ATTACHABLE_UNRENDERED, COMPAT_RENDERABLE_LEGACY, INTERNAL_FORMATS, lookup, signed_components
from driver.gl.objects import LAYER_TARGETS, Attachment, Framebuffer, Namespace, Renderbuffer
from driver.gl.textures import CUBE_FACES, texture_resource

__all__ = ["FramebufferMixin"]

DEPTH_ATTACHMENTS = (E.GL_DEPTH_ATTACHMENT, E.GL_STENCIL_ATTACHMENT)

# GL 4.6 tables 17.4/17.5: the draw/read buffer names of a default framebuffer
_AUX_BUFFERS = frozenset(range(E.GL_AUX0, E.GL_AUX0 + 4))
_DEFAULT_BUFFER_ENUMS = frozenset({E.GL_NONE, E.GL_FRONT_LEFT, E.GL_FRONT_RIGHT, E.GL_BACK_LEFT,
                                   E.GL_BACK_RIGHT, E.GL_BACK}) | _AUX_BUFFERS
# names of several buffers at once: DrawBuffer and ReadBuffer only, never DrawBuffers
_MULTIPLE_BUFFERS = frozenset({E.GL_FRONT, E.GL_LEFT, E.GL_RIGHT, E.GL_FRONT_AND_BACK})
_BUFFERS_NAMED = {E.GL_FRONT: {E.GL_FRONT_LEFT, E.GL_FRONT_RIGHT}, E.GL_BACK: {E.GL_BACK_LEFT, E.GL_BACK_RIGHT},
                  E.GL_LEFT: {E.GL_FRONT_LEFT, E.GL_BACK_LEFT}, E.GL_RIGHT: {E.GL_FRONT_RIGHT, E.GL_BACK_RIGHT},
                  E.GL_FRONT_AND_BACK: {E.GL_FRONT_LEFT, E.GL_FRONT_RIGHT, E.GL_BACK_LEFT, E.GL_BACK_RIGHT}}
# the window's colour buffers: one image, written as front or back (no stereo, no aux buffers)
_WINDOW_BUFFERS = frozenset({E.GL_FRONT_LEFT, E.GL_BACK_LEFT})
# GL 4.5 table 23.74's framebuffer-dependent values glGetFramebufferParameteriv answers
_FB_DEPENDENT = frozenset({E.GL_SAMPLES, E.GL_SAMPLE_BUFFERS, E.GL_DOUBLEBUFFER, E.GL_STEREO,
                           E.GL_IMPLEMENTATION_COLOR_READ_FORMAT, E.GL_IMPLEMENTATION_COLOR_READ_TYPE})
# draw buffer values that select the window's image
WINDOW_COLOR_SELECTORS = frozenset({E.GL_FRONT_LEFT, E.GL_BACK_LEFT, E.GL_FRONT, E.GL_BACK, E.GL_LEFT,
                                    E.GL_FRONT_AND_BACK})


def _is_color_attachment(b: int) -> bool:
    return E.GL_COLOR_ATTACHMENT0 <= b < E.GL_COLOR_ATTACHMENT0 + 32


def draw_framebuffer_bits(ctx, component: int) -> int:
    """Bits of ``component`` (0-3 red, green, blue, alpha of colour buffer 0; 4 depth;
    5 stencil) of the draw framebuffer (the window's when none is bound); 0 when
    the attachment is missing."""
    fb = ctx.draw_framebuffer
    if fb is None:
        return ctx.window.bits[component]
    point = (E.GL_DEPTH_ATTACHMENT if component == 4 else E.GL_STENCIL_ATTACHMENT
             if component == 5 else E.GL_COLOR_ATTACHMENT0)
    a = fb.attachments.get(point)
    info = a.image_info() if a else None
    return _component_bits(lookup(info[2]))[component] if info else 0


def sample_count(caps, requested: int) -> int:
    """The samples a multisampled image gets for a request of ``requested`` (GL 4.6
    section 9.2.4: at least as many, no more than the next count the implementation
    has): the smallest count of the GPU at or above it, where a request of 1 is
    rounded to 2 as Mesa's state tracker does (one sample is single sampling, and
    GL_SAMPLES would then not say the buffer is multisampled); 0 stays 0. (A
    framebuffer without attachments keeps a default of 1: it has no image.)"""
    if requested <= 0:
        return 0
    return min(s for s in caps.sample_counts if s >= max(requested, 2))


def framebuffer_status(ctx, fb) -> int:
    """The completeness status of framebuffer object ``fb`` (GL 4.6 section 9.4.2;
    COMPLETE for None, the window)."""
    if fb is None:
        return E.GL_FRAMEBUFFER_COMPLETE
    if not fb.attachments:
        if fb.default_width and fb.default_height:
            return E.GL_FRAMEBUFFER_COMPLETE
        return E.GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
    sizes, samples, unsupported = set(), set(), False
    for point, a in fb.attachments.items():
        info = a.image_info()
        if info is None:
            return E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
        w, h, ifmt, s = info
        fmt = lookup(ifmt)
        if w == 0 or h == 0:
            return E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
        if point == E.GL_DEPTH_ATTACHMENT and fmt.kind not in ("depth", "depthstencil"):
            return E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
        if point == E.GL_STENCIL_ATTACHMENT and fmt.kind not in ("stencil", "depthstencil"):
            return E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
        renderable = fmt.color_renderable and es_color_renderable(ctx.api, fmt.enum)
        if point not in DEPTH_ATTACHMENTS and not ctx.api.es and fmt.enum in ATTACHABLE_UNRENDERED:
            unsupported = True
        elif point not in DEPTH_ATTACHMENTS and not renderable:
            return E.GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT
        sizes.add((w, h))
        samples.add(s)
    if len(samples) > 1:
        return E.GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE
    # GLES 2.0 requires equal sizes; later versions use the intersection
    if ctx.api.es and ctx.api.version < (3, 0) and len(sizes) > 1:
        return E.GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS
    # GL 4.6 section 9.4.2: layered attachments only with layered ones, colour ones of one target
    layered = {a.type == E.GL_TEXTURE and a.layered for a in fb.attachments.values()}
    if True in layered and (False in layered or len({a.obj.target for p, a in fb.attachments.items()
                                                     if p not in DEPTH_ATTACHMENTS}) > 1):
        return E.GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS
    d, s = fb.attachments.get(E.GL_DEPTH_ATTACHMENT), fb.attachments.get(E.GL_STENCIL_ATTACHMENT)
    if d is not None and s is not None and (
            d.obj is not s.obj or (d.level, d.layer, d.face, d.layered) != (s.level, s.layer, s.face, s.layered)):
        # the pipe framebuffer has one depth/stencil surface: depth and stencil from
        # two images is a combination this implementation does not support (GL 4.6
        # section 9.4.2, ES 3.0 section 4.4.4.2; Mesa's Gallium drivers alike), where
        # drawing would have dropped the stencil attachment
        return E.GL_FRAMEBUFFER_UNSUPPORTED
    if unsupported:
        return E.GL_FRAMEBUFFER_UNSUPPORTED
    return E.GL_FRAMEBUFFER_COMPLETE


class FramebufferMixin:
    def _init_family(self) -> None:
        self.framebuffers = Namespace(Framebuffer)
        self.renderbuffers = Namespace(Renderbuffer)
        self.draw_framebuffer = None        # None = the default framebuffer
        self.read_framebuffer = None
        self.renderbuffer_binding = None

    # -- binding -----------------------------------------------------------------
    def _fb_targets(self):
        if self.api.gl_or_es((3, 0), (3, 0)):
            return {E.GL_FRAMEBUFFER, E.GL_DRAW_FRAMEBUFFER, E.GL_READ_FRAMEBUFFER}
        return {E.GL_FRAMEBUFFER}

    def glGenFramebuffers(self, n: int) -> list[int]:
        check(n >= 0, E.GL_INVALID_VALUE)
        return self.framebuffers.gen(n)

    def glBindFramebuffer(self, target: int, framebuffer: int) -> None:
        check_enum(target, self._fb_targets())
        fb = None
        if framebuffer:
            check(self.framebuffers.is_generated(framebuffer) or not (self.api.core or self.api.es_(3, 0)),
                  E.GL_INVALID_OPERATION, "framebuffer name was not generated")
            fb = self.framebuffers.get_or_create(framebuffer)
            fb.ever_bound = True
        if target in (E.GL_FRAMEBUFFER, E.GL_DRAW_FRAMEBUFFER):
            self.draw_framebuffer = fb
        if target in (E.GL_FRAMEBUFFER, E.GL_READ_FRAMEBUFFER):
            self.read_framebuffer = fb

    def glIsFramebuffer(self, framebuffer: int) -> bool:
        fb = self.framebuffers.get(framebuffer)
        return fb is not None and fb.ever_bound

    def glDeleteFramebuffers(self, n: int, framebuffers) -> None:
        check(n >= 0, E.GL_INVALID_VALUE)
        for name in list(framebuffers)[:n]:
            fb = self.framebuffers.get(name)
            if name == 0 or not self.framebuffers.is_generated(name):
                continue
            if fb is not None:
                if self.draw_framebuffer is fb:
                    self.draw_framebuffer = None
                if self.read_framebuffer is fb:
                    self.read_framebuffer = None
            self.framebuffers.delete(name)

    def _fb_for_target(self, target: int):
        check_enum(target, self._fb_targets())
        return self.read_framebuffer if target == E.GL_READ_FRAMEBUFFER else self.draw_framebuffer

    # -- renderbuffers ---------------------------------------------------------------
    def glGenRenderbuffers(self, n: int) -> list[int]:
        check(n >= 0, E.GL_INVALID_VALUE)
        return self.renderbuffers.gen(n)

    def glBindRenderbuffer(self, target: int, renderbuffer: int) -> None:
        check_enum(target, (E.GL_RENDERBUFFER,))
        rb = None
        if renderbuffer:
            check(self.renderbuffers.is_generated(renderbuffer) or not (self.api.core or self.api.es_(3, 0)),
                  E.GL_INVALID_OPERATION, "renderbuffer name was not generated")
            rb = self.renderbuffers.get_or_create(renderbuffer)
            rb.ever_bound = True
        self.renderbuffer_binding = rb

    def glIsRenderbuffer(self, renderbuffer: int) -> bool:
        rb = self.renderbuffers.get(renderbuffer)
        return rb is not None and rb.ever_bound

    def glDeleteRenderbuffers(self, n: int, renderbuffers) -> None:
        check(n >= 0, E.GL_INVALID_VALUE)
        for name in list(renderbuffers)[:n]:
            rb = self.renderbuffers.get(name)
            if rb is None:
                self.renderbuffers.delete(name)
                continue
            if self.renderbuffer_binding is rb:
                self.renderbuffer_binding = None
            self._detach_from_framebuffers(rb)
            self.share_group.release(rb, self.screen.resource_destroy)
            self.renderbuffers.delete(name)

    def _detach_from_framebuffers(self, obj) -> None:
        """GL 4.6 section 9.2.7: deleting an image detaches it from the bound
        framebuffers."""
        for fb in (self.draw_framebuffer, self.read_framebuffer):
            if fb is None:
                continue
            for att, a in list(fb.attachments.items()):
                if a.obj is obj:
                    del fb.attachments[att]

    def _renderbuffer_formats(self):
        if self.api.es and self.api.version < (3, 0):
            # GLES 2.0 table 4.5 plus OES_rgb8_rgba8, OES_depth24 and OES_packed_depth_stencil
            return {E.GL_RGBA4, E.GL_RGB5_A1, E.GL_RGB565, E.GL_DEPTH_COMPONENT16,
                    E.GL_STENCIL_INDEX8, E.GL_RGBA8, E.GL_RGB8, E.GL_DEPTH_COMPONENT24,
                    E.GL_DEPTH24_STENCIL8} | es2_renderbuffer_formats(self.api)
        ok = {f for f, info in INTERNAL_FORMATS.items()
              if info.color_renderable and es_color_renderable(self.api, f) or info.is_depth_or_stencil}
        if not self.api.es:
            ok |= {E.GL_RGBA, E.GL_RGB, E.GL_RED, E.GL_RG, E.GL_DEPTH_COMPONENT, E.GL_DEPTH_STENCIL,
                   E.GL_STENCIL_INDEX}
            ok |= ATTACHABLE_UNRENDERED
        if self.api.compat:          # the alpha, luminance and intensity formats render, as in Mesa
            ok |= COMPAT_RENDERABLE_LEGACY
        return ok

    def glRenderbufferStorageMultisample(self, target, samples, internalformat, width, height):
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        self._renderbuffer_storage(target, samples, internalformat, width, height)

    def glRenderbufferStorage(self, target, internalformat, width, height):
        self._renderbuffer_storage(target, 0, internalformat, width, height)

    def _renderbuffer_storage(self, target, samples, internalformat, width, height):
        # GL 4.6 section 9.2.4
        check_enum(target, (E.GL_RENDERBUFFER,))
        check(internalformat in self._renderbuffer_formats(), E.GL_INVALID_ENUM,
              f"bad renderbuffer format {internalformat:#x}")
        maxsz = self.limits["GL_MAX_RENDERBUFFER_SIZE"]
        check(0 <= width <= maxsz and 0 <= height <= maxsz, E.GL_INVALID_VALUE, "bad size")
        check(samples >= 0, E.GL_INVALID_VALUE, "negative samples")
        check(samples <= max(self.caps.sample_counts), E.GL_INVALID_OPERATION, "too many samples")
        rb = self.renderbuffer_binding
        check(rb is not None, E.GL_INVALID_OPERATION, "no renderbuffer bound")
        info = lookup(internalformat)
        if info.integer and self.api.es:
            check(samples == 0, E.GL_INVALID_OPERATION, "multisampled integer renderbuffer (ES 3.0)")
        # round up to a supported count (GL 4.6 section 9.2.4)
        actual = sample_count(self.caps, samples)
        new = None
        if width and height:        # allocated first: out of memory changes nothing
            bind = PipeBind.DEPTH_STENCIL if info.is_depth_or_stencil else PipeBind.RENDER_TARGET
            with allocating(f"a {width}x{height} renderbuffer"):
                new = self.screen.resource_create(ResourceTemplate(
                    PipeTextureTarget.TEXTURE_2D, info.pipe, width, height, nr_samples=actual,
                    bind=bind))
        if rb.resource is not None:
            self.screen.resource_destroy(rb.resource)
        rb.resource = new
        rb.width, rb.height, rb.internal_format, rb.samples = width, height, internalformat, actual

    def glGetRenderbufferParameteriv(self, target: int, pname: int) -> list:
        check_enum(target, (E.GL_RENDERBUFFER,))
        rb = self.renderbuffer_binding
        check(rb is not None, E.GL_INVALID_OPERATION)
        # GL 4.6 table 23.27 (GLES 3.2 table 21.17): before any storage, the format
        # reads RGBA (GLES: RGBA4) and every size 0
        stored = rb.resource is not None or rb.width or rb.height
        fmt = rb.internal_format if stored else (E.GL_RGBA4 if self.api.es else E.GL_RGBA)
        bits = _component_bits(lookup(rb.internal_format)) if stored else (0,) * 6
        values = {E.GL_RENDERBUFFER_WIDTH: rb.width, E.GL_RENDERBUFFER_HEIGHT: rb.height,
                  E.GL_RENDERBUFFER_INTERNAL_FORMAT: fmt,
                  E.GL_RENDERBUFFER_SAMPLES: rb.samples,
                  E.GL_RENDERBUFFER_RED_SIZE: bits[0], E.GL_RENDERBUFFER_GREEN_SIZE: bits[1],
                  E.GL_RENDERBUFFER_BLUE_SIZE: bits[2], E.GL_RENDERBUFFER_ALPHA_SIZE: bits[3],
                  E.GL_RENDERBUFFER_DEPTH_SIZE: bits[4], E.GL_RENDERBUFFER_STENCIL_SIZE: bits[5]}
        check_enum(pname, values)
        return [int(values[pname])]

    # -- attachments -----------------------------------------------------------------
    def _attachment_points(self):
        several = self.api.gl_or_es((3, 0), (3, 0)) or es_has(self.api, "draw_buffers")
        n = self.caps.max_render_targets if several else 1
        pts = {E.GL_COLOR_ATTACHMENT0 + i for i in range(n)} | set(DEPTH_ATTACHMENTS)
        if self.api.gl_or_es((3, 0), (3, 0)):
            pts.add(E.GL_DEPTH_STENCIL_ATTACHMENT)
        return pts

    def _attach(self, fb, attachment: int, att: Attachment | None) -> None:
        targets = ((E.GL_DEPTH_ATTACHMENT, E.GL_STENCIL_ATTACHMENT)
                   if attachment == E.GL_DEPTH_STENCIL_ATTACHMENT else (attachment,))
        for t in targets:
            if att is None:
                fb.attachments.pop(t, None)
            else:
                fb.attachments[t] = att

    def _check_attachment_target(self, target, attachment):
        fb = self._fb_for_target(target)
        check(fb is not None, E.GL_INVALID_OPERATION, "default framebuffer bound")
        if attachment not in self._attachment_points():
            if E.GL_COLOR_ATTACHMENT0 <= attachment <= E.GL_COLOR_ATTACHMENT0 + 31:
                check(False, E.GL_INVALID_OPERATION if self.api.es else E.GL_INVALID_ENUM,
                      "colour attachment >= MAX_COLOR_ATTACHMENTS")
            check(False, E.GL_INVALID_ENUM, f"bad attachment {attachment:#x}")
        return fb

    def glFramebufferRenderbuffer(self, target, attachment, renderbuffertarget, renderbuffer):
        fb = self._check_attachment_target(target, attachment)
        check_enum(renderbuffertarget, (E.GL_RENDERBUFFER,))
        if renderbuffer == 0:
            self._attach(fb, attachment, None)
            return
        rb = self.renderbuffers.get(renderbuffer)
        check(rb is not None, E.GL_INVALID_OPERATION, "not a renderbuffer")
        self._attach(fb, attachment, Attachment(E.GL_RENDERBUFFER, rb))

    def glFramebufferTexture2D(self, target, attachment, textarget, texture, level):
        fb = self._check_attachment_target(target, attachment)
        if texture == 0:
            self._attach(fb, attachment, None)
            return
        tex = self.textures.get(texture)
        check(tex is not None, E.GL_INVALID_OPERATION, "not a texture")
        ok = {E.GL_TEXTURE_2D, *CUBE_FACES}
        if not self.api.es:
            ok |= {E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_2D_MULTISAMPLE}
        elif self.api.at_least(3, 1):
            ok.add(E.GL_TEXTURE_2D_MULTISAMPLE)         # GLES 3.1 section 9.2.8
        if self.api.gl_or_es((3, 0), (3, 0)):
            # as Mesa: a 2D array texture attaches its layer 0 (piglit's GLES stand-in for
            # glGetTexImage reads array textures this way)
            ok.add(E.GL_TEXTURE_2D_ARRAY)
        check_enum(textarget, ok)
        want = E.GL_TEXTURE_CUBE_MAP if textarget in CUBE_FACES else textarget
        check(tex.target == want, E.GL_INVALID_OPERATION, "texture target mismatch")
        check(level >= 0 and (level == 0 or textarget not in (E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_2D_MULTISAMPLE)),
              E.GL_INVALID_VALUE, "bad level")
        check(level <= 14, E.GL_INVALID_VALUE, "level too large")
        if textarget == E.GL_TEXTURE_2D_ARRAY:
            self._attach(fb, attachment, Attachment(E.GL_TEXTURE, tex, level, 0))
            return
        face = textarget - CUBE_FACES[0] if textarget in CUBE_FACES else 0
        self._attach(fb, attachment, Attachment(E.GL_TEXTURE, tex, level, face, face))

    def glFramebufferTextureLayer(self, target, attachment, texture, level, layer):
        check(self.api.gl_or_es((3, 0), (3, 0)), E.GL_INVALID_OPERATION)
        fb = self._check_attachment_target(target, attachment)
        if texture == 0:
            self._attach(fb, attachment, None)
            return
        tex = self.textures.get(texture)
        layered = set(LAYER_TARGETS)
        if self.api.gl(4, 5):           # GL 4.5 (ARB_direct_state_access): a cube map's layers are its faces
            layered.add(E.GL_TEXTURE_CUBE_MAP)
        check(tex is not None and tex.target in layered, E.GL_INVALID_OPERATION, "not a layered texture")
        check(level >= 0 and layer >= 0, E.GL_INVALID_VALUE)
        if tex.target == E.GL_TEXTURE_CUBE_MAP:
            check(layer < 6, E.GL_INVALID_VALUE, "a cube map has 6 faces")
            self._attach(fb, attachment, Attachment(E.GL_TEXTURE, tex, level, layer, layer))
            return
        self._attach(fb, attachment, Attachment(E.GL_TEXTURE, tex, level, layer))

    # -- completeness (GL 4.6 section 9.4.2) ------------------------------------------------
    def glCheckFramebufferStatus(self, target: int) -> int:
        fb = self._fb_for_target(target)
        return framebuffer_status(self, fb)

    # -- default-framebuffer-less parameters (GL 4.6 section 9.2.1) -----------------
    _FB_PARAMS = {E.GL_FRAMEBUFFER_DEFAULT_WIDTH: "default_width",
                  E.GL_FRAMEBUFFER_DEFAULT_HEIGHT: "default_height",
                  E.GL_FRAMEBUFFER_DEFAULT_LAYERS: "default_layers",
                  E.GL_FRAMEBUFFER_DEFAULT_SAMPLES: "default_samples",
                  E.GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS: "default_fixed_samples"}

    def glFramebufferParameteri(self, target: int, pname: int, param: int) -> None:
        check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
        fb = self._fb_for_target(target)
        names = dict(self._FB_PARAMS)
        if self.api.es and not es_has(self.api, "geometry_shader"):      # GLES 3.2 or OES/EXT_geometry_shader
            names.pop(E.GL_FRAMEBUFFER_DEFAULT_LAYERS)
        check_enum(pname, names)
        check(fb is not None, E.GL_INVALID_OPERATION, "default framebuffer bound")
        limit = {E.GL_FRAMEBUFFER_DEFAULT_WIDTH: self.limits["GL_MAX_FRAMEBUFFER_WIDTH"],
                 E.GL_FRAMEBUFFER_DEFAULT_HEIGHT: self.limits["GL_MAX_FRAMEBUFFER_HEIGHT"],
                 E.GL_FRAMEBUFFER_DEFAULT_LAYERS: self.caps.max_texture_array_layers,
                 E.GL_FRAMEBUFFER_DEFAULT_SAMPLES: max(self.caps.sample_counts),
                 E.GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS: 1}[pname]
        check(0 <= param <= limit, E.GL_INVALID_VALUE, "parameter out of range")
        setattr(fb, names[pname], int(param))

    def glGetFramebufferParameteriv(self, target: int, pname: int) -> list[int]:
        check(self.api.gl_or_es((4, 3), (3, 1)), E.GL_INVALID_OPERATION)
        fb = self._fb_for_target(target)
        if pname in _FB_DEPENDENT and not self.api.es and self.api.gl(4, 5):
            # GL 4.5 section 9.2.3: the framebuffer-dependent values of table 23.74 too, of
            # the framebuffer bound to target (the default one included), as glGet answers
            # them for a bound one
            if pname in (E.GL_SAMPLES, E.GL_SAMPLE_BUFFERS):
                samples = self._fb_samples(fb)
                return [samples if pname == E.GL_SAMPLES else int(samples > 1)]
            if pname in (E.GL_DOUBLEBUFFER, E.GL_STEREO):
                return [int(bool(self._get_raw(pname))) if fb is None else 0]
            return [self._implementation_read(fb)[pname == E.GL_IMPLEMENTATION_COLOR_READ_TYPE]]
        check_enum(pname, self._FB_PARAMS)
        check(fb is not None, E.GL_INVALID_OPERATION, "default framebuffer bound")
        return [int(getattr(fb, self._FB_PARAMS[pname], 0))]

    # -- draw/read buffers -------------------------------------------------------------
    def glDrawBuffers(self, n: int, bufs) -> None:
        check(self.api.gl_or_es((2, 0), (3, 0)) or es_has(self.api, "draw_buffers"), E.GL_INVALID_OPERATION)
        bufs = list(bufs)[:n]
        check(0 <= n <= self.caps.max_render_targets, E.GL_INVALID_VALUE, "n > MAX_DRAW_BUFFERS")
        fb = self.draw_framebuffer
        if not self.api.es:
            self._check_draw_buffers_desktop(fb, bufs)
            if fb is None:
                self.window.draw_buffers = bufs
            else:
                fb.draw_buffers = bufs
            return
        if fb is None:
            # GLES 3.2 section 15.2.1: BACK or NONE, one of them
            for b in bufs:
                check(b in (E.GL_NONE, E.GL_BACK), E.GL_INVALID_OPERATION,
                      "bad draw buffer for the default framebuffer")
            check(n == 1, E.GL_INVALID_OPERATION)
            self.window.draw_buffers = bufs
            return
        for i, b in enumerate(bufs):
            if b == E.GL_NONE:
                continue
            check(E.GL_COLOR_ATTACHMENT0 <= b < E.GL_COLOR_ATTACHMENT0 + 32 or b in (E.GL_BACK, E.GL_FRONT),
                  E.GL_INVALID_ENUM, "bad draw buffer")
            check(b != E.GL_BACK and b != E.GL_FRONT, E.GL_INVALID_OPERATION)
            check(b < E.GL_COLOR_ATTACHMENT0 + self.caps.max_render_targets, E.GL_INVALID_OPERATION)
            check(b == E.GL_COLOR_ATTACHMENT0 + i, E.GL_INVALID_OPERATION,
                  "GLES: draw buffer i must be COLOR_ATTACHMENTi or NONE")
        self._check_no_repeats(bufs)
        fb.draw_buffers = bufs

    def _check_draw_buffers_desktop(self, fb, bufs: list[int]) -> None:
        """GL 4.6 section 17.4.1, DrawBuffers' errors in the spec's order."""
        for b in bufs:
            check(b not in _MULTIPLE_BUFFERS, E.GL_INVALID_ENUM,
                  "FRONT, LEFT, RIGHT and FRONT_AND_BACK name several buffers")
            check(b in _DEFAULT_BUFFER_ENUMS or _is_color_attachment(b), E.GL_INVALID_ENUM, f"bad draw buffer {b:#x}")
        check(E.GL_BACK not in bufs or len(bufs) == 1, E.GL_INVALID_OPERATION, "BACK with n other than 1")
        if fb is None:
            for b in bufs:
                check(b in (E.GL_NONE, E.GL_BACK) or b in _WINDOW_BUFFERS, E.GL_INVALID_OPERATION,
                      f"draw buffer {b:#x} is not a colour buffer of the default framebuffer")
        else:
            for b in bufs:
                check(b == E.GL_NONE or (_is_color_attachment(b) and
                                         b < E.GL_COLOR_ATTACHMENT0 + self.caps.max_render_targets),
                      E.GL_INVALID_OPERATION, f"draw buffer {b:#x} is not a colour attachment of the framebuffer")
        self._check_no_repeats(bufs)

    @staticmethod
    def _check_no_repeats(bufs: list[int]) -> None:
        named = [b for b in bufs if b != E.GL_NONE]
        check(len(set(named)) == len(named), E.GL_INVALID_OPERATION, "a buffer named twice")

    def glDrawBuffer(self, buf: int) -> None:
        """GL 4.6 section 17.4.1: one buffer, which may name several (FRONT,
        FRONT_AND_BACK, ...) on the default framebuffer."""
        check(not self.api.es, E.GL_INVALID_OPERATION)
        fb = self.draw_framebuffer
        check(buf in _DEFAULT_BUFFER_ENUMS or buf in _MULTIPLE_BUFFERS or _is_color_attachment(buf),
              E.GL_INVALID_ENUM, f"bad draw buffer {buf:#x}")
        if fb is None:
            check(buf == E.GL_NONE or _WINDOW_BUFFERS & _BUFFERS_NAMED.get(buf, {buf}), E.GL_INVALID_OPERATION,
                  f"draw buffer {buf:#x} names no colour buffer of the default framebuffer")
            self.window.draw_buffers = [buf]
            return
        check(buf == E.GL_NONE or (_is_color_attachment(buf) and
                                   buf < E.GL_COLOR_ATTACHMENT0 + self.caps.max_render_targets),
              E.GL_INVALID_OPERATION, f"draw buffer {buf:#x} is not a colour attachment of the framebuffer")
        fb.draw_buffers = [buf]

    def glReadBuffer(self, src: int) -> None:
        check(self.api.gl_or_es((1, 0), (3, 0)), E.GL_INVALID_OPERATION)
        fb = self.read_framebuffer
        if self.api.es:
            if fb is None:
                check(src in (E.GL_NONE, E.GL_BACK), E.GL_INVALID_OPERATION,
                      "bad read buffer for the default framebuffer")
                self.window.read_buffer = src
                return
            check(src == E.GL_NONE or E.GL_COLOR_ATTACHMENT0 <= src < E.GL_COLOR_ATTACHMENT0 + 32
                  or src in (E.GL_BACK, E.GL_FRONT), E.GL_INVALID_ENUM)
            check(src == E.GL_NONE or E.GL_COLOR_ATTACHMENT0 <= src <
                  E.GL_COLOR_ATTACHMENT0 + self.caps.max_render_targets, E.GL_INVALID_OPERATION)
            fb.read_buffer = src
            return
        # GL 4.6 section 18.2.1: a constant of table 17.4 (FRONT_AND_BACK too: the
        # window's one image, as Mesa reads its front left buffer) or 17.5
        check(src in _DEFAULT_BUFFER_ENUMS or src in _MULTIPLE_BUFFERS or
              _is_color_attachment(src), E.GL_INVALID_ENUM, f"bad read buffer {src:#x}")
        if fb is None:
            check(src == E.GL_NONE or _WINDOW_BUFFERS & _BUFFERS_NAMED.get(src, {src}), E.GL_INVALID_OPERATION,
                  f"read buffer {src:#x} names no colour buffer of the default framebuffer")
            self.window.read_buffer = src
            return
        check(src == E.GL_NONE or (_is_color_attachment(src) and
                                   src < E.GL_COLOR_ATTACHMENT0 + self.caps.max_render_targets),
              E.GL_INVALID_OPERATION, f"read buffer {src:#x} is not a colour attachment of the framebuffer")
        fb.read_buffer = src

    def _draw_buffer_enum(self, i: int) -> int:
        bufs = self.window.draw_buffers if self.draw_framebuffer is None else self.draw_framebuffer.draw_buffers
        return bufs[i] if i < len(bufs) else E.GL_NONE

    def _read_buffer_enum(self) -> int:
        fb = self.read_framebuffer
        return self.window.read_buffer if fb is None else fb.read_buffer

    def _draw_fb_samples(self) -> int:
        return self._fb_samples(self.draw_framebuffer)

    def _fb_samples(self, fb) -> int:
        """GL_SAMPLES of framebuffer ``fb`` (None: the window's)."""
        if fb is None:
            return self.window.samples
        for a in fb.attachments.values():
            info = a.image_info()
            if info:
                return info[3]
        return self._default_samples(fb)

    def _default_samples(self, fb) -> int:
        """The sample count a framebuffer without attachments rasterises with: its
        FRAMEBUFFER_DEFAULT_SAMPLES rounded up to a count the GPU has (GL 4.6 section
        9.2.1 lets the implementation choose; 0 stays single-sampled), as
        renderbuffer storage rounds its request up."""
        if not fb.default_samples:
            return 0
        return min(s for s in self.caps.sample_counts if s >= fb.default_samples)

    def _draw_fb_srgb_capable(self) -> bool:
        """FRAMEBUFFER_SRGB_CAPABLE_EXT: the draw framebuffer has a colour buffer of
        sRGB encoding, which FRAMEBUFFER_SRGB makes blending and writes encode."""
        fb = self.draw_framebuffer
        if fb is None:
            return "SRGB" in self.window.color.format.name
        for point, a in fb.attachments.items():
            info = a.image_info() if E.GL_COLOR_ATTACHMENT0 <= point < E.GL_COLOR_ATTACHMENT0 + 32 else None
            if info is not None and "SRGB" in lookup(info[2]).pipe.name:
                return True
        return False

    def _draw_fb_signed_components(self) -> tuple[bool, bool, bool, bool]:
        """RGBA_SIGNED_COMPONENTS_EXT (EXT_packed_float): which components of the
        draw framebuffer's first draw buffer hold signed values (as Mesa, only
        draw buffer 0 is looked at; none when it is NONE or has no image)."""
        fb = self.draw_framebuffer
        if fb is None:
            return signed_components(self.window.color.format.name)
        a = fb.attachments.get(fb.draw_buffers[0]) if fb.draw_buffers else None
        info = a.image_info() if a is not None else None
        return signed_components(lookup(info[2]).pipe.value) if info else (False,) * 4

    # -- the pipe framebuffer state -----------------------------------------------------
    def _surface(self, a: Attachment) -> Surface | None:
        if a.type == E.GL_RENDERBUFFER:
            rb = a.obj
            res = rb.resource
            return Surface(res, self._render_format(res.format)) if res is not None else None
        res = texture_resource(self, a.obj)
        if res is None:
            return None
        level0, layer0, view_format = view_offsets(a.obj)       # a texture view: its part of the storage
        fmt, level = self._render_format(view_format or res.format), a.level + level0
        if a.layered:
            layers = self._attachment_layers(a)
            layer = getattr(self, "_render_layer", None)
            if layer is None:           # draws without a layer output render layer 0
                return Surface(res, fmt, level, layer0, layer0 + layers - 1)
            if layer >= layers:
                return None
            return Surface(res, fmt, level, layer0 + layer, layer0 + layer)
        return Surface(res, fmt, level, layer0 + a.layer, layer0 + a.layer)

    # -- layered rendering (GL 4.6 section 9.8) ---------------------------------------------
    def _attachment_layers(self, a: Attachment) -> int:
        """Layers of a layered texture attachment: the depth of a 3D texture's level, the 6
        faces of a cube map, the layers of an array (6 per cube of a cube map array)."""
        tex = a.obj
        if tex.target == E.GL_TEXTURE_3D:
            img = tex.image(0, a.level)
            return max(img.depth if img is not None else 1, 1)
        if tex.target == E.GL_TEXTURE_CUBE_MAP:
            return 6
        if getattr(tex, "view_parent", None) is not None:
            return tex.view_num_layers          # a texture view: its layers of the shared storage
        res = texture_resource(self, tex)
        return res.template.array_size if res is not None else 1

    def _framebuffer_layers(self) -> int:
        """The draw framebuffer's layer count when it is layered (the most layers of its
        attachments: a layered clear clears every layer of each), else 0."""
        fb = self.draw_framebuffer
        if fb is None:
            return 0
        return max((self._attachment_layers(a) for a in fb.attachments.values()
                    if a.type == E.GL_TEXTURE and a.layered), default=0)

    @contextlib.contextmanager
    def _rendering_layer(self, layer: int):
        """Within: the framebuffer state's layered attachments are narrowed to ``layer``
        (the geometry passes draw and clears clear layer by layer)."""
        saved = getattr(self, "_render_layer", None)
        self._render_layer = layer
        try:
            yield
        finally:
            self._render_layer = saved

    def _clear_each_layer(self, clear) -> bool:
        """Run ``clear()`` once per layer of a layered draw framebuffer (GL 4.6 section 9.8:
        a clear of a layered attachment clears all its layers); False when the framebuffer
        is not layered (or one layer is already selected): the caller clears once."""
        layers = self._framebuffer_layers()
        if not layers or getattr(self, "_render_layer", None) is not None:
            return False
        for layer in range(layers):
            with self._rendering_layer(layer):
                clear()
        self.emit_framebuffer()                # the whole attachments again
        return True

    def _render_format(self, fmt):
        """GL 4.6 section 17.3.7: desktop GL writes sRGB buffers linearly
        unless FRAMEBUFFER_SRGB is enabled; GLES always encodes, unless
        EXT_sRGB_write_control's FRAMEBUFFER_SRGB_EXT (enabled at first) is disabled."""
        from driver.gallium import PipeFormat
        if "SRGB" not in fmt.name or E.GL_FRAMEBUFFER_SRGB in self.state.enabled or (
                self.api.es and not self.api.has_extension("GL_EXT_sRGB_write_control")):
            return fmt
        return PipeFormat[fmt.name.replace("SRGB", "UNORM")]

    def _pipe_framebuffer_state(self) -> FramebufferState:
        fb = self.draw_framebuffer
        if fb is None:
            w = self.window
            cb = Surface(w.color, self._render_format(w.color.format)) \
                if WINDOW_COLOR_SELECTORS & set(w.draw_buffers) else None
            return FramebufferState(w.width, w.height, 1, max(1, w.samples), (cb,),
                                    Surface(w.depth_stencil, w.depth_stencil.format))
        cbufs = []
        for b in fb.draw_buffers:
            a = fb.attachments.get(b) if b != E.GL_NONE else None
            cbufs.append(self._surface(a) if a else None)
        zs = fb.attachments.get(E.GL_DEPTH_ATTACHMENT) or fb.attachments.get(E.GL_STENCIL_ATTACHMENT)
        infos = [a.image_info() for a in fb.attachments.values()]
        infos = [i for i in infos if i]
        w = min((i[0] for i in infos), default=fb.default_width)
        h = min((i[1] for i in infos), default=fb.default_height)
        samples = max((i[3] for i in infos), default=self._default_samples(fb))
        return FramebufferState(w, h, 1, max(1, samples), tuple(cbufs),
                                self._surface(zs) if zs else None)

    def _default_attachment_values(self, attachment) -> dict:
        """The sizes, component type and encoding of one buffer of the window
        framebuffer (GL 4.6 section 9.2.3, table 9.2's FRAMEBUFFER_DEFAULT rows;
        VTK reads these to pick its formats)."""
        r, g, b, a, depth, stencil = self.window.bits
        bits = {E.GL_DEPTH: (0, 0, 0, 0, depth, 0),
                E.GL_STENCIL: (0, 0, 0, 0, 0, stencil)}.get(attachment, (r, g, b, a, 0, 0))
        names = (E.GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE, E.GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE,
                 E.GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE, E.GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE,
                 E.GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, E.GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE)
        values = dict(zip(names, bits))
        values[E.GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE] = (
            E.GL_UNSIGNED_INT if attachment == E.GL_STENCIL else E.GL_UNSIGNED_NORMALIZED)
        # an sRGB window surface (EGL_KHR_gl_colorspace) encodes its colour buffer
        srgb = attachment not in (E.GL_DEPTH, E.GL_STENCIL) and "SRGB" in self.window.color.format.name
        values[E.GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING] = E.GL_SRGB if srgb else E.GL_LINEAR
        return values

    def glGetFramebufferAttachmentParameteriv(self, target, attachment, pname) -> list:
        fb = self._fb_for_target(target)
        if fb is None:
            check(attachment in (E.GL_BACK, E.GL_FRONT, E.GL_DEPTH, E.GL_STENCIL, E.GL_BACK_LEFT,
                                 E.GL_FRONT_LEFT), E.GL_INVALID_ENUM if not self.api.es else
                  E.GL_INVALID_OPERATION)
            values = {E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE: E.GL_FRAMEBUFFER_DEFAULT}
            if self.api.gl_or_es((3, 0), (3, 0)):
                values |= self._default_attachment_values(attachment)
            check_enum(pname, values)
            return [values[pname]]
        check(attachment in self._attachment_points(), E.GL_INVALID_ENUM, "bad attachment")
        a = fb.attachments.get(attachment if attachment != E.GL_DEPTH_STENCIL_ATTACHMENT
                               else E.GL_DEPTH_ATTACHMENT)
        if attachment == E.GL_DEPTH_STENCIL_ATTACHMENT:
            s = fb.attachments.get(E.GL_STENCIL_ATTACHMENT)
            check((a is None and s is None) or (a is not None and s is not None and a.obj is s.obj),
                  E.GL_INVALID_OPERATION, "different depth and stencil images")
        if a is None:
            values = {E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE: E.GL_NONE}
            if pname == E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME:
                return [0]
            check(pname in values, E.GL_INVALID_OPERATION if self.api.gl_or_es((3, 0), (3, 0))
                  else E.GL_INVALID_ENUM)
            return [values[pname]]
        values = {E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE: a.type,
                  E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME: a.obj.name}
        if a.type == E.GL_TEXTURE:
            values[E.GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL] = a.level
            # the face of a cube map, zero for any other texture (GL 4.6 section 9.2.3, ES 2.0
            # section 4.4.5): a question every texture attachment answers
            values[E.GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE] = \
                E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + a.face if a.obj.target == E.GL_TEXTURE_CUBE_MAP else 0
            if self.api.gl_or_es((3, 0), (3, 0)):
                values[E.GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER] = a.layer
            if self.api.gl_or_es((3, 2), (3, 2)):
                # GL 4.6 section 9.2.3 (table 23.25): a whole 3D, cube or array texture attached
                # by glFramebufferTexture is layered
                values[E.GL_FRAMEBUFFER_ATTACHMENT_LAYERED] = int(a.layered)
        info = a.image_info()
        if info and self.api.gl_or_es((3, 0), (3, 0)):
            fmt = lookup(info[2])
            bits = _component_bits(fmt)
            values |= {E.GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE: bits[0],
                       E.GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE: bits[1],
                       E.GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE: bits[2],
                       E.GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE: bits[3],
                       E.GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE: bits[4],
                       E.GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE: bits[5],
                       E.GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE: {
                           "unorm": E.GL_UNSIGNED_NORMALIZED, "snorm": E.GL_SIGNED_NORMALIZED,
                           "float": E.GL_FLOAT, "int": E.GL_INT, "uint": E.GL_UNSIGNED_INT,
                           "depth": E.GL_UNSIGNED_NORMALIZED if "Z32" not in fmt.pipe.name else E.GL_FLOAT,
                           "depthstencil": E.GL_UNSIGNED_NORMALIZED, "stencil": E.GL_UNSIGNED_INT,
                       }[fmt.kind],
                       E.GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING:
                           E.GL_SRGB if "SRGB" in fmt.pipe.name else E.GL_LINEAR}
        check_enum(pname, values)
        return [int(values[pname])]


def _component_bits(info) -> tuple[int, int, int, int, int, int]:
    """(R, G, B, A, depth, stencil) bits of an internal format (from layout's table)."""
    from driver.gl.formats import component_bits
    return component_bits(info)
