"""The GL context: one object per GL context, with the GL entry points as
methods named like the C functions.

Calling convention (see driver.gl.pointers for pointers): scalar arguments as
in C, in C order; array inputs as sequences / bytes / numpy; output pointers
are returned instead of passed (glGenBuffers(n) -> list[int],
glGetIntegerv(pname) -> list[int], glGetShaderInfoLog(shader) -> str). On a GL
error an entry point records the error (first one wins until glGetError) and
returns None, changing no state."""

from __future__ import annotations

from array import array

from driver.gallium import (
    PIPE_TIMEOUT_INFINITE, BlitImage, BlitInfo, Box, CsoContext, PipeBind, PipeContext, PipeFlush, PipeFormat,
    PipeMask, PipeTextureTarget, ResourceTemplate, UploadManager,
)
from driver.gl import blit_programs
from driver.gl import enums as E
from driver.gl.answer_words import ANSWER_WORDS
from driver.gl.api import Api, get_api
from driver.gl.buffers import INDEXED_TARGETS
from driver.gl.errors import GLError
from driver.gl.limits import compute_limits, extensions_for
from driver.gl.objects import Buffer, Namespace, ShareGroup, TransformFeedback, VertexArray
from driver.gl.pipestate import DerivedStates
from driver.gl.state import GLState

__all__ = ["ANSWER_WORDS", "ContextBase", "DefaultFramebuffer"]

#: ``ContextBase.answers``: the words by name (driver/gl/answer_words.py)
_ERROR, _CHECKED, _IDLE = ANSWER_WORDS["ERROR"], ANSWER_WORDS["CHECKED"], ANSWER_WORDS["IDLE"]


class DefaultFramebuffer:
    """The window-system-provided framebuffer (name 0): an RGBA8 colour buffer
    and a 24/8 depth-stencil buffer made through the pipe screen, as an EGL
    pbuffer surface would be. With `samples` > 1 (a multisampled EGL/GLX config)
    both are multisampled; reads, copies and presentation take them resolved
    (`resolved`), as GL 4.6 section 18.2.6 allows for the default framebuffer.
    `srgb` (EGL_KHR_gl_colorspace's EGL_GL_COLORSPACE_SRGB): the colour buffer
    is sRGB-encoded (GLES writes encode; desktop GL's when FRAMEBUFFER_SRGB is on)."""

    name = 0

    def __init__(self, screen, width: int, height: int, samples: int = 0, srgb: bool = False):
        self.screen = screen
        self.width, self.height, self.samples = width, height, samples
        self._resolved: dict[bool, object] = {}     # depth? -> single-sample copy
        self.color = screen.resource_create(ResourceTemplate(
            PipeTextureTarget.TEXTURE_2D, PipeFormat.R8G8B8A8_SRGB if srgb else PipeFormat.R8G8B8A8_UNORM,
            width, height,
            nr_samples=samples, bind=PipeBind.RENDER_TARGET | PipeBind.SAMPLER_VIEW))
        self.depth_stencil = screen.resource_create(ResourceTemplate(
            PipeTextureTarget.TEXTURE_2D, PipeFormat.Z24_UNORM_S8_UINT, width, height,
            nr_samples=samples, bind=PipeBind.DEPTH_STENCIL))
        self.draw_buffers = [E.GL_BACK]
        self.read_buffer = E.GL_BACK
        self.bits = (8, 8, 8, 8, 24, 8)

    def resolved(self, pipe: PipeContext, depth: bool = False):
        """The colour (or depth/stencil) buffer with one sample per pixel: the
        buffer itself, or for a multisampled one a single-sample copy resolved
        now by a blit (colour: the samples' average; depth/stencil: a sample)."""
        src = self.depth_stencil if depth else self.color
        if self.samples <= 1:
            return src
        dst = self._resolved.get(depth)
        if dst is None:
            bind = PipeBind.DEPTH_STENCIL if depth else PipeBind.RENDER_TARGET | PipeBind.SAMPLER_VIEW
            dst = self._resolved[depth] = self.screen.resource_create(ResourceTemplate(
                PipeTextureTarget.TEXTURE_2D, src.format, self.width, self.height, bind=bind))
        box = Box(0, 0, 0, self.width, self.height, 1)
        pipe.blit(BlitInfo(dst=BlitImage(dst, 0, box, dst.format), src=BlitImage(src, 0, box, src.format),
                           mask=PipeMask.Z | PipeMask.S if depth else PipeMask.RGBA))
        return dst

    def resources(self) -> list:
        """Every pipe resource of the framebuffer (to destroy with it)."""
        return [self.color, self.depth_stencil, *self._resolved.values()]


class ContextBase:
    """Common machinery (construction, the GL error, flush and finish);
    driver.gl.Context installs every family into its subclass."""

    def __init__(self, pipe: PipeContext, api: str | Api = "gles3", width: int = 256,
                 height: int = 256, share_group: ShareGroup | None = None):
        """`share_group`: another context's `share_group` to share its objects
        (driver.gl.objects.ShareGroup); None starts a new group."""
        self.api = api if isinstance(api, Api) else get_api(api)
        self.pipe = pipe
        # ARB_robust_buffer_access_behavior: a robust context's shaders bound their buffer accesses
        pipe.robust_buffer_access = bool(self.api.flags & E.GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT)
        pipe.blit_programs = blit_programs.programs     # the pipe's blitter draws with the GL side's programs
        self.screen = pipe.screen
        self.caps = self.screen.caps
        self.cso = CsoContext(pipe)
        self.uploader = UploadManager(self.screen, pipe)
        self.limits = compute_limits(self.api, self.caps)
        self.extensions = extensions_for(self.api)
        self.answers = array("i", [0] * len(ANSWER_WORDS))      # see ANSWER_WORDS
        if pipe.reports_work:
            pipe.idle_flag = memoryview(self.answers)[_IDLE:_IDLE + 1]
        self.error_log: list[str] = []
        # exceptions an entry point turned into GL errors as a last resort (driver bugs;
        # driver.gl.errors): "Kind: message", the newest 1000
        self.internal_errors: list[str] = []
        self.state = GLState()
        # the pipe states last derived from self.state, keyed by its groups' generations
        self.derived = DerivedStates()
        if self.api.flags & E.GL_CONTEXT_FLAG_DEBUG_BIT:     # debug contexts start with debug output on
            self.state.enabled.add(E.GL_DEBUG_OUTPUT)
        if self.api.es:         # GLES encodes sRGB writes: FRAMEBUFFER_SRGB_EXT starts enabled
            self.state.enabled.add(E.GL_FRAMEBUFFER_SRGB)
        self.state.viewport = self.state.scissor = (0, 0, width, height)
        # name spaces
        self.buffers = Namespace(Buffer)
        self.vertex_arrays = Namespace(lambda n, k: VertexArray.make(n, k))
        self.default_vao = VertexArray.make(0, self.caps.max_vertex_attribs)
        self.vao = self.default_vao
        self.buffer_bindings: dict = {}
        self.indexed_buffers = {t: {} for t in INDEXED_TARGETS}
        self.transform_feedbacks = Namespace(lambda n: TransformFeedback(n))
        self.default_xfb = TransformFeedback(0)
        self.xfb = self.default_xfb
        self.current_attribs = [((0.0, 0.0, 0.0, 1.0), "float")
                                for _ in range(self.caps.max_vertex_attribs)]
        self.window = DefaultFramebuffer(self.screen, width, height)
        self._init_families()
        (share_group or ShareGroup()).join(self)
        self._get_table = self._get_entries()
        self._clear_window()

    def _clear_window(self) -> None:
        """The window starts as a fresh one would: colour 0, depth 1, stencil 0. Its
        memory may be a recycled buffer of a destroyed context (the driver's BO cache)."""
        from driver.gallium import FramebufferState, PipeClear, Surface
        w = self.window
        self.pipe.set_framebuffer_state(FramebufferState(
            w.width, w.height, 1, max(1, w.samples), (Surface(w.color, w.color.format),),
            Surface(w.depth_stencil, w.depth_stencil.format)))
        self.pipe.clear(PipeClear.COLOR | PipeClear.DEPTH | PipeClear.STENCIL, None,
                        (0.0, 0.0, 0.0, 0.0), 1.0, 0)

    def _init_families(self) -> None:
        """Hook for the mixins of driver.gl.Context to set up their state."""

    # -- errors ------------------------------------------------------------------
    def record_error(self, err: GLError) -> None:
        """Record ``err``: the error flag takes its code when no error is pending
        (glGetError returns it), the error log and, with GL_DEBUG_OUTPUT, a debug
        message get it. For errors raised outside an entry point's own checks."""
        self.error_log.append(f"{err.code:#06x} {err.message}")
        if self.api.flags & E.GL_CONTEXT_FLAG_NO_ERROR_BIT and err.code != E.GL_OUT_OF_MEMORY:
            # KHR_no_error: what would be an error is undefined behaviour; shimgl still
            # refuses the call (nothing changes) but GetError reports no error
            return
        answers = self.answers
        if answers[_ERROR] == E.GL_NO_ERROR:
            answers[_ERROR] = err.code
        # GL 4.6 section 20.2: every GL error is also a debug message of the API
        send = getattr(self, "_debug_message", None)
        if send is not None and E.GL_DEBUG_OUTPUT in self.state.enabled:
            send(E.GL_DEBUG_SOURCE_API, E.GL_DEBUG_TYPE_ERROR, err.code, E.GL_DEBUG_SEVERITY_HIGH,
                 f"GL error {err.code:#06x}: {err.message or 'no details'}")

    def glGetError(self) -> int:
        if getattr(self, "_im", None) is not None:
            # GL 2.1 section 2.6.3 / the glGetError reference: between Begin and End the call
            # is INVALID_OPERATION and returns 0 (the recorded error stays for after End)
            self.record_error(GLError(E.GL_INVALID_OPERATION, "glGetError between glBegin and glEnd"))
            return E.GL_NO_ERROR
        answers = self.answers
        err, answers[_ERROR] = answers[_ERROR], E.GL_NO_ERROR
        return err

    def note_checked_dispatch(self, on: bool) -> None:
        """The checked dispatch is (or is no longer) in effect (ANSWER_WORDS' CHECKED)."""
        self.answers[_CHECKED] = int(on)

    def note_finished(self) -> None:
        """A glFinish just returned and nothing else ran since (the window system's
        own work after it included): until the pipe records or submits work again,
        another one has nothing to wait for (ANSWER_WORDS' IDLE). Not while the
        context is lost (every call then records GL_CONTEXT_LOST) or the checked
        dispatch is in effect, nor for a pipe that does not report its work."""
        if self.pipe.reports_work and getattr(self, "context_lost", None) is None \
                and not self.answers[_CHECKED]:
            self.answers[_IDLE] = 1

    def forget_idle(self) -> None:
        """Every glFinish goes through the front end again until the next note_finished."""
        self.answers[_IDLE] = 0

    # -- flush / finish (GL 4.6 section 4.1.2) -------------------------------------
    def glFlush(self) -> None:
        self.pipe.flush(PipeFlush.ASYNC)

    def glFinish(self) -> None:
        fence = self.pipe.flush(PipeFlush.NONE)
        self.screen.fence_finish(fence, PIPE_TIMEOUT_INFINITE)
