"""ZLS: depth/stencil load and store, and the ISP memory that holds them.

Sole responsibility: the depth/stencil buffers of a render command between its
ZLS buffers in memory (``depth``/``stencil`` ``zls_buffer``s, laid out by
``layout`` as ``zls_ctrl``'s ZLS_CONTROL word says: Z32_FLOAT or Z16_UNORM,
S8_UINT; linear, twiddled or compressed) and the ISP's arrays. Unit "ZLS".
"""

from __future__ import annotations

import numpy as np

import layout
import layout.native
from uapi import packets as P
from uapi.native_kernels import Kernels

from ...memory import malformed
from .usc_words import decoded

__all__ = ["IspMemory", "zls_control", "depth_format", "DEPTH_FORMATS", "TILINGS"]

DEPTH_FORMATS = {P.ZFormat.Z32_FLOAT: ("Z32_FLOAT", "float32"), P.ZFormat.Z16_UNORM: ("Z16_UNORM", "unorm16")}
TILINGS = {P.Tiling.LINEAR: "linear", P.Tiling.TWIDDLED: "twiddled",
           P.Tiling.TWIDDLED_COMPRESSED: "twiddled_compressed"}

#: ``layout``'s tile copies in C (``layout.native``: the same bytes as its numpy
#: copies), for depth/stencil planes of at least ``NATIVE_COPY_MIN_PX`` pixels (a
#: 1024 x 1024 Z32 store was a 4 MB numpy scatter, about 4 ms a frame); smaller
#: ones (tests) stay on numpy and compile nothing. ``TILE_COPIES.enabled``: tests.
TILE_COPIES = Kernels(layout.native.SOURCE, layout.native.CDEF)
NATIVE_COPY_MIN_PX = 1 << 16


def zls_control(cmd):
    """The render command's ZLS_CONTROL record (low word of ``zls_ctrl``; decoded once
    per value, shared: read only)."""
    return decoded(P.ZLS_CONTROL, (cmd.zls_ctrl & 0xFFFFFFFF).to_bytes(4, "little"))


def depth_format(cmd) -> tuple[str, str]:
    """(layout format, rasteriser depth format) of ``zls_ctrl``; an unknown format
    is a ZLS fault at the depth buffer."""
    value = zls_control(cmd).depth_format
    if value not in DEPTH_FORMATS:
        raise malformed("ZLS", cmd.depth.base, f"unknown depth format {value} in zls_ctrl")
    return DEPTH_FORMATS[value]


def _tiling(value, buf) -> str:
    if value not in TILINGS:
        raise malformed("ZLS", buf.base, f"unknown tiling {value} in zls_ctrl")
    return TILINGS[value]


class IspMemory:
    """ISP memory of one render command: depth (float32) and stencil (uint8) as
    (H, W, samples) arrays, cleared from ``isp_bgobjdepth``/``isp_bgobjvals`` or
    loaded from the ZLS buffers at the start, stored back at the end when
    ``zls_ctrl`` asks. Kept for the whole command (partial renders included)."""

    def __init__(self, command, W, H, S):
        cmd = command.cmd
        self.command, self.memory, self.cmd = command, command.memory, cmd
        self.W, self.H, self.S = W, H, S
        self.zls = zls_control(cmd)
        self.record_B = max(int(cmd.sample_size_B), 4)
        self._depth = self._stencil = None
        # loads happen at the start of the command (a fault here is the command's)
        if self.zls.depth_load and cmd.depth.base:
            self._depth = self._initial_depth()
        if self.zls.stencil_load and cmd.stencil.base:
            self._stencil = self._initial_stencil()

    # Cleared planes are made on first use: a command that neither tests nor stores
    # them never fills them.
    @property
    def depth(self) -> np.ndarray:
        if self._depth is None:
            self._depth = self._initial_depth()
        return self._depth

    @property
    def stencil(self) -> np.ndarray:
        if self._stencil is None:
            self._stencil = self._initial_stencil()
        return self._stencil

    def _initial_depth(self) -> np.ndarray:
        H, W, S = self.H, self.W, self.S
        depth = np.full((H, W, S), np.uint32(self.cmd.isp_bgobjdepth).view(np.float32), np.float32)
        if self.zls.depth_load and self.cmd.depth.base:
            depth[...] = self._load_depth()
        return depth

    def _initial_stencil(self) -> np.ndarray:
        H, W, S = self.H, self.W, self.S
        stencil = np.full((H, W, S), self.cmd.isp_bgobjvals & 0xFF, np.uint8)
        if self.zls.stencil_load and self.cmd.stencil.base:
            stencil[...] = self._load("stencil", "S8_UINT").reshape(H, W, S)
        return stencil

    def _layout(self, which: str, fmt: str):
        buf = getattr(self.cmd, which)
        tiling = _tiling(self.zls.depth_tiling if which == "depth" else self.zls.stencil_tiling, buf)
        stride = buf.stride if tiling == "linear" else 0
        try:
            return layout.make_miptree(self.W, self.H, format=fmt, sample_count_sa=self.S, tiling=tiling,
                                       linear_stride_B=stride)
        except ValueError as error:     # e.g. a linear stride too small for a row
            raise malformed("ZLS", buf.base, error) from None

    def _copier(self):
        """The tile copies in C for a plane of this size, or None (numpy)."""
        if self.W * self.H < NATIVE_COPY_MIN_PX or not TILE_COPIES.usable():
            return None
        return TILE_COPIES

    def _load(self, which: str, fmt: str) -> np.ndarray:
        lay = self._layout(which, fmt)
        raw = self.memory.read(getattr(self.cmd, which).base, lay.size_B, "ZLS")
        return layout.detile(lay, raw, 0, 0, 0, 0, self.W, self.H, native=self._copier())

    def _load_depth(self) -> np.ndarray:
        fmt = depth_format(self.cmd)[0]
        raw = self._load("depth", fmt)
        if fmt == "Z16_UNORM":
            return (raw.view(np.uint16).astype(np.float32) / 65535.0).reshape(self.H, self.W, self.S)
        return raw.view(np.float32).reshape(self.H, self.W, self.S)

    def store(self) -> None:
        if self.zls.depth_store and self.cmd.depth.base:
            fmt = depth_format(self.cmd)[0]
            data = self.depth if fmt == "Z32_FLOAT" else np.rint(np.clip(self.depth, 0, 1) * 65535).astype(np.uint16)
            self._store("depth", fmt, data)
        if self.zls.stencil_store and self.cmd.stencil.base:
            self._store("stencil", "S8_UINT", self.stencil)

    def _store(self, which: str, fmt: str, data: np.ndarray) -> None:
        lay = self._layout(which, fmt)
        base = getattr(self.cmd, which).base
        if lay.tiling != "twiddled_compressed" and lay.size_B == self.W * self.H * lay.blocksize_B:
            raw = np.empty(lay.size_B, np.uint8)     # the store writes every byte: nothing to read
        else:
            raw = self.memory.read(base, lay.size_B, "ZLS").copy()
        layout.tile(lay, raw, np.ascontiguousarray(data), 0, 0, 0, 0, self.W, self.H, native=self._copier())
        self.memory.write(base, raw, "ZLS")
