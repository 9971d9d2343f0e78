"""The IR interpreter plus the intrinsics compiler.lower adds (tests, tools).

``tiles``: render target index -> raw ``(components, lanes)`` array (read by
``load_tile``, written by ``store_tile`` under the write mask); ``images``: slot ->
``(load, store, atomic, size)`` callbacks or a numpy array ``[y, x, 4]`` of raw
32-bit texels (2D, no arrays); ``ssbo_sizes``: index -> bytes."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from compiler.ir import Interpreter

__all__ = ["LowerInterpreter"]


@dataclass
class LowerInterpreter(Interpreter):
    tiles: dict = field(default_factory=dict)
    images: dict = field(default_factory=dict)
    ssbo_sizes: dict = field(default_factory=dict)
    vbos: dict = field(default_factory=dict)

    _VBO_FORMATS = {"i32": (np.uint32, None), "f16": (np.float16, None), "i8": (np.uint8, None),
                    "i16": (np.uint16, None), "unorm8": (np.uint8, 255.0), "unorm16": (np.uint16, 65535.0),
                    "snorm8": (np.int8, 127.0), "snorm16": (np.int16, 32767.0)}

    def _intrinsic(self, instr) -> None:
        name, ix = instr.name, instr.indices
        if name == "load_tile":
            data = self.tiles.get(ix["rt"])
            if data is None:
                data = np.zeros((instr.dest.num_components, self.lanes), np.uint32)
            self._set(instr.dest, np.asarray(data)[:instr.dest.num_components])
        elif name == "store_tile":
            v = self._get(instr.srcs[0])
            out = self.tiles.setdefault(ix["rt"], np.zeros((4, self.lanes), np.uint32))
            if v.dtype != np.uint32:
                v = v.astype(np.float16).view(np.uint16).astype(np.uint32) if v.dtype == np.uint16 else v
            for c in range(v.shape[0]):
                if ix["write_mask"] >> c & 1:
                    out[c] = np.where(self.active & self.alive, v[c].astype(np.uint32), out[c])
        elif name in ("image_load", "image_store", "image_atomic", "image_size", "image_samples"):
            img = self.images[ix["image"]]
            if name == "image_samples":             # the interpreter's images are single-sampled
                self._set(instr.dest, np.ones(1, np.uint32))
                return
            if name == "image_size":
                self._set(instr.dest, np.array([img.shape[1], img.shape[0]], np.uint32)[:instr.dest.num_components])
                return
            coord = self._get(instr.srcs[0]).view(np.int32)
            x, y = coord[0], coord[1] if coord.shape[0] > 1 else np.zeros_like(coord[0])
            x = np.clip(x, 0, img.shape[1] - 1)
            y = np.clip(y, 0, img.shape[0] - 1)
            if name == "image_load":
                self._set(instr.dest, img[y, x].T.astype(np.uint32))
            elif name == "image_store":
                v = self._get(instr.srcs[2])
                for lane in np.nonzero(self.active & self.alive)[0]:
                    img[y[lane], x[lane]] = v[:, lane]
            else:
                data = self._get(instr.srcs[2])[0]
                result = np.zeros(self.lanes, np.uint32)
                for lane in np.nonzero(self.active & self.alive)[0]:
                    old = int(img[y[lane], x[lane], 0])
                    d = int(data[lane])
                    new = {"add": (old + d) & 0xFFFFFFFF, "and": old & d, "or": old | d, "xor": old ^ d,
                           "xchg": d, "umin": min(old, d), "umax": max(old, d)}[ix["atomic_op"]]
                    img[y[lane], x[lane], 0] = new
                    result[lane] = old
                self._set(instr.dest, result[None])
        elif name == "load_vbo":
            dtype, scale = self._VBO_FORMATS[ix["format"]]
            buf = np.asarray(self.vbos[ix["buffer"]], np.uint8)
            size = np.dtype(dtype).itemsize
            offs = self._get(instr.srcs[0])[0].astype(np.int64)
            n = instr.dest.num_components
            idx = np.clip(offs[:, None] + np.arange(n * size), 0, len(buf) - 1)
            vals = np.ascontiguousarray(buf[idx]).view(dtype).T          # (n, lanes)
            if scale is not None:
                out = np.maximum(vals.astype(np.float32) / np.float32(scale), -1.0).astype(np.float32).view(np.uint32)
            elif dtype == np.float16:
                out = vals.astype(np.float32).view(np.uint32)
            else:
                out = vals.astype(np.uint32)
            self._set(instr.dest, out)
        elif name == "get_ssbo_size":
            idx = int(self._get(instr.srcs[0])[0, 0])
            size = self.ssbo_sizes.get(idx, len(self.ssbos.get(idx, b"")))
            self._set(instr.dest, np.full((1, self.lanes), size, np.uint32))
        else:
            super()._intrinsic(instr)
