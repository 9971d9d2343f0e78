"""Run GLSL through front_half and the IR interpreter (compiler.lower.LowerInterpreter)."""

from __future__ import annotations

import numpy as np

from compiler.compile import front_half
from compiler.ir import validate_shader
from compiler.lower import LowerInterpreter


def f32(a):
    return np.asarray(a, np.float32).view(np.uint32)


def as_f32(raw):
    return np.asarray(raw, np.uint32).view(np.float32)


def as_i32(raw):
    return np.asarray(raw, np.uint32).view(np.int32)


def run_vertex(source: str, attribs: dict, lanes: int, uniforms: dict | None = None, key=None, **kw):
    """Compile a vertex shader, feed attributes by name ((comps, lanes) arrays, float or
    int), upload uniforms by name; returns (outputs by varying name, info, interpreter)."""
    shader, info = front_half(source, "vertex", key)
    validate_shader(shader)
    inputs = {}
    for name, value in attribs.items():
        a = np.asarray(value)
        raw = f32(a) if a.dtype.kind == "f" else a.astype(np.int64).astype(np.uint32)
        raw = raw.reshape(raw.shape[0] if raw.ndim > 1 else 1, -1)
        full = np.zeros((4, lanes), np.uint32)
        full[:raw.shape[0]] = raw
        inputs[f"ATTR{info.attributes[name].location}"] = full
    words = upload_uniforms(info, uniforms or {})
    it = LowerInterpreter(lanes=lanes, inputs=inputs, uniforms=words, **kw)
    it.run(shader)
    outs = {v.name: it.outputs.get(v.slot) for v in info.varyings}
    return outs, info, it


def upload_uniforms(info, values: dict) -> np.ndarray:
    words = np.zeros(max(info.uniform_regs_B // 4, 1) + 64, np.uint32)
    for name, value in values.items():
        slot = info.uniforms[name]
        assert slot.file == "regs", "test helper uploads registers only"
        a = np.asarray(value)
        raw = f32(a) if a.dtype.kind == "f" else a.astype(np.int64).astype(np.uint32)
        if slot.matrix_stride_B:           # a matrix given as [column][row]
            for c, col in enumerate(np.atleast_2d(raw)):
                o = (slot.offset_B + c * slot.matrix_stride_B) // 4
                words[o:o + len(col)] = col
        elif slot.count > 1:
            for i, el in enumerate(raw.reshape(slot.count, -1)):
                o = (slot.offset_B + i * slot.array_stride_B) // 4
                words[o:o + len(el)] = el
        else:
            raw = raw.reshape(-1)
            words[slot.offset_B // 4:slot.offset_B // 4 + len(raw)] = raw
    return words


def run_fragment(source: str, varyings: dict, lanes: int, uniforms: dict | None = None, key=None, **kw):
    """Compile a fragment shader, feed inputs by varying name; returns (tiles, info,
    interpreter) where tiles maps render target -> raw (4, lanes)."""
    shader, info = front_half(source, "fragment", key)
    validate_shader(shader)
    inputs = {}
    for v in info.varyings:
        if v.name in varyings:
            a = np.asarray(varyings[v.name])
            raw = f32(a) if a.dtype.kind == "f" else a.astype(np.int64).astype(np.uint32)
            raw = raw.reshape(raw.shape[0] if raw.ndim > 1 else 1, -1)
            full = np.zeros((4 * v.locations, lanes), np.uint32)
            full[:raw.shape[0]] = raw
            inputs[v.slot] = full
    words = upload_uniforms(info, uniforms or {})
    it = LowerInterpreter(lanes=lanes, inputs=inputs, uniforms=words, **kw)
    it.run(shader)
    return it.tiles, info, it
