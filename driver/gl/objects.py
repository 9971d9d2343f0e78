"""GL objects and their name spaces (GL 4.6 section 2.6 / chapter 5).

The objects a draw derives pipe state from (buffers, vertex arrays, textures and
samplers, framebuffers and renderbuffers) move their group's generation on every
change (driver.gl.generations)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from driver.gl import enums as E
from driver.gl.errors import check
from driver.gl.generations import BUFFERS, FRAMEBUFFERS, TEXTURES, TRANSFORM_FEEDBACK, VERTEX_ARRAYS, tracked

__all__ = [
    "Buffer", "Framebuffer", "Namespace", "Program", "Query", "Renderbuffer", "Sampler",
    "SamplerParams", "Shader", "ShareGroup", "Sync", "Texture", "TransformFeedback",
    "VertexArray", "VertexAttrib", "VertexBinding", "Attachment", "LAYER_TARGETS", "program_object", "shader_object",
]


MAX_NAME = 0xFFFF_FFFF            # names are GLuint
MAX_NAMES_PER_CALL = 1 << 20      # one glGen*/glCreate* call (~100 B of host memory per name)


class Namespace:
    """Names of one object type. A name is *reserved* by glGen* (value None)
    and becomes an object when first bound (or at once for glCreate*-style
    objects such as shaders and programs). 0 is never a generated name."""

    def __init__(self, factory):
        self.factory = factory
        self.objects: dict[int, Any] = {}
        self._next = 1

    def gen(self, n: int) -> list[int]:
        """`n` unused names, now reserved. All or nothing: a request beyond
        MAX_NAMES_PER_CALL, past the last GLuint, or that runs out of host
        memory raises GLError(GL_OUT_OF_MEMORY) and reserves nothing."""
        from driver.gl.errors import GLError
        if n > MAX_NAMES_PER_CALL:
            raise GLError(E.GL_OUT_OF_MEMORY, f"{n} names in one call (at most {MAX_NAMES_PER_CALL})")
        names: list[int] = []
        try:
            nxt = self._next
            while len(names) < n:
                if nxt not in self.objects:
                    names.append(nxt)
                nxt += 1
            if nxt - 1 > MAX_NAME:
                raise GLError(E.GL_OUT_OF_MEMORY, "no unused names left")
            self.objects.update(dict.fromkeys(names))
        except MemoryError:
            for name in names:
                self.objects.pop(name, None)
            raise GLError(E.GL_OUT_OF_MEMORY, f"out of host memory for {n} names") from None
        self._next = nxt
        return names

    def create(self, *args) -> tuple[int, Any]:
        name = self.gen(1)[0]
        obj = self.objects[name] = self.factory(name, *args)
        return name, obj

    def is_generated(self, name: int) -> bool:
        return name in self.objects

    def get(self, name: int):
        """The object, or None when the name is unused or only reserved."""
        return self.objects.get(name)

    def get_or_create(self, name: int, *args):
        obj = self.objects.get(name)
        if obj is None:
            obj = self.objects[name] = self.factory(name, *args)
        return obj

    def delete(self, name: int):
        return self.objects.pop(name, None)

    def __iter__(self):
        return iter(o for o in self.objects.values() if o is not None)


class ShareGroup:
    """The objects a set of contexts shares (GL 4.6 section 5.1 and appendix
    D; EGL 1.5 eglCreateContext's share_context; OSMesa's sharelist).

    Shared: buffers, textures, renderbuffers, samplers, shaders and programs,
    sync objects and display lists: the context attributes named in SHARED;
    and the named strings of ARB_shading_language_include (``named_strings``).
    Per context (container objects): vertex arrays, framebuffers, transform
    feedback objects, program pipelines, queries.

    The first context to join lends its (empty) tables to the group; every
    later one has its tables replaced by the group's, so the front end's code
    reaches shared objects through the same attributes as before.

    Deletion (GL 4.6 section 5.1.2-5.1.3): the name is freed at once and the
    deleting context unbinds the object from its own binding points; the
    object itself lives while any member context still has it bound or
    attached. `release` parks such an object until a later `release` or
    `leave` finds it unused, and only then destroys its pipe resource."""

    SHARED = ("buffers", "textures", "samplers", "renderbuffers", "shader_objects", "syncs",
              "_lists")

    def __init__(self):
        self.contexts: list = []           # member contexts, in joining order
        self.tables: dict[str, Any] = {}
        self.orphans: list = []            # deleted objects whose resource waits for its last user
        # ARB_shading_language_include's named strings: tree location -> (type, text)
        # (features/shading_language_include.py)
        self.named_strings: dict[tuple[str, ...], tuple[int, str]] = {}
        # EXT_memory_object's memory objects (shared, as Mesa keeps them; features/memory_object.py)
        self.memory_objects: dict[int, Any] = {}

    def join(self, ctx) -> None:
        if not self.tables:
            self.tables = {a: getattr(ctx, a) for a in self.SHARED if hasattr(ctx, a)}
        else:
            for attr, table in self.tables.items():
                setattr(ctx, attr, table)
        self.contexts.append(ctx)
        ctx.share_group = self

    def leave(self, ctx, destroy) -> bool:
        """Remove a destroyed context; True when it was the last member (its
        caller then destroys the shared objects)."""
        if ctx in self.contexts:
            self.contexts.remove(ctx)
        self._sweep(destroy)
        return not self.contexts

    def in_use(self, obj) -> bool:
        """Whether a member context has obj bound or attached."""
        return id(obj) in self._used()

    def release(self, obj, destroy) -> None:
        """obj was deleted: destroy its resource (with `destroy`) once unused."""
        if getattr(obj, "resource", None) is not None:
            self.orphans.append(obj)
        if self.orphans:
            self._sweep(destroy)

    def _sweep(self, destroy) -> None:
        used = self._used() if self.contexts else set()
        keep = []
        for obj in self.orphans:
            if id(obj) in used:
                keep.append(obj)
            elif getattr(obj, "resource", None) is not None:
                destroy(obj.resource)
                obj.resource = None
        self.orphans = keep

    def _used(self) -> set[int]:
        used: set[int] = set()
        for ctx in self.contexts:
            used.update(id(o) for o in _bound_objects(ctx) if o is not None)
        # buffer textures hold their buffer, texture views their parent's
        # storage (the tables are shared: look once)
        for tex in self.tables.get("textures", ()):
            for held in (tex.buffer, getattr(tex, "view_parent", None)):
                if held is not None:
                    used.add(id(held))
        return used


def _bound_objects(ctx):
    """Every object a context has bound or attached (binding points, and the
    attachments of its container objects)."""
    for unit in getattr(ctx, "texture_units", ()):
        yield from unit.values()
    yield from getattr(ctx, "sampler_units", ())
    for entry in getattr(ctx, "image_units", {}).values():
        yield entry[0]
    yield from getattr(ctx, "buffer_bindings", {}).values()
    for per_index in getattr(ctx, "indexed_buffers", {}).values():
        yield from (entry[0] for entry in per_index.values())
    for vao in [*getattr(ctx, "vertex_arrays", ()), getattr(ctx, "default_vao", None)]:
        if vao is not None:
            yield vao.element_buffer
            yield from (b.buffer for b in vao.bindings)
            yield from (entry[1].buffer for entry in vao.legacy.values())
    for xfb in [*getattr(ctx, "transform_feedbacks", ()), getattr(ctx, "default_xfb", None)]:
        if xfb is not None:
            yield from (entry[0] for entry in xfb.buffers)
    for fb in getattr(ctx, "framebuffers", ()):
        yield from (a.obj for a in fb.attachments.values())
    yield getattr(ctx, "renderbuffer_binding", None)
    yield getattr(ctx, "current_program", None)


@tracked(BUFFERS)
@dataclass(eq=False)
class Buffer:
    name: int
    size: int = 0
    usage: int = E.GL_STATIC_DRAW
    resource: Any = None
    immutable: bool = False
    storage_flags: int = 0
    mapped: bool = False
    map_offset: int = 0
    map_length: int = 0
    map_access: int = 0          # GL_MAP_*_BIT flags of the current mapping
    map_view: Any = None         # the pipe Transfer of the current mapping


@tracked(VERTEX_ARRAYS)
@dataclass(eq=False)
class VertexAttrib:
    """Generic attribute state (GL 4.6 table 23.4 and 23.5)."""
    enabled: bool = False
    size: int = 4
    type: int = E.GL_FLOAT
    normalized: bool = False
    integer: bool = False
    long: bool = False            # glVertexAttribL*: 64-bit components read as they are
    relative_offset: int = 0
    binding: int = 0
    stride: int = 0               # as specified (0 = tightly packed)
    pointer: Any = 0              # offset into the buffer, or client memory


@tracked(VERTEX_ARRAYS)
@dataclass(eq=False)
class VertexBinding:
    buffer: Buffer | None = None
    offset: int = 0
    stride: int = 16
    divisor: int = 0


@tracked(VERTEX_ARRAYS)
@dataclass(eq=False)
class VertexArray:
    """A vertex array object. Its ``n_attribs`` attributes and bindings are made on
    first use: creating an array costs the same whatever the attribute count, so
    glCreateVertexArrays of tens of thousands of names stays cheap."""
    name: int
    n_attribs: int = 0
    element_buffer: Buffer | None = None
    # Compatibility-profile fixed-function arrays: key -> VertexAttrib/VertexBinding
    legacy: dict = field(default_factory=dict)
    ever_bound: bool = False
    _attribs: list | None = field(default=None, repr=False)
    _bindings: list | None = field(default=None, repr=False)

    @classmethod
    def make(cls, name: int, n_attribs: int) -> "VertexArray":
        return cls(name, n_attribs)

    @property
    def attribs(self) -> list:
        """VertexAttrib of each generic attribute (attribute i on binding i at first)."""
        if self._attribs is None:
            self._attribs = [VertexAttrib(binding=i) for i in range(self.n_attribs)]
        return self._attribs

    @property
    def bindings(self) -> list:
        """VertexBinding of each binding point."""
        if self._bindings is None:
            self._bindings = [VertexBinding() for _ in range(self.n_attribs)]
        return self._bindings

    def legacy_array(self, key) -> tuple:
        """(VertexAttrib, VertexBinding) of the fixed-function array ``key``
        (``LegacyState.array_key``), made disabled on first use."""
        entry = self.legacy.get(key)
        if entry is None:
            entry = self.legacy[key] = (VertexAttrib(), VertexBinding())
        return entry


@tracked(TEXTURES)
@dataclass
class SamplerParams:
    """Sampler state (GL 4.6 table 23.18): shared by textures and samplers."""
    min_filter: int = E.GL_NEAREST_MIPMAP_LINEAR
    mag_filter: int = E.GL_LINEAR
    wrap_s: int = E.GL_REPEAT
    wrap_t: int = E.GL_REPEAT
    wrap_r: int = E.GL_REPEAT
    min_lod: float = -1000.0
    max_lod: float = 1000.0
    lod_bias: float = 0.0
    compare_mode: int = E.GL_NONE
    compare_func: int = E.GL_LEQUAL
    border_color: tuple = (0.0, 0.0, 0.0, 0.0)
    max_anisotropy: float = 1.0
    srgb_decode: int = 0x8A49                 # EXT_texture_sRGB_decode: DECODE_EXT / SKIP_DECODE_EXT
    cube_map_seamless: bool = False           # ARB/AMD_seamless_cubemap_per_texture
    reduction_mode: int = E.GL_WEIGHTED_AVERAGE_ARB     # ARB/EXT_texture_filter_minmax: or MIN, MAX


@tracked(TEXTURES)
@dataclass(eq=False)
class Sampler:
    name: int
    params: SamplerParams = field(default_factory=SamplerParams)


@tracked(TEXTURES)
@dataclass
class TexImage:
    """One level of one face/target: the specified image's properties."""
    width: int = 0
    height: int = 0
    depth: int = 0
    internal_format: int = E.GL_RGBA
    samples: int = 0
    fixed_sample_locations: bool = True
    compressed: bool = False


# pending uploads are flushed by the next use of the resource, not state a draw derives
@tracked(TEXTURES, untracked=frozenset({"pending", "pending_compressed"}))
@dataclass(eq=False)
class Texture:
    name: int
    target: int = 0
    # images[face][level] -> TexImage; face is 0 except for cube maps (0..5)
    images: list = field(default_factory=list)
    params: SamplerParams = field(default_factory=SamplerParams)
    base_level: int = 0
    max_level: int = 1000
    swizzle: list = field(default_factory=lambda: [E.GL_RED, E.GL_GREEN, E.GL_BLUE, E.GL_ALPHA])
    depth_stencil_mode: int = E.GL_DEPTH_COMPONENT
    immutable: bool = False
    immutable_levels: int = 0
    resource: Any = None
    resource_key: Any = None
    buffer: Buffer | None = None          # GL_TEXTURE_BUFFER
    buffer_internal_format: int = 0
    buffer_offset: int = 0
    buffer_size: int = 0
    # EXT_memory_object (features/memory_object.py): TEXTURE_TILING_EXT, and the memory
    # object and offset glTexStorageMem* placed the storage in
    tiling: int = E.GL_OPTIMAL_TILING_EXT
    memory: Any = None

    def image(self, face: int, level: int) -> TexImage | None:
        """The image of ``face`` (0 but for cube maps) at ``level``, or None when it is
        not defined (outside the arrays, or of zero width)."""
        if 0 <= face < len(self.images) and 0 <= level < len(self.images[face]):
            img = self.images[face][level]
            return img if img.width else None
        return None

    def set_image(self, face: int, level: int, img: TexImage) -> None:
        """Make ``img`` the image of ``face`` (0 but for cube maps) at ``level``
        (glTexImage*, glTexStorage*, mipmap generation, views...). A texture that
        was an EGLImage target gets its own storage (OES_EGL_image: respecifying
        it orphans it): ``release_egl_image``."""
        faces = 6 if self.target == E.GL_TEXTURE_CUBE_MAP else 1
        while len(self.images) < faces:
            self.images.append([])
        levels = self.images[face]
        while len(levels) <= level:
            levels.append(TexImage())
        levels[level] = img
        if getattr(self, "egl_image", None) is not None:
            self.release_egl_image()

    def release_egl_image(self) -> None:
        """An EGLImage target (driver.gl.features.egl_image) is respecified: it
        stops sharing the image's storage and releases its reference."""
        img = getattr(self, "egl_image", None)
        if img is None:
            return
        for attr in ("view_parent", "view_format", "view_min_level", "view_min_layer",
                     "view_num_levels", "view_num_layers", "view_immutable_levels"):
            if hasattr(self, attr):
                delattr(self, attr)
        if self.resource is not None:
            img.screen.resource_destroy(self.resource)
        self.resource, self.resource_key = None, None
        object.__setattr__(self, "egl_image", None)


@tracked(FRAMEBUFFERS)
@dataclass
class Attachment:
    type: int = E.GL_NONE                 # GL_NONE, GL_TEXTURE, GL_RENDERBUFFER
    obj: Any = None
    level: int = 0
    layer: int = 0                        # face for cube maps, or layer
    face: int = 0
    layered: bool = False

    def image_info(self):
        """(width, height, internal format, samples) of the attached image, or None
        when there is none (GL 4.6 section 9.4.2's attachment completeness reads it).
        A 1D array's image is one of its layers (rows): height 1, whatever its layer
        count (the framebuffer's size is the attachments' intersection)."""
        if self.type == E.GL_RENDERBUFFER:
            rb = self.obj
            return (rb.width, rb.height, rb.internal_format, rb.samples) if rb.width else None
        img = self.obj.image(self.face if self.obj.target == E.GL_TEXTURE_CUBE_MAP else 0, self.level)
        if img is None:
            return None
        # a layer (3D slice, array layer, cube map array layer-face) the image does not have;
        # a 1D array's layers are its rows
        layers = img.height if self.obj.target == E.GL_TEXTURE_1D_ARRAY else img.depth
        if self.obj.target in LAYER_TARGETS and self.layer >= layers:
            return None
        height = 1 if self.obj.target == E.GL_TEXTURE_1D_ARRAY else img.height
        return (img.width, height, img.internal_format, img.samples)


# the targets whose images have layers one attachment may select (glFramebufferTextureLayer)
LAYER_TARGETS = (E.GL_TEXTURE_3D, E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_CUBE_MAP_ARRAY,
                  E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY)


@tracked(FRAMEBUFFERS)
@dataclass(eq=False)
class Framebuffer:
    name: int
    attachments: dict = field(default_factory=dict)   # attachment enum -> Attachment
    draw_buffers: list = field(default_factory=lambda: [E.GL_COLOR_ATTACHMENT0])
    read_buffer: int = E.GL_COLOR_ATTACHMENT0
    default_width: int = 0
    default_height: int = 0
    default_layers: int = 0
    default_samples: int = 0
    default_fixed_samples: int = 0
    ever_bound: bool = False


@tracked(FRAMEBUFFERS)
@dataclass(eq=False)
class Renderbuffer:
    name: int
    width: int = 0
    height: int = 0
    internal_format: int = E.GL_RGBA4
    samples: int = 0
    resource: Any = None
    ever_bound: bool = False


# shader object type -> the compiler's stage name
STAGES = {E.GL_VERTEX_SHADER: "vertex", E.GL_FRAGMENT_SHADER: "fragment",
          E.GL_COMPUTE_SHADER: "compute", E.GL_GEOMETRY_SHADER: "geometry",
          E.GL_TESS_CONTROL_SHADER: "tess_control", E.GL_TESS_EVALUATION_SHADER: "tess_evaluation"}


@dataclass(eq=False)
class Shader:
    name: int
    type: int
    source: str | None = None
    compiled: bool = False
    info_log: str = ""
    delete_pending: bool = False
    ast: Any = None
    attached_to: int = 0


@dataclass(eq=False)
class Program:
    name: int
    shaders: list = field(default_factory=list)
    linked: bool = False
    link_attempted: bool = False
    validated: bool = False
    info_log: str = ""
    delete_pending: bool = False
    attrib_bindings: dict = field(default_factory=dict)     # name -> location (BindAttribLocation)
    frag_data_bindings: dict = field(default_factory=dict)
    linked_state: Any = None     # LinkedProgram after a successful link
    separable: bool = False
    binary_retrievable: bool = False
    tf_varyings: list = field(default_factory=list)
    tf_buffer_mode: int = E.GL_INTERLEAVED_ATTRIBS


@dataclass(eq=False)
class Query:
    name: int
    target: int = 0
    active: bool = False
    pipe_query: Any = None
    result: int | None = None
    ever_used: bool = False
    stream: int = 0                 # vertex stream of an indexed query (transform_feedback_streams.py)
    geometry_adjust: int = 0        # what the front end's passes changed in the pipe's count
    # an overflow query of stream 0 is ended around the capture passes of streams 1..3
    # (geometry.stream_capture): whether a part before such a pass overflowed
    overflowed_before: bool = False


@dataclass(eq=False)
class Sync:
    name: int
    fence: Any = None
    signaled: bool = False
    condition: int = E.GL_SYNC_GPU_COMMANDS_COMPLETE
    delete_pending: bool = False


# the counters a draw moves (the vertices captured, whether the next draw starts the
# buffers afresh) are not what a draw derives: untracked
@tracked(TRANSFORM_FEEDBACK, untracked=frozenset({"vertices_written", "first_emit"}))
@dataclass(eq=False)
class TransformFeedback:
    name: int
    active: bool = False
    paused: bool = False
    primitive_mode: int = 0
    buffers: list = field(default_factory=lambda: [(None, 0, 0)] * 4)   # (Buffer, offset, size)
    program: Any = None
    ever_bound: bool = False
    vertices_written: int = 0


def shader_object(ctx, name: int) -> Shader:
    """The shader object ``name`` of the context's share group (GL 4.6 section
    7.1: a name that is no object is GL_INVALID_VALUE, a program's
    GL_INVALID_OPERATION)."""
    obj = ctx.shader_objects.get(name)
    check(obj is not None, E.GL_INVALID_VALUE, f"{name} is not a shader or program")
    check(isinstance(obj, Shader), E.GL_INVALID_OPERATION, f"{name} is a program")
    return obj


def program_object(ctx, name: int) -> Program:
    """The program object ``name`` of the context's share group (as
    ``shader_object``, the other way round)."""
    obj = ctx.shader_objects.get(name)
    check(obj is not None, E.GL_INVALID_VALUE, f"{name} is not a shader or program")
    check(isinstance(obj, Program), E.GL_INVALID_OPERATION, f"{name} is a shader")
    return obj
