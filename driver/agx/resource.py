"""Resources: buffers and images in BOs, laid out with ``layout`` (ail).

Sole responsibility: what a resource is in memory and the CPU's access to it
without synchronisation (the context orders it against the GPU): image
layouts from ``layout.make_miptree``, depth/stencil as separate planes the ZLS
understands (depth Z32_FLOAT or Z16_UNORM, stencil S8_UINT), region reads and
writes that detile/tile through ``layout`` and convert packed depth/stencil
formats, and the hardware descriptors (TEXTURE, PBE) of a view.

Units: ``_B`` bytes, ``_px`` pixels, ``_el`` elements."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import layout
import layout.native
from layout.compression import solid_value
from driver.gallium import PipeBind, PipeFormat, PipeResource, PipeTextureTarget, ResourceTemplate
from uapi import packets as P
from uapi.native_kernels import Kernels

from .device import BO, Device
from .packed import packed

#: ``layout``'s tile copies in C (``layout.native``), shared by every resource
_TILE_COPIES = Kernels(layout.native.SOURCE, layout.native.CDEF)
_NATIVE_COPY_MIN_PX = 1 << 16
_FILL_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}    # detile's fill words
#: The largest colour level ``read_region`` keeps detiled whole (``_kept_level``), and
#: how many (level, layer) a resource keeps at once.
KEEP_LEVEL_MAX_B = 16 << 20
KEEP_LEVELS = 2
#: The read of a level under the same contents that detiles it whole (the earlier
#: ones detile their region): a program reading a few pixels after each draw never
#: pays for the whole level.
KEEP_AFTER_READS = 4

__all__ = ["AgxResource", "Plane", "format_id", "layout_format", "DEPTH_PLANE", "FIXED24_DEPTH", "STENCIL_FORMATS"]


#: packed depth/stencil format -> (depth plane format or None, has stencil)
DEPTH_PLANE = {
    "Z16_UNORM": ("Z16_UNORM", False), "Z32_FLOAT": ("Z32_FLOAT", False), "Z24X8_UNORM": ("Z32_FLOAT", False),
    "X8Z24_UNORM": ("Z32_FLOAT", False), "Z32_UNORM": ("Z32_FLOAT", False),
    "Z24_UNORM_S8_UINT": ("Z32_FLOAT", True), "S8_UINT_Z24_UNORM": ("Z32_FLOAT", True),
    "Z32_FLOAT_S8X24_UINT": ("Z32_FLOAT", True), "S8_UINT": (None, True),
    "X24S8_UINT": (None, True), "S8X24_UINT": (None, True),
}
STENCIL_FORMATS = {k for k, (_, s) in DEPTH_PLANE.items() if s}
#: 24-bit fixed-point depth formats kept as 32-bit float: glPolygonOffset's units count
#: in their r, 2^-24 (GL 4.6 section 14.6.5), not float's (PPP_RASTER.depth_bias_fixed24)
FIXED24_DEPTH = frozenset(k for k, (plane, _) in DEPTH_PLANE.items() if plane == "Z32_FLOAT" and "Z24" in k)

T = PipeTextureTarget
_TARGETS = {T.TEXTURE_1D: P.TextureTarget.TEXTURE_1D, T.TEXTURE_1D_ARRAY: P.TextureTarget.TEXTURE_1D_ARRAY,
            T.TEXTURE_2D: P.TextureTarget.TEXTURE_2D, T.TEXTURE_RECT: P.TextureTarget.TEXTURE_2D,
            T.TEXTURE_2D_ARRAY: P.TextureTarget.TEXTURE_2D_ARRAY, T.TEXTURE_3D: P.TextureTarget.TEXTURE_3D,
            T.TEXTURE_CUBE: P.TextureTarget.TEXTURE_CUBE, T.TEXTURE_CUBE_ARRAY: P.TextureTarget.TEXTURE_CUBE_ARRAY,
            T.BUFFER: P.TextureTarget.TEXTURE_BUFFER}
_TILING = {"linear": P.Tiling.LINEAR, "twiddled": P.Tiling.TWIDDLED,
           "twiddled_compressed": P.Tiling.TWIDDLED_COMPRESSED}


def layout_format(fmt: PipeFormat | str) -> str:
    """The layout format name of a pipe format (they are named alike)."""
    name = fmt.value if isinstance(fmt, PipeFormat) else fmt
    layout.get_format(name)      # raises for unknown names
    return name


format_id = layout.format_id   # descriptor format ids: layout's numbering


@dataclass(frozen=True)
class Plane:
    """One image of a resource: its layout and byte offset in the resource's BO."""
    lay: layout.Layout
    offset_B: int

    @property
    def va_offset_B(self) -> int:
        return self.offset_B


def texture_planes(template: ResourceTemplate, debug) -> tuple[dict[str, "Plane"], int]:
    """The planes (layout and offset) of a texture resource and the bytes they take,
    page-aligned: a pure function of the template and the device's debug flags, so two
    device files given the same template lay the memory out alike (a dma-buf's or a
    memory object's importer and its exporter)."""
    t = template
    samples = max(1, t.nr_samples)
    planes: dict[str, Plane] = {}
    name = layout_format(t.format)
    layers = t.array_size
    mipmapped_z = t.target == T.TEXTURE_3D
    if mipmapped_z:
        layers = t.depth_px
    height = 1 if t.target in (T.TEXTURE_1D, T.TEXTURE_1D_ARRAY) else t.height_px
    tiling = "linear" if t.bind & PipeBind.LINEAR and t.last_level == 0 and samples == 1 else "twiddled"
    renderable = bool(t.bind & (PipeBind.RENDER_TARGET | PipeBind.DEPTH_STENCIL))
    offset = 0
    formats = {}
    if name in DEPTH_PLANE:
        depth_fmt, stencil = DEPTH_PLANE[name]
        if depth_fmt:
            formats["depth"] = depth_fmt
        if stencil:
            formats["stencil"] = "S8_UINT"
    else:
        formats["color"] = name
    for plane, fmt in formats.items():
        plane_tiling = tiling
        # render targets use twiddled_compressed layouts when format and size allow
        # (SHIMGL_DEBUG=nocompress turns it off). Single-layer images only: the PBE and
        # TEXTURE descriptors have no address of a layer's metadata (Mesa's acceleration
        # buffer), so layer z > 0 would be looked up as a one-layer image starting at
        # the layer, whose metadata falls in the next layer's texels.
        if ("nocompress" not in debug and plane == "color" and tiling == "twiddled" and layers == 1
                and t.bind & PipeBind.RENDER_TARGET
                and not t.bind & (PipeBind.SHADER_IMAGE | PipeBind.SHARED | PipeBind.SCANOUT)
                and layout.can_compress(fmt, t.width_px, height, samples)):
            plane_tiling = "twiddled_compressed"      # render targets are compressed, as ail decides
        lay = layout.make_miptree(t.width_px, height, layers, levels=t.last_level + 1, format=fmt,
                                  sample_count_sa=samples, tiling=plane_tiling, mipmapped_z=mipmapped_z,
                                  renderable=renderable,
                                  writeable_image=bool(t.bind & PipeBind.SHADER_IMAGE))
        planes[plane] = Plane(lay, offset)
        offset = -(-(offset + lay.size_B) // layout.PAGE_B) * layout.PAGE_B
    return planes, offset


class AgxResource(PipeResource):
    """A buffer (bytes at ``bo.va``) or a texture (one or two planes in ``bo``).

    Hazard tracking (filled by the context): ``writer`` is the unsubmitted batch
    writing it, ``readers`` the unsubmitted batches reading it, ``write_sync`` /
    ``read_syncs`` the syncobjs of submitted work that wrote / read it."""

    def __init__(self, device: Device, template: ResourceTemplate, import_fd: int | None = None,
                 user_address: int | None = None, memory: tuple[BO, int] | None = None):
        """``import_fd``: use the memory of a dma-buf (laid out by the same rules) instead of a new BO;
        ``user_address``: a buffer over the process's memory there (``Device.bo_from_user_memory``);
        ``memory``: (BO, offset) - the resource lives in that BO from that page-aligned offset
        (``AgxScreen.resource_from_memobj``; the caller checked that it fits)."""
        super().__init__(template)
        self.device = device
        t = template
        self.writer = None
        self.readers: set = set()
        self.write_sync: int | None = None
        self._cpu_writes = 0            # write_region calls (see _solid_look)
        self._solid_seen: dict = {}     # (level, layer) -> (what its bytes depend on, solid_value)
        self._solid_fills: dict = {}    # a region read as one value -> _remember_fill's record
        self._kept: dict = {}           # (level, layer) -> (content state, detiled level or None): _kept_level
        # only the driver writes it: not a dma-buf's, a memory object's or the process's memory
        self._own_memory = import_fd is None and memory is None and user_address is None
        self.read_syncs: set[int] = set()
        self.persistent_maps = 0        # live MAP_PERSISTENT transfers of a buffer (never shadowed then)
        self.shadowed_B = 0             # bytes copied by shadowing since the GPU last left it idle
        self.planes: dict[str, Plane] = {}
        self.samples = max(1, t.nr_samples)
        shared = bool(t.bind & (PipeBind.SHARED | PipeBind.SCANOUT))
        if t.is_buffer:
            self.alloc_B = max(t.width_px, 1)
            if memory is not None:
                self.bo: BO = device.bo_view(memory[0], memory[1], self.alloc_B, label="buffer in memory")
            elif user_address is not None:
                self.bo = device.bo_from_user_memory(user_address, t.width_px)
            else:
                self.bo = device.bo_create(max(t.width_px, 1), shared=shared, label="buffer") if import_fd is None \
                    else device.bo_import(import_fd, self.alloc_B)
            return
        name = layout_format(t.format)
        self.planes, offset = texture_planes(t, device.debug)
        self.alloc_B = offset
        if memory is not None:
            self.bo = device.bo_view(memory[0], memory[1], offset, label=f"texture {name} in memory")
        elif import_fd is None:
            self.bo = device.bo_create(offset, shared=shared, label=f"texture {name}")
        else:
            self.bo = device.bo_import(import_fd, offset, label=f"imported {name}")
        if import_fd is None and memory is None:
            mem = self.memory()
            for pl in self.planes.values():
                if pl.lay.tiling == "twiddled_compressed":     # a new image: every tile "uncompressed"
                    layout.clear_metadata(pl.lay, mem[pl.offset_B:pl.offset_B + pl.lay.size_B])

    # -- properties ------------------------------------------------------------
    @property
    def va(self) -> int:
        return self.bo.va

    @property
    def lay(self) -> layout.Layout:
        """The layout of the colour (or depth, else stencil) plane."""
        for k in ("color", "depth", "stencil"):
            if k in self.planes:
                return self.planes[k].lay
        raise AssertionError("buffers have no layout")

    def level_size_px(self, level: int) -> tuple[int, int, int]:
        t = self.template
        w = max(1, t.width_px >> level)
        h = 1 if t.target in (T.TEXTURE_1D, T.TEXTURE_1D_ARRAY) else max(1, t.height_px >> level)
        d = max(1, t.depth_px >> level) if t.target == T.TEXTURE_3D else t.array_size
        return w, h, d

    def memory(self) -> np.ndarray:
        """The whole BO as a writable uint8 array (no synchronisation)."""
        return np.frombuffer(self.bo.map, np.uint8)

    def destroy(self) -> None:
        """Drop the resource's reference to its BO. An unsubmitted batch that uses the
        resource holds its own reference (``Batch.use``) and still encodes its address
        when it is flushed (a program deleting a framebuffer right after clearing it),
        so the BO stays reachable until no such batch is left."""
        if self.bo is not None and not getattr(self, "_released", False):
            self.bo.release()
            self._released = True
        if self.writer is None and not self.readers:
            self.bo = None

    def decompress(self) -> bool:
        """Mesa's agx_decompress: the colour plane of a compressed render target gets
        the uncompressed twiddled layout of the same image (a target shaders reach as
        an image, a spilled one: images never use compressed layouts), in a new BO
        holding the same texels; batches recorded with the old BO keep it. The caller
        synchronises (no work may still use the old contents). False: nothing to do."""
        pl = self.planes.get("color")
        if pl is None or pl.lay.tiling != "twiddled_compressed" or len(self.planes) != 1:
            return False
        old_lay = pl.lay
        boxes = [(level, self.level_size_px(level)) for level in range(old_lay.levels)
                 if level <= self.template.last_level]
        texels = [(level, w, h, d, self.read_region(level, 0, 0, 0, w, h, d).copy()) for level, (w, h, d) in boxes]
        lay = layout.make_miptree(old_lay.width_px, old_lay.height_px, old_lay.depth_px, levels=old_lay.levels,
                                  format=old_lay.format, sample_count_sa=old_lay.sample_count_sa, tiling="twiddled",
                                  mipmapped_z=old_lay.mipmapped_z, renderable=old_lay.renderable)
        old = self.bo
        size = -(-lay.size_B // layout.PAGE_B) * layout.PAGE_B
        self.bo = self.device.bo_create(size, shared=old.shared, label=old.label)
        self.planes["color"] = Plane(lay, 0)
        self.alloc_B = size
        for level, w, h, d, data in texels:
            self.write_region(level, 0, 0, 0, w, h, d, data)
        old.release()
        return True

    # -- CPU region access (the caller synchronises) ----------------------------
    def _copier(self, w: int, h: int):
        """``layout``'s tile copies in C for a region of w x h pixels (built on first
        use, through the disk cache), or None: numpy copies the same bytes. Regions
        under 64K pixels stay on numpy, so small programs (tests) never compile."""
        if w * h < _NATIVE_COPY_MIN_PX or not _TILE_COPIES.usable():
            return None
        return _TILE_COPIES

    def _content_state(self, pl):
        """What the bytes of plane ``pl`` depend on, compared by ``_unchanged``: the BO
        and layout, the last GPU writer (``write_sync``: every batch that writes the
        resource replaces it) and the CPU writes (``write_region`` counts them). None
        for a shared BO (another device or process may write it)."""
        if self.bo.shared:
            return None
        return self.bo, pl, self.write_sync, self._cpu_writes

    def _unchanged(self, state, pl) -> bool:
        """Whether ``state`` (an earlier ``_content_state`` of ``pl``) still holds: the
        plane's bytes cannot have changed since."""
        if state is None or self.bo.shared:
            return False
        bo, kpl, sync, writes = state
        return bo is self.bo and kpl is pl and sync is self.write_sync and writes == self._cpu_writes

    def _solid_look(self, pl, image, level: int, layer: int) -> dict:
        """``layout.detile``'s ``solid`` argument for a compressed level of the colour
        plane: ``solid_value`` of its bytes, looked at once and remembered while they
        cannot have changed (``_unchanged``). Never for a shared BO. Reading a whole
        fast-cleared level then costs its fill alone, without the look at every tile's
        copies."""
        if level >= pl.lay.compressed_levels or self.bo.shared:
            return {}
        known = self._solid_seen.get((level, layer))
        if known is not None and self._unchanged(known[0], pl):
            return {"solid": known[1]}
        state = self._content_state(pl)
        value = solid_value(pl.lay, image, level, layer)
        if len(self._solid_seen) >= 16:
            self._solid_seen.clear()
        self._solid_seen[(level, layer)] = (state, value)
        return {"solid": value}

    def _kept_level(self, level: int, layer: int):
        """The colour plane's ``level``/``layer`` detiled whole (uint8 (h, w, bytes),
        read-only), once it was read KEEP_AFTER_READS times with the same contents
        (``_unchanged``): a program that reads back pixel by pixel (piglit's probes, one
        glReadPixels each) detiles the level once, each later read is a slice of it.
        The earlier reads under a content state only count (None: the caller detiles
        the region), so a program reading a few pixels after each change pays nothing
        more. Only for plain (1x1-block) single-sampled levels of at most
        KEEP_LEVEL_MAX_B bytes in the resource's own memory (the driver sees every
        write of it)."""
        pl = self.planes.get("color")
        if pl is None or not self._own_memory or self.bo.shared or self.samples != 1 or level >= pl.lay.levels:
            return None
        fmt = layout.get_format(pl.lay.format)
        if fmt.block_width_px != 1 or fmt.block_height_px != 1:
            return None
        w, h = pl.lay.level_width_px(level), pl.lay.level_height_px(level)
        if w * h * fmt.block_size_B > KEEP_LEVEL_MAX_B:
            return None
        key = (level, layer)
        known = self._kept.get(key)
        if known is not None and self._unchanged(known[0], pl):
            state, reads, whole = known
            if whole is not None:
                return whole
            if reads + 1 < KEEP_AFTER_READS:
                self._kept[key] = (state, reads + 1, None)
                return None
            image = self.memory()[pl.offset_B:pl.offset_B + pl.lay.size_B]
            whole = layout.detile(pl.lay, image, level, layer, 0, 0, w, h, native=self._copier(w, h),
                                  **self._solid_look(pl, image, level, layer))
            whole.flags.writeable = False
            self._kept[key] = (state, reads + 1, whole)
            return whole
        if key not in self._kept and len(self._kept) >= KEEP_LEVELS:
            self._kept.clear()
        self._kept[key] = (self._content_state(pl), 1, None)
        return None

    def kept_level(self, level: int, layer: int):
        """The whole level ``_kept_level`` keeps for ``level``/``layer`` while its
        contents are unchanged (a lookup: it counts no read), else None."""
        known = self._kept.get((level, layer))
        pl = self.planes.get("color")
        if known is None or known[2] is None or pl is None or not self._unchanged(known[0], pl):
            return None
        return known[2]

    def _remember_fill(self, pl, level: int, x: int, y: int, z: int, w: int, h: int, value, shape) -> None:
        """Keep what ``detile`` did for a read of a fast-cleared region into a
        client's buffer (a fill of one value), with what ``_solid_look`` keys its
        value by, so the same read again is the fill alone (``_fill_again``)."""
        word = _FILL_WORDS.get(value.size)
        if word is None:
            return
        if len(self._solid_fills) >= 16:
            self._solid_fills.clear()
        self._solid_fills[(level, x, y, z, w, h)] = (
            self._content_state(pl), value.view(word)[0], word,
            shape[0] * shape[1] * shape[2], (1,) + tuple(shape))

    def _fill_again(self, fill, out):
        """The read ``fill`` remembers, into ``out``, while the bytes it saw cannot have
        changed (the same BO, colour plane, last GPU writer and CPU writes: as
        ``_solid_look``) and ``out`` is what ``detile`` takes (a writable C-contiguous
        buffer of exactly the region's bytes); else None: the caller reads afresh."""
        state, value, word, size_B, shape = fill
        if not self._unchanged(state, self.planes.get("color")):
            return None
        if isinstance(out, np.ndarray):
            if out.nbytes != size_B or not out.flags.c_contiguous or not out.flags.writeable:
                return None
            words = out.reshape(-1).view(np.uint8).view(word)
        else:
            try:
                words = np.frombuffer(out, word)
            except ValueError:          # not a whole number of words
                return None
            if words.nbytes != size_B or not words.flags.writeable:
                return None
        words.fill(value)
        return words.view(np.uint8).reshape(shape)

    def read_region(self, level: int, x: int, y: int, z: int, w: int, h: int, d: int,
                    out=None) -> np.ndarray:
        """Texels of a box in the resource's format: uint8 (d, h_el, w_el, bytes).
        ``out``: a writable buffer of exactly the box's bytes to fill instead (one
        layer of a colour image is detiled straight into it); the result views it."""
        if out is not None and d == 1:
            fill = self._solid_fills.get((level, x, y, z, w, h))
            if fill is not None:
                filled = self._fill_again(fill, out)
                if filled is not None:
                    return filled
        if d == 1:
            whole = self._kept_level(level, z)
            if whole is not None and x >= 0 and y >= 0 and x + w <= whole.shape[1] and y + h <= whole.shape[0]:
                part = whole[y:y + h, x:x + w]
                if out is None:
                    return part.copy()[np.newaxis]
                dst = out if isinstance(out, np.ndarray) else np.frombuffer(out, np.uint8)
                if not dst.flags.c_contiguous or not dst.flags.writeable or dst.nbytes != part.nbytes:
                    raise ValueError("the destination must be a writable, C-contiguous buffer of the box's bytes")
                dst = dst.reshape(-1).view(np.uint8).reshape(part.shape)
                dst[...] = part
                return dst[np.newaxis]
        mem = self.memory()
        if out is not None:
            if d == 1 and "color" in self.planes:
                pl = self.planes["color"]
                image = mem[pl.offset_B:pl.offset_B + pl.lay.size_B]
                solid = self._solid_look(pl, image, level, z)
                raw = layout.detile(pl.lay, image, level, z, x, y, w, h, out=out, native=self._copier(w, h),
                                    **solid)
                if solid.get("solid") is not None:
                    self._remember_fill(pl, level, x, y, z, w, h, solid["solid"], raw.shape)
                return raw[np.newaxis]
            got = self.read_region(level, x, y, z, w, h, d)
            dst = out if isinstance(out, np.ndarray) else np.frombuffer(out, np.uint8)
            if not dst.flags.c_contiguous or not dst.flags.writeable:
                raise ValueError("the destination must be a writable, C-contiguous buffer")
            dst = dst.view(np.uint8)
            if dst.size != got.size:
                raise ValueError(f"the destination holds {dst.size} B, the box is {got.size} B")
            dst.reshape(-1)[:] = got.reshape(-1)
            return dst.reshape(got.shape)
        name = layout_format(self.template.format)
        layers = []
        for layer in range(z, z + d):
            if "color" in self.planes:
                pl = self.planes["color"]
                raw = layout.detile(pl.lay, mem[pl.offset_B:pl.offset_B + pl.lay.size_B], level, layer, x, y, w, h,
                                    native=self._copier(w, h))
                layers.append(raw)
                continue
            depth = stencil = None
            if "depth" in self.planes:
                pl = self.planes["depth"]
                depth = layout.detile(pl.lay, mem[pl.offset_B:pl.offset_B + pl.lay.size_B], level, layer,
                                      x, y, w, h)
            if "stencil" in self.planes:
                pl = self.planes["stencil"]
                stencil = layout.detile(pl.lay, mem[pl.offset_B:pl.offset_B + pl.lay.size_B], level, layer,
                                        x, y, w, h)
            layers.append(_pack_zs(name, depth, stencil, h, w, self.samples))
        return layers[0][np.newaxis] if len(layers) == 1 else np.stack(layers)   # one layer: no copy

    def write_region(self, level: int, x: int, y: int, z: int, w: int, h: int, d: int, data: np.ndarray) -> None:
        """Write a box given as uint8 (d, h_el, w_el, bytes) in the resource's format."""
        name = layout_format(self.template.format)
        mem = self.memory()
        data = np.asarray(data, np.uint8)
        self._cpu_writes += 1
        for i, layer in enumerate(range(z, z + d)):
            src = data[i]
            if "color" in self.planes:
                pl = self.planes["color"]
                layout.tile(pl.lay, mem[pl.offset_B:pl.offset_B + pl.lay.size_B], src, level, layer, x, y, w, h,
                            native=self._copier(w, h))
                continue
            depth, stencil = _unpack_zs(name, src, h, w, self.samples)
            for plane, values in (("depth", depth), ("stencil", stencil)):
                if plane in self.planes and values is not None:
                    pl = self.planes[plane]
                    layout.tile(pl.lay, mem[pl.offset_B:pl.offset_B + pl.lay.size_B], values, level, layer,
                                x, y, w, h)

    # -- descriptors --------------------------------------------------------------
    def texture_descriptor(self, *, format: str | None = None, target: PipeTextureTarget | None = None,
                           first_level: int = 0, last_level: int | None = None, first_layer: int = 0,
                           swizzle=(0, 1, 2, 3), plane: str | None = None, layers: int | None = None) -> bytes:
        """A TEXTURE descriptor of a view (``swizzle`` in P.Swizzle values); ``layers``:
        the array layers from ``first_layer`` the view covers (default: to the last;
        a texture view's fewer layers clamp the layer coordinate at its own last)."""
        t = self.template
        target = t.target if target is None else target
        if plane is None:
            plane = "color" if "color" in self.planes else ("depth" if "depth" in self.planes else "stencil")
        pl = self.planes[plane]
        lay = pl.lay
        fmt = format or lay.format
        if plane != "color":
            fmt = lay.format
        hw_target = _TARGETS[target]
        if self.samples > 1:
            hw_target = P.TextureTarget.TEXTURE_2D_MS_ARRAY if t.array_size > 1 else P.TextureTarget.TEXTURE_2D_MS
        depth = lay.depth_px - first_layer if layers is None else min(layers, lay.depth_px - first_layer)
        last = lay.levels - 1 if last_level is None else last_level
        return packed("TEXTURE", target=hw_target, tiling=_TILING[lay.tiling], format_id=format_id(fmt),
                      srgb=layout.get_format(fmt).is_srgb,
                      swizzle_r=swizzle[0], swizzle_g=swizzle[1], swizzle_b=swizzle[2], swizzle_a=swizzle[3],
                      width_px=lay.width_px, height_px=lay.height_px, sample_count=lay.sample_count_sa,
                      depth_px=max(1, depth), levels=lay.levels, first_level=first_level, last_level=last,
                      address=self.va + pl.offset_B + first_layer * lay.layer_stride_B,
                      linear_stride_B=lay.linear_stride_B if lay.tiling == "linear" else 0,
                      layer_stride_B=lay.layer_stride_B if lay.depth_px > 1 else 0)

    def pbe_descriptor(self, level: int, layer: int, format: str | None = None, plane: str = "color") -> bytes:
        """A PBE descriptor storing into (level, layer)."""
        pl = self.planes[plane]
        lay = pl.lay
        fmt = format or lay.format
        return packed("PBE", target=P.TextureTarget.TEXTURE_2D, tiling=_TILING[lay.tiling],
                      format_id=format_id(fmt), srgb=layout.get_format(fmt).is_srgb,
                      sample_count=lay.sample_count_sa, width_px=lay.width_px, height_px=lay.height_px,
                      level=level, levels=lay.levels, layer=layer, address=self.va + pl.offset_B,
                      linear_stride_B=lay.linear_stride_B if lay.tiling == "linear" else 0,
                      layer_stride_B=lay.layer_stride_B if lay.depth_px > 1 else 0)


# ----------------------------------------------------------------------------- packed Z/S conversion

def _pack_zs(name: str, depth, stencil, h: int, w: int, samples: int) -> np.ndarray:
    """Planes (detiled uint8 arrays) -> texels of the packed format, uint8 (h, w, bytes)."""
    n = h * w * samples
    z = None
    if depth is not None:
        z = np.ascontiguousarray(depth).view(np.uint16 if name == "Z16_UNORM" else np.float32).reshape(n)
    s = None if stencil is None else np.ascontiguousarray(stencil).reshape(n).astype(np.uint32)
    if name in ("Z16_UNORM", "Z32_FLOAT"):
        out = z
    elif name == "S8_UINT":
        out = s.astype(np.uint8)
    elif name in ("X24S8_UINT",):
        out = (s << 24).astype(np.uint32)
    elif name in ("S8X24_UINT",):
        out = s.astype(np.uint32)
    elif name == "Z32_UNORM":
        out = np.rint(np.clip(z, 0, 1).astype(np.float64) * 0xFFFFFFFF).astype(np.uint32)
    elif name == "Z32_FLOAT_S8X24_UINT":
        out = np.empty((n, 2), np.uint32)
        out[:, 0] = z.view(np.uint32)
        out[:, 1] = s
    else:   # 24-bit unorm depth in a 32-bit word
        d24 = np.rint(np.clip(z, 0, 1).astype(np.float64) * 0xFFFFFF).astype(np.uint32)
        s8 = np.zeros(n, np.uint32) if s is None else s
        if name in ("Z24_UNORM_S8_UINT", "Z24X8_UNORM"):
            out = d24 | (s8 << 24)
        else:   # S8_UINT_Z24_UNORM, X8Z24_UNORM
            out = (d24 << 8) | s8
    return np.ascontiguousarray(out).view(np.uint8).reshape(h, w, -1)


def _unpack_zs(name: str, src: np.ndarray, h: int, w: int, samples: int):
    """Texels of a packed format -> (depth plane values, stencil plane values)."""
    n = h * w * samples
    raw = np.ascontiguousarray(src).reshape(-1)
    if name == "Z16_UNORM":
        return raw.view(np.uint16), None
    if name == "Z32_FLOAT":
        return raw.view(np.float32), None
    if name == "S8_UINT":
        return None, raw.view(np.uint8)
    if name == "X24S8_UINT":
        return None, (raw.view(np.uint32) >> 24).astype(np.uint8)
    if name == "S8X24_UINT":
        return None, (raw.view(np.uint32) & 0xFF).astype(np.uint8)
    if name == "Z32_FLOAT_S8X24_UINT":
        words = raw.view(np.uint32).reshape(n, 2)
        return words[:, 0].copy().view(np.float32), (words[:, 1] & 0xFF).astype(np.uint8)
    words = raw.view(np.uint32)
    if name == "Z32_UNORM":
        return (words.astype(np.float64) / 0xFFFFFFFF).astype(np.float32), None
    if name in ("Z24_UNORM_S8_UINT", "Z24X8_UNORM"):
        d24, s8 = words & 0xFFFFFF, words >> 24
    else:
        d24, s8 = words >> 8, words & 0xFF
    z = (d24.astype(np.float64) / 0xFFFFFF).astype(np.float32)
    return z, s8.astype(np.uint8) if name in STENCIL_FORMATS else None
