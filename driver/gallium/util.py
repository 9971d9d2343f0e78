"""Helpers built only on the pipe interface (Gallium's util/ kind)."""

from __future__ import annotations

from driver.gallium.context import PipeContext
from driver.gallium.defines import (
    PipeBind, PipeFormat, PipeMap, PipeTexFilter, PipeTextureTarget, PipeUsage,
)
from driver.gallium.screen import PipeScreen
from driver.gallium.state import BlitImage, BlitInfo, Box, PipeResource, ResourceTemplate

__all__ = ["UploadManager", "gen_mipmap_by_blit", "minify", "buffer_read"]


def minify(size_px: int, level: int) -> int:
    """Extent of mip `level` of a dimension of `size_px` (GL 4.6 eq. 8.3)."""
    return max(1, size_px >> level)


def gen_mipmap_by_blit(pipe: PipeContext, res: PipeResource, base_level: int,
                       last_level: int, first_layer: int, last_layer: int, format=None) -> None:
    """Fill each level from the previous one with a linear-filtered blit
    (util_gen_mipmap's fallback), filtering in ``format`` (default: the
    resource's; a texture view's own format). 3D textures are minified in depth too."""
    t = res.template
    format = format or t.format
    is3d = t.target == PipeTextureTarget.TEXTURE_3D
    for level in range(base_level + 1, last_level + 1):
        sw, sh = minify(t.width_px, level - 1), minify(t.height_px, level - 1)
        dw, dh = minify(t.width_px, level), minify(t.height_px, level)
        if is3d:
            src_box = Box(0, 0, 0, sw, sh, minify(t.depth_px, level - 1))
            dst_box = Box(0, 0, 0, dw, dh, minify(t.depth_px, level))
        else:
            n = last_layer - first_layer + 1
            src_box = Box(0, 0, first_layer, sw, sh, n)
            dst_box = Box(0, 0, first_layer, dw, dh, n)
        pipe.blit(BlitInfo(dst=BlitImage(res, level, dst_box, format),
                           src=BlitImage(res, level - 1, src_box, format),
                           filter=PipeTexFilter.LINEAR))


def buffer_read(pipe: PipeContext, res: PipeResource, offset_B: int, size_B: int) -> bytes:
    """Copy bytes out of a buffer resource (waits for the GPU as needed)."""
    tr = pipe.transfer_map(res, 0, PipeMap.READ, Box(offset_B, 0, 0, size_B))
    try:
        return bytes(tr.data[:size_B])
    finally:
        pipe.transfer_unmap(tr)


class UploadManager:
    """Streams small CPU data (client vertex arrays, index data, default
    uniform blocks) into large STREAM buffers (Gallium's u_upload_mgr).
    Each upload returns (resource, offset_B); a new buffer is started when the
    current one is full. Old buffers are released by the caller's reference
    dropping them (the screen destroys them on release)."""

    def __init__(self, screen: PipeScreen, pipe: PipeContext, default_size_B: int = 1 << 20,
                 bind: PipeBind = PipeBind.VERTEX_BUFFER | PipeBind.INDEX_BUFFER
                 | PipeBind.CONSTANT_BUFFER):
        self.screen, self.pipe = screen, pipe
        self.default_size_B = default_size_B
        self.bind = bind
        self._res: PipeResource | None = None
        self._size_B = 0
        self._offset_B = 0
        self._kept: dict = {}          # upload_kept: bytes -> offset_B in the current buffer

    def destroy(self) -> None:
        """Release the current buffer (earlier ones went with their last reference)."""
        if self._res is not None:
            self.screen.resource_destroy(self._res)
            self._res, self._size_B, self._offset_B = None, 0, 0
        self._kept = {}

    def upload(self, data: bytes | memoryview, alignment_B: int = 16) -> tuple[PipeResource, int]:
        n = len(data)
        off = -(-self._offset_B // alignment_B) * alignment_B
        if self._res is None or off + n > self._size_B:
            self._size_B = max(self.default_size_B, n)
            self._res = self.screen.resource_create(ResourceTemplate(
                PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, self._size_B, bind=self.bind,
                usage=PipeUsage.STREAM))
            off = 0
        if off == 0:
            self._kept = {}
        self.pipe.buffer_subdata(self._res, PipeMap.WRITE | PipeMap.UNSYNCHRONIZED, off, data)
        self._offset_B = off + n
        return self._res, off

    def upload_kept(self, data: bytes, alignment_B: int = 16) -> tuple[PipeResource, int]:
        """``upload(data)``, or where the current buffer already holds the same bytes from an
        earlier upload_kept (nothing writes a buffer's bytes twice: the offset only grows),
        for small constants uploaded draw after draw (a disabled attribute's current value)."""
        off = self._kept.get(data)
        if off is not None and off % alignment_B == 0:
            return self._res, off
        res, off = self.upload(data, alignment_B)
        if len(self._kept) >= 256:
            self._kept = {}
        self._kept[bytes(data)] = off
        return res, off

