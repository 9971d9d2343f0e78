"""Compute shaders: invocation ids, shared memory with barriers, SSBO and shared
atomics, images and atomic counters, run on the IR interpreter."""

from __future__ import annotations

import numpy as np

from compiler.compile import front_half
from compiler.ir import Intrinsic, walk_instrs
from compiler.lower import LowerInterpreter

LANES = 16


def run_compute(src, ssbos=None, **kw):
    shader, info = front_half(src, "compute")
    it = LowerInterpreter(lanes=LANES, ssbos=ssbos or {}, **kw)
    it.run(shader)
    return shader, info, it


def test_ids_shared_memory_and_barrier():
    src = """#version 430
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Out { uint data[]; };
shared uint tmp[16];
void main() {
    uint i = gl_LocalInvocationID.x;
    tmp[i] = i * i + gl_WorkGroupID.x + gl_WorkGroupSize.x;
    barrier();
    data[gl_GlobalInvocationID.x] = tmp[15u - i] + gl_LocalInvocationIndex * 1000u;
}"""
    buf = np.zeros(16 * 4, np.uint8)
    shader, info, it = run_compute(src, {0: buf})
    assert info.local_size == (16, 1, 1) and info.shared_size_B == 64 and info.ssbos == {"Out": 0}
    i = np.arange(16)
    np.testing.assert_array_equal(buf.view(np.uint32), (15 - i) ** 2 + 16 + i * 1000)
    barriers = [x.indices for x in walk_instrs(shader.main.body) if isinstance(x, Intrinsic) and x.name == "barrier"]
    assert barriers == [{"execution_scope": "workgroup", "memory_scope": "workgroup"}]


def test_ssbo_and_shared_atomics():
    src = """#version 430
layout(local_size_x = 16) in;
layout(std430, binding = 2) buffer Counters { uint total; int lo; int hi; uint bits; uint swapped; uint old[16]; };
shared uint sh;
void main() {
    uint i = gl_LocalInvocationID.x;
    if (i == 0u) sh = 0u;
    barrier();
    old[i] = atomicAdd(total, i + 1u);
    atomicMin(lo, int(i) - 5);
    atomicMax(hi, int(i) * 3);
    atomicOr(bits, 1u << i);
    atomicCompSwap(swapped, 0u, 100u + i);
    atomicAdd(sh, 2u);
    memoryBarrierShared();
    barrier();
    if (i == 0u) atomicExchange(total, total + sh * 1000u);
}"""
    buf = np.zeros(5 + 16, np.uint32)
    raw = buf.view(np.uint8)
    shader, info, it = run_compute(src, {2: raw})
    words = raw.view(np.uint32)
    assert words[0] == sum(range(1, 17)) + 32 * 1000
    assert words[1:3].view(np.int32).tolist() == [-5, 45]
    assert words[3] == 0xFFFF and words[4] == 100          # lane 0 swaps first
    np.testing.assert_array_equal(words[5:], np.concatenate([[0], np.cumsum(np.arange(1, 16))]))


def test_images_and_atomic_counters():
    src = """#version 430
layout(local_size_x = 4, local_size_y = 1) in;
layout(rgba32f, binding = 0) uniform image2D img;
layout(r32ui, binding = 1) uniform uimage2D counts;
layout(binding = 0, offset = 4) uniform atomic_uint ctr;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 v = imageLoad(img, p);
    imageStore(img, p, v * 2.0 + vec4(imageSize(img), 0.0, 0.0));
    imageAtomicAdd(counts, ivec2(0, 0), 1u);
    uint n = atomicCounterIncrement(ctr);
}"""
    img = np.arange(2 * 16 * 4, dtype=np.float32).reshape(2, 16, 4).view(np.uint32).copy()
    counts = np.zeros((1, 1, 4), np.uint32)
    ab = np.zeros(8, np.uint8)
    shader, info, it = run_compute(src, {32: ab}, images={0: img, 1: counts})
    assert {n: s.slot for n, s in info.images.items()} == {"img": 0, "counts": 1}
    assert (info.atomic_counters["ctr"].binding, info.atomic_counters["ctr"].offset_B) == (0, 4)
    got = img.view(np.float32)[0]
    base = np.arange(16 * 4, dtype=np.float32).reshape(16, 4)
    np.testing.assert_array_equal(got, base * 2 + np.array([16, 2, 0, 0], np.float32))
    assert counts[0, 0, 0] == LANES
    assert ab.view(np.uint32)[1] == LANES


def test_shader_info_lists_the_system_values_read():
    _s, info = front_half("#version 400\nin vec4 c; out vec4 o;\n"
                          "void main() { o = c * float(gl_SampleID) + gl_FragCoord; }\n", "fragment")
    assert info.system_values == {"load_frag_coord", "load_sample_id"}
    _s, info = front_half("#version 430\nlayout(local_size_x = 2) in;\n"
                          "layout(std430, binding = 0) buffer B { uint x[]; };\n"
                          "void main() { x[gl_GlobalInvocationID.x] = gl_WorkGroupID.y; }\n", "compute")
    assert info.system_values == {"load_global_invocation_id", "load_workgroup_id"}


def test_dynamically_indexed_image_arrays():
    src = """#version 430
layout(local_size_x = 4) in;
layout(r32ui, binding = 0) uniform uimage2D imgs[2];
void main() {
    int k = int(gl_LocalInvocationID.x) & 1;
    imageAtomicAdd(imgs[k], ivec2(0, 0), 1u);
    imageStore(imgs[k], ivec2(1, 0), uvec4(7u + uint(k)));
}"""
    a, c = np.zeros((1, 2, 4), np.uint32), np.zeros((1, 2, 4), np.uint32)
    _s, info, it = run_compute(src, images={0: a, 1: c})
    assert info.images["imgs"].count == 2
    assert a[0, 0, 0] == LANES // 2 and c[0, 0, 0] == LANES // 2
    assert a[0, 1, 0] == 7 and c[0, 1, 0] == 8
