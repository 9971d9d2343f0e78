"""A recording test double of the pipe interface (tests only).

RecordingContext records every call as (method name, arguments) in `calls`
and renders nothing. Buffers and textures are kept as CPU bytearrays so
buffer_subdata / transfer_map / resource_copy_region round-trip data, which
lets front-end tests check what the GL layer wrote without a GPU."""

from __future__ import annotations

import itertools

from driver.gallium import (
    Box, PipeContext, PipeFence, PipeQuery, PipeResource, PipeScreen, ScreenCaps, Transfer,
)

_BPP = {"8": 1, "16": 2, "32": 4}


def _texel_bytes(fmt) -> int:
    """Rough bytes per texel from the format name (enough for the double)."""
    name = fmt.name
    if name.startswith(("Z24", "Z32_FLOAT")) and "S8" in name:
        return 8 if name.startswith("Z32") else 4
    total = 0
    import re
    for bits in re.findall(r"[RGBAXLZSE](\d+)", name):
        total += int(bits)
    return max(1, total // 8)


def _block_bytes(fmt) -> int:
    """Bytes per 4x4 block of a compressed format, else 0."""
    name = fmt.name
    if not name.startswith(("ETC", "RGTC", "DXT")):
        return 0
    eight = ("ETC1_RGB8", "ETC2_RGB8", "ETC2_SRGB8", "ETC2_RGB8A1", "ETC2_SRGB8A1",
             "ETC2_R11_UNORM", "ETC2_R11_SNORM", "RGTC1_UNORM", "RGTC1_SNORM", "DXT1_RGB", "DXT1_RGBA")
    return 8 if name in eight else 16


class RecordingResource(PipeResource):
    def __init__(self, template):
        super().__init__(template)
        t = template
        if t.is_buffer:
            self.storage = bytearray(t.width_px)
        elif _block_bytes(t.format):
            # compressed: each level is rows of 4x4 blocks
            self.block_B = _block_bytes(t.format)
            self.levels = []
            for lvl in range(t.last_level + 1):
                w, h = max(1, t.width_px >> lvl), max(1, t.height_px >> lvl)
                d = max(1, t.depth_px >> lvl) * t.array_size
                bw, bh = -(-w // 4), -(-h // 4)
                self.levels.append((bw, bh, d, bytearray(bw * bh * d * self.block_B)))
        else:
            self.bpp = _texel_bytes(t.format)
            self.levels = []
            for lvl in range(t.last_level + 1):
                w, h = max(1, t.width_px >> lvl), max(1, t.height_px >> lvl)
                d = max(1, t.depth_px >> lvl) * t.array_size
                self.levels.append((w, h, d, bytearray(w * h * d * self.bpp)))


class RecordingFence(PipeFence):
    def __init__(self, seq):
        self.seq = seq


class RecordingScreen(PipeScreen):
    def __init__(self, caps: ScreenCaps | None = None):
        self._caps = caps or ScreenCaps()
        self.resources: list[RecordingResource] = []
        self.destroyed: list[RecordingResource] = []

    @property
    def caps(self):
        return self._caps

    def is_format_supported(self, format, target, sample_count, bind):
        return sample_count in (0,) + self._caps.sample_counts

    def resource_create(self, template):
        r = RecordingResource(template)
        self.resources.append(r)
        return r

    def resource_destroy(self, resource):
        self.destroyed.append(resource)

    def fence_finish(self, fence, timeout_ns):
        return True

    def get_timestamp_ns(self):
        return 1000

    def context_create(self):
        return RecordingContext(self)


class RecordingContext(PipeContext):
    def __init__(self, screen: RecordingScreen):
        self.screen = screen
        self.calls: list[tuple[str, tuple]] = []
        self._handles = itertools.count(1)
        self._fences = itertools.count(1)
        self.query_results: dict[int, int] = {}

    def names(self) -> list[str]:
        return [c[0] for c in self.calls]

    def last(self, name):
        for n, a in reversed(self.calls):
            if n == name:
                return a
        raise AssertionError(f"no call to {name}; calls: {self.names()}")

    def _rec(self, name, *args):
        self.calls.append((name, args))


def _make_recorder(name, returns_handle):
    def method(self, *args):
        self._rec(name, *args)
        if returns_handle:
            return (name, next(self._handles), args[0] if args else None)
        return None
    method.__name__ = name
    return method


for _name in sorted(PipeContext.__abstractmethods__):
    if _name in RecordingContext.__dict__:
        continue
    setattr(RecordingContext, _name, _make_recorder(_name, _name.startswith("create_")))


def _buffer_subdata(self, resource, usage, offset_B, data):
    self._rec("buffer_subdata", resource, usage, offset_B, bytes(data))
    resource.storage[offset_B:offset_B + len(data)] = bytes(data)


def _texture_subdata(self, resource, level, usage, box, data, stride_B, layer_stride_B):
    self._rec("texture_subdata", resource, level, usage, box, bytes(data), stride_B, layer_stride_B)
    if hasattr(resource, "block_B"):
        bw, bh, d, store = resource.levels[level]
        bb = resource.block_B
        rows, cols = -(-box.height // 4), -(-box.width // 4)
        for z in range(box.depth):
            for r in range(rows):
                src = z * layer_stride_B + r * stride_B
                dst = (((box.z + z) * bh + box.y // 4 + r) * bw + box.x // 4) * bb
                store[dst:dst + cols * bb] = bytes(data[src:src + cols * bb])
        return
    w, h, d, store = resource.levels[level]
    bpp = resource.bpp
    for z in range(box.depth):
        for y in range(box.height):
            src = z * layer_stride_B + y * stride_B
            dst = (((box.z + z) * h + box.y + y) * w + box.x) * bpp
            store[dst:dst + box.width * bpp] = bytes(data[src:src + box.width * bpp])


def _transfer_map(self, resource, level, usage, box):
    self._rec("transfer_map", resource, level, usage, box)
    if resource.template.is_buffer:
        view = memoryview(resource.storage)[box.x:box.x + box.width]
        return Transfer(resource, level, usage, box, box.width, box.width, view)
    if hasattr(resource, "block_B"):
        bw, bh, d, store = resource.levels[level]
        bb = resource.block_B
        rows, cols = -(-box.height // 4), -(-box.width // 4)
        out = bytearray()
        for z in range(box.depth):
            for r in range(rows):
                src = (((box.z + z) * bh + box.y // 4 + r) * bw + box.x // 4) * bb
                out += store[src:src + cols * bb]
        return Transfer(resource, level, usage, box, cols * bb, cols * bb * rows, memoryview(out))
    w, h, d, store = resource.levels[level]
    bpp = resource.bpp
    stride = box.width * bpp
    out = bytearray(stride * box.height * box.depth)
    for z in range(box.depth):
        for y in range(box.height):
            src = (((box.z + z) * h + box.y + y) * w + box.x) * bpp
            dst = (z * box.height + y) * stride
            out[dst:dst + stride] = store[src:src + stride]
    return Transfer(resource, level, usage, box, stride, stride * box.height, memoryview(out))


def _transfer_unmap(self, transfer):
    self._rec("transfer_unmap", transfer)
    res = transfer.resource
    if res.template.is_buffer:
        return
    from driver.gallium import PipeMap
    if transfer.usage & PipeMap.WRITE:
        b = transfer.box
        _texture_subdata(self, res, transfer.level, transfer.usage, b, transfer.data,
                         transfer.stride_B, transfer.layer_stride_B)
        self.calls.pop()


def _texture_read(self, resource, level, box, dest):
    self._rec("texture_read", resource, level, box)
    tr = _transfer_map(self, resource, level, 0, box)
    self.calls.pop()
    out = memoryview(dest).cast("B")
    if len(out) != len(tr.data):
        raise ValueError(f"the destination holds {len(out)} B, the box is {len(tr.data)} B")
    out[:] = tr.data


def _resource_copy_region(self, dst, dst_level, dstx, dsty, dstz, src, src_level, src_box):
    self._rec("resource_copy_region", dst, dst_level, dstx, dsty, dstz, src, src_level, src_box)
    if dst.template.is_buffer:
        dst.storage[dstx:dstx + src_box.width] = src.storage[src_box.x:src_box.x + src_box.width]
        return
    tr = _transfer_map(self, src, src_level, 0, src_box)
    self.calls.pop()
    _texture_subdata(self, dst, dst_level, 0, type(src_box)(dstx, dsty, dstz, src_box.width,
                     src_box.height, src_box.depth), tr.data, tr.stride_B, tr.layer_stride_B)
    self.calls.pop()


def _flush(self, flags=0):
    self._rec("flush", flags)
    return RecordingFence(next(self._fences))


def _create_query(self, type, index=0):
    self._rec("create_query", type, index)
    return PipeQuery(type, index)


def _get_query_result(self, query, wait):
    self._rec("get_query_result", query, wait)
    return self.query_results.get(query.type, 0)


def _generate_mipmap(self, *args):
    self._rec("generate_mipmap", *args)
    return True


for _f in (_buffer_subdata, _texture_subdata, _transfer_map, _transfer_unmap, _texture_read,
           _resource_copy_region, _flush, _create_query, _get_query_result, _generate_mipmap):
    setattr(RecordingContext, _f.__name__[1:], _f)
RecordingContext.__abstractmethods__ = frozenset()


def make_pipe(caps: ScreenCaps | None = None):
    screen = RecordingScreen(caps)
    return screen, screen.context_create()


__all__ = ["RecordingContext", "RecordingScreen", "make_pipe", "Box"]
