"""Draws with tessellation, as passes on the GPU (the GPU has no tessellator; Mesa's
asahi runs the same kind of passes, see compiler/lower/tessellation.py for the two
shader kernels):

1. **vertex pass**: the program's vertex stage over the draw's vertices, its outputs
   captured into vertex records (the geometry stage's vertex pass);
2. **control kernel** (compute): one workgroup of ``vertices`` invocations per
   (patch, instance) runs the tessellation control shader and writes the patch
   record (levels, per-vertex and patch outputs). Without a control shader a
   generated one copies the vertices and writes the default levels
   (glPatchParameterfv);
3. **tessellator, count pass** (compute, one invocation per patch record): the
   number of vertices and indices the patch's levels generate (0 for a discarded
   patch: an outer level <= 0 or NaN), in closed form per job (below);
4. **prefix sum** (compute, one invocation): each patch's first vertex and index,
   the totals, and from them the *launch record*: the evaluation kernel's workgroup
   count, its parameters and the draw's index count (``SCAN_SOURCE``);
5. **tessellator, write pass** (compute, one invocation per (patch record, job)):
   the vertices' (u, v, w) and the primitives' indices (triangles, lines or points)
   following GL 4.6 section 11.2.2. A job is one line of isolines or two polylines
   stitched with triangles (a side of a ring, a row of the quad's grid), so a patch
   at the maximum level (8,192 triangles) spreads over up to 97 invocations;
6. **evaluation kernel** (compute, an indirect dispatch from the launch record: one
   invocation per generated vertex): runs the tessellation evaluation shader, writes
   output records;
7. **rasterisation draw** (indirect, from the launch record): the generated
   primitives through the geometry stage's pass-through vertex program and the
   program's fragment stage.

No pass waits for the GPU: the buffers are sized by what the patches can generate at
most (``patch_bound``: at every level the maximum, gl_MaxTessGenLevel, with a control
stage; the largest default level without one), as Mesa's asahi sizes its tessellation
buffers for the worst case, and the counts the GPU finds drive the later passes
through the launch record. A draw whose worst case exceeds ``RUN_BUDGET_B`` runs steps
3-7 for runs of patches in turn (the primitives keep their order).

The tessellator follows the spec's rules: levels clamped to [1, max] (equal),
[2, max] (fractional even) or [1, max - 1] (fractional odd) and rounded up to an
integer (even, odd); a subdivision of n segments for a level f has, with fractional
spacing, n - 2 segments of length 1/f and two equal shorter ones at its ends
(symmetric, shrinking as n - f grows). Triangles are concentric rings (the inner
triangle of ring r has corners (1 - 2t, t, t) with t = 2/3 of the r-th inner
subdivision point), quads a grid inside an outer ring, isolines ``outer[0]`` lines
(equal spacing) of ``outer[1]`` segments; the area between the outer ring (edges
subdivided by the outer levels) and the first inner ring is stitched with triangles.
Every triangle is wound as the layout says (ccw: counter-clockwise in the (u, v)
plane). In point mode each vertex is one point.

GL_PRIMITIVES_GENERATED counts the primitives the rasterisation draw takes (the
generated ones, or with a geometry stage the ones it emits);
GL_TESS_EVALUATION_SHADER_INVOCATIONS is added up on the GPU by the prefix sum.

A geometry stage after tessellation reads the evaluation records through the
tessellator's indices (``geometry.geometry_passes``), its passes sized by the totals
read back (a wait for the GPU; their buffers and dispatches are sized on the CPU);
transform feedback records the last stage's output (the pipe reads a capturing
indirect draw's count back, a counted fallback); indirect draws read their
parameters back (as the geometry passes do).

Not supported yet (GL_INVALID_OPERATION, a message on stderr once, the draw skipped):
a program without a vertex stage, transform feedback of a program other than the
last stage's, evaluation inputs other than per-vertex arrays without a control
stage. The kernels are lowered from the link's typed AST of each stage, so a stage
may be made of several shader objects; the stages bind the program's uniforms,
uniform and storage blocks, samplers, images and atomic counter buffers.
"""

from __future__ import annotations

import math
import struct
import sys
from dataclasses import dataclass, replace

from driver.gallium import (
    ConstantBuffer, DrawInfo, DrawStartCountBias, GridInfo, IndirectInfo, PipePrim, PipeShaderType, ShaderBuffer,
    ShaderState, StreamOutputTarget,
)
from driver.gl import enums as E
from driver.gl import pipestate as ps
from driver.gl.errors import GLError

__all__ = ["TessellationLink", "link_tessellation", "tessellation_draw", "tessellation_validate",
           "tessellation_program_queries", "run_tessellator", "TESSELLATOR_SOURCE", "SCAN_SOURCE", "MODES",
           "SPACINGS"]

MODES = {"triangles": 0, "quads": 1, "isolines": 2}
SPACINGS = {"equal_spacing": 0, "fractional_even_spacing": 1, "fractional_odd_spacing": 2}
_GL_MODE = {"triangles": E.GL_TRIANGLES, "quads": E.GL_QUADS, "isolines": E.GL_ISOLINES}
_GL_SPACING = {"equal_spacing": E.GL_EQUAL, "fractional_even_spacing": E.GL_FRACTIONAL_EVEN,
               "fractional_odd_spacing": E.GL_FRACTIONAL_ODD}
_GL_ORDER = {"cw": E.GL_CW, "ccw": E.GL_CCW}
_INTERNAL_SLOT = 80         # internal kernels' storage buffers, above the stages' own
# the buffers of one run of the tessellator's passes (generated vertices' coordinates,
# evaluation records, indices) are sized by the most a patch can generate: a draw whose
# worst case exceeds this is tessellated in runs of patches, one after the other
RUN_BUDGET_B = 16 << 20


def _segments_bound(level: float, spacing: str, max_level: float) -> int:
    """The most segments an edge of clamped level <= ``level`` has (GL 4.6 section
    11.2.2: the clamped level rounded up, to an even count for fractional even spacing
    and an odd one for fractional odd), at least 2 (3: fractional odd) as an inner
    level of 1 with other levels above 1 counts as 1 + epsilon."""
    if spacing == "fractional_odd_spacing":
        n = math.ceil(min(max(level, 1.0), max_level - 1.0))
        return max(3, n + (1 - n % 2))
    n = math.ceil(min(max(level, 2.0 if spacing == "fractional_even_spacing" else 1.0), max_level))
    return max(2, n + n % 2 if spacing == "fractional_even_spacing" else n)


def patch_bound(layout, level: float, max_level: float) -> tuple[int, int]:
    """(vertices, indices) that one patch whose levels are all at most ``level`` can
    generate with ``layout`` (a linked TessLayout): the counts of every level at the
    bound, as they grow with each level. With n segments on every edge: quads
    4n + (n - 1)^2 vertices and 2n^2 triangles; triangles 3n vertices on the outer ring,
    3(r - 1)(n - r) on the inner rings (r = n // 2) and the centre (one vertex, or a
    triangle for odd n), and 3((n - 2a) + (n - 2a - 2)) triangles between rings a and
    a + 1; isolines n lines (equal spacing) of n segments. Point mode: an index a vertex."""
    n = _segments_bound(level, layout.spacing, max_level)
    if layout.mode == "isolines":
        lines = _segments_bound(level, "equal_spacing", max_level)
        vertices, indices = lines * (n + 1), lines * n * 2
    elif layout.mode == "quads":
        vertices, indices = 4 * n + (n - 1) ** 2, 3 * 2 * n * n
    else:
        rings = n // 2
        vertices = 3 * n + 3 * (rings - 1) * (n - rings) + (3 if n % 2 else 1)
        triangles = sum(3 * ((n - 2 * a) + (n - 2 * a - 2)) for a in range(rings)) + n % 2
        indices = 3 * triangles
    return vertices, (vertices if layout.point_mode else indices)


def patch_jobs(layout, level: float, max_level: float) -> int:
    """The most jobs (the write pass's invocations) of a patch whose levels are at
    most ``level``: a line of isolines, or two polylines stitched together: each side
    of the quad's outer ring and each row of its inner grid (n + 2), each side of each
    triangle ring and the centre triangle of an odd count (3 (n // 2) + n % 2)."""
    n = _segments_bound(level, layout.spacing, max_level)
    if layout.mode == "isolines":
        return _segments_bound(level, "equal_spacing", max_level)
    if layout.mode == "quads":
        return n + 2
    return 3 * (n // 2) + n % 2

# The tessellator: one invocation per patch record of a run of them. params: 0 patch
# records in the run, 1 mode, 2 spacing, 3 clockwise, 4 point mode, 5 words per patch
# record, 6 max level (float bits), 7 emit (0: count pass, 1: write pass), 8 vertices
# per primitive, 9 the run's first patch record. Counts, offsets, vertices and indices
# are the run's own (numbered from 0); a vertex names its patch record.
TESSELLATOR_SOURCE = """#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Params { uint params[]; };
layout(std430, binding = 1) readonly buffer Patches { float patch_words[]; };
layout(std430, binding = 2) buffer Counts { uint counts[]; };
layout(std430, binding = 3) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 4) writeonly buffer Coords { uint coords[]; };
layout(std430, binding = 5) writeonly buffer Indices { uint indices[]; };

uint g_slot;         // the patch record
uint g_local;        // its place in the run
bool g_emit;
bool g_points;
bool g_cw;
uint g_spacing;
float g_max;
uint g_vbase;
uint g_ibase;
uint g_nidx;
float g_outer[4];   // the levels of ring 0's sides, in the order of the sides
uint g_m[4];        // ring 0's segments per side
uint g_total;       // ring 0's vertices
uint g_n0;          // inner segments (triangles: the only inner level)
uint g_n1;
float g_f0;         // inner clamped levels
float g_f1;

// GL 4.6 section 11.2.2: the clamped level, and the segment count it rounds up to
float clamped(float f, uint sp) {
    if (sp == 1u)
        return clamp(f, 2.0, g_max);
    if (sp == 2u)
        return clamp(f, 1.0, g_max - 1.0);
    return clamp(f, 1.0, g_max);
}
uint segments(float f, uint sp) {
    uint n = uint(ceil(clamped(f, sp)));
    if (sp == 1u && (n & 1u) == 1u)
        n += 1u;
    if (sp == 2u && (n & 1u) == 0u)
        n += 1u;
    return n;
}
// point i of n segments for clamped level f: equal parts, or n - 2 parts of 1/f and
// two shorter equal ones at the ends (fractional spacing)
float position(uint i, uint n, float f) {
    if (i == 0u)
        return 0.0;
    if (i >= n)
        return 1.0;
    if (g_spacing == 0u || float(n) == f)
        return float(i) / float(n);
    float longer = 1.0 / f;
    return 0.5 * (1.0 - float(n - 2u) * longer) + float(i - 1u) * longer;
}

// Polylines, as (kind, a, b): 0 side b of triangle ring a; 1 corner b of triangle
// ring a; 2 side b of the quad's outer ring; 3 side b of the quad's inner ring; 4 row
// a of the quad's inner grid; 5 the quad's top edge (every level 1). Their segment
// counts, and point j as (u, v, w, vertex number).
uint polyline_segments(uint kind, uint a, uint b) {
    if (kind == 0u)
        return a == 0u ? g_m[b] : g_n0 - 2u * a;
    if (kind == 1u)
        return 0u;
    if (kind == 2u)
        return g_m[b];
    if (kind == 3u)
        return (b & 1u) == 0u ? g_n0 - 2u : g_n1 - 2u;
    return kind == 4u ? g_n0 - 2u : 1u;
}
vec3 tri_corner(uint c) {
    return c == 0u ? vec3(1.0, 0.0, 0.0) : c == 1u ? vec3(0.0, 1.0, 0.0) : vec3(0.0, 0.0, 1.0);
}
vec2 quad_corner(uint c) {
    return vec2(c == 1u || c == 2u ? 1.0 : 0.0, c >= 2u ? 1.0 : 0.0);
}
vec4 polyline_point(uint kind, uint a, uint b, uint j) {
    if (kind == 1u) {
        kind = 0u;
        j = 0u;
    }
    uint m = polyline_segments(kind, a, b);
    bool side = kind == 0u || kind == 2u;
    // the grid point (i, k) of kinds 3-5 (points (x_i, y_k), 1 <= i <= n0 - 1, 1 <= k <= n1 - 1)
    uint i = 1u + j;
    uint k = kind == 4u ? a : 1u;
    if (kind == 3u && b == 1u) {
        i = g_n0 - 1u;
        k = 1u + j;
    } else if (kind == 3u && b == 2u) {
        i = g_n0 - 1u - j;
        k = g_n1 - 1u;
    } else if (kind == 3u && b == 3u) {
        i = 1u;
        k = g_n1 - 1u - j;
    }
    // at most two subdivision points: x along a side (or the grid's x), y the ring's
    // offset (or the grid's y)
    bool outer = side && a == 0u;
    float x = position(side ? (outer ? j : a + j) : i, outer ? m : g_n0,
                       outer ? clamped(g_outer[b], g_spacing) : g_f0);
    float y = position(side ? a : k, side ? g_n0 : g_n1, side ? g_f0 : g_f1);
    if (kind == 5u)
        return vec4(float(j), 1.0, 0.0, j == 0u ? 3.0 : 2.0);
    if (!side)
        return vec4(x, y, 0.0, float(g_total + (k - 1u) * (g_n0 - 1u) + (i - 1u)));
    uint sides = kind == 0u ? 3u : 4u;
    uint s = j == m ? (b + 1u) % sides : b;
    uint jj = j == m ? 0u : j;
    uint index;
    if (a == 0u) {              // ring 0: the sides' own subdivisions
        index = (s > 0u ? g_m[0] : 0u) + (s > 1u ? g_m[1] : 0u) + (s > 2u ? g_m[2] : 0u) + jj;
    } else {                    // inner triangle ring a: 3 (n - 2a) vertices (1: the centre)
        uint own = g_n0 - 2u * a;
        index = g_total + 3u * (a - 1u) * (g_n0 - a) + s * own + (own == 0u ? 0u : jj);
    }
    vec3 p0;
    vec3 p1;
    if (kind == 2u) {
        p0 = vec3(quad_corner(b), 0.0);
        p1 = vec3(quad_corner((b + 1u) % 4u), 0.0);
    } else {
        // ring a's corners: (1 - 3t) corner + t (1, 1, 1), t = 2/3 of the a-th inner point;
        // its sides subdivided where the previous ring's points project (symmetric: hi = 1 - lo)
        float t = a == 0u ? 0.0 : y * (2.0 / 3.0);
        p0 = (1.0 - 3.0 * t) * tri_corner(b) + vec3(t);
        p1 = (1.0 - 3.0 * t) * tri_corner((b + 1u) % 3u) + vec3(t);
        if (a != 0u)
            x = 1.0 - 2.0 * y > 0.0 ? (x - y) / (1.0 - 2.0 * y) : 0.0;
    }
    return vec4(mix(p0, p1, x), float(index));
}

void put_vertex(vec4 p) {
    if (g_emit) {
        uint at = (g_vbase + uint(p.w)) * 4u;
        coords[at] = floatBitsToUint(p.x);
        coords[at + 1u] = floatBitsToUint(p.y);
        coords[at + 2u] = floatBitsToUint(p.z);
        coords[at + 3u] = g_slot;
    }
}
void put_primitive(uint count, vec4 a, vec4 b, vec4 c) {
    if (g_emit) {
        put_vertex(a);
        put_vertex(b);
        if (count == 3u) {
            put_vertex(c);
            float area = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
            if (g_cw ? area > 0.0 : area < 0.0) {
                vec4 t = b;
                b = c;
                c = t;
            }
        }
        if (!g_points) {
            indices[g_ibase + g_nidx] = g_vbase + uint(a.w);
            indices[g_ibase + g_nidx + 1u] = g_vbase + uint(b.w);
            if (count == 3u)
                indices[g_ibase + g_nidx + 2u] = g_vbase + uint(c.w);
        }
    }
    g_nidx += count;
}

// the triangles between two polylines running the same way: (m + q) of them; one new
// point a step (steps 0 and 1 find the first points of each)
void stitch(uvec3 outer, uvec3 inner) {
    uint m = polyline_segments(outer.x, outer.y, outer.z);
    uint q = polyline_segments(inner.x, inner.y, inner.z);
    uint j = 0u;
    uint k = 0u;
    vec4 a = vec4(0.0);
    vec4 c = vec4(0.0);
    for (uint step = 0u; step < m + q + 2u; step++) {
        bool along_outer = step == 0u || (step > 1u && (k == q || (j < m && (j + 1u) * q <= (k + 1u) * m)));
        uvec3 poly = along_outer ? outer : inner;
        uint at = step < 2u ? 0u : along_outer ? j + 1u : k + 1u;
        vec4 p = polyline_point(poly.x, poly.y, poly.z, at);
        if (step == 0u) {
            a = p;
        } else if (step == 1u) {
            c = p;
        } else {
            put_primitive(3u, a, p, c);
            if (along_outer) {
                a = p;
                j++;
            } else {
                c = p;
                k++;
            }
        }
    }
}

// The patch's levels: whether it is kept, its vertex count and its jobs (the polylines
// stitched together, or isolines' lines), the globals above set for them
uint g_mode;
bool g_ones;
uint g_rings;
uint g_lines;           // isolines
uint g_line_segments;
float g_line_level;
uint g_nverts;
uint setup(uint at) {
    float o0 = patch_words[at];
    float o1 = patch_words[at + 1u];
    float o2 = patch_words[at + 2u];
    float o3 = patch_words[at + 3u];
    float i0 = patch_words[at + 4u];
    float i1 = patch_words[at + 5u];
    uint mode = g_mode;
    // discarded patches (GL 4.6 section 11.2.2): an outer level that matters <= 0 or NaN
    bool keep = mode == 2u ? (o0 > 0.0 && o1 > 0.0)
              : mode == 1u ? (o0 > 0.0 && o1 > 0.0 && o2 > 0.0 && o3 > 0.0)
              : (o0 > 0.0 && o1 > 0.0 && o2 > 0.0);
    g_nverts = 0u;
    if (!keep)
        return 0u;
    if (mode == 2u) {
        // isolines: outer[0] lines (always equal spacing) at v = l / lines, of outer[1] segments
        uint lines = segments(o0, 0u);
        g_lines = lines;
        g_line_segments = segments(o1, g_spacing);
        g_line_level = clamped(o1, g_spacing);
        g_nverts = lines * (g_line_segments + 1u);
        return lines;
    }
    bool quads = mode == 1u;
    // ring 0's sides: triangles (corner 0 -> 1: w = 0, 1 -> 2: u = 0, 2 -> 0: v = 0);
    // quads counter-clockwise from (0, 0) (v = 0, u = 1, v = 1, u = 0)
    g_outer[0] = quads ? o1 : o2;
    g_outer[1] = quads ? o2 : o0;
    g_outer[2] = quads ? o3 : o1;
    g_outer[3] = o0;
    uint sides = quads ? 4u : 3u;
    g_total = 0u;
    bool ones = true;
    for (uint s = 0u; s < 4u; s++) {
        g_m[s] = s < sides ? segments(g_outer[s], g_spacing) : 0u;
        g_total += g_m[s];
        ones = ones && (s >= sides || g_m[s] == 1u);
    }
    g_n0 = segments(i0, g_spacing);
    g_f0 = clamped(i0, g_spacing);
    g_n1 = quads ? segments(i1, g_spacing) : 1u;
    g_f1 = clamped(i1, g_spacing);
    ones = ones && g_n0 == 1u && g_n1 == 1u;
    if (!ones && g_n0 == 1u) {          // treated as 1 + epsilon
        g_n0 = g_spacing == 2u ? 3u : 2u;
        g_f0 = 1.0;
    }
    if (!ones && quads && g_n1 == 1u) {
        g_n1 = g_spacing == 2u ? 3u : 2u;
        g_f1 = 1.0;
    }
    g_ones = ones;
    g_rings = g_n0 / 2u;                // triangles: inner rings 1..rings
    if (ones)
        g_nverts = quads ? 4u : 3u;
    else if (quads)
        g_nverts = g_total + (g_n0 - 1u) * (g_n1 - 1u);
    else
        g_nverts = g_total + 3u * (g_rings - 1u) * (g_n0 - g_rings) + (g_n0 - 2u * g_rings > 0u ? 3u : 1u);
    if (ones)
        return 1u;
    if (quads)
        return 4u + g_n1 - 2u;
    return 3u * g_rings + (g_n0 & 1u);
}

// job's polylines (triangles and quads)
void job_polylines(uint job, out uvec3 outer, out uvec3 inner) {
    bool quads = g_mode == 1u;
    if (g_ones && quads) {
        outer = uvec3(2u, 0u, 0u);
        inner = uvec3(5u, 0u, 0u);
    } else if (g_ones) {
        outer = uvec3(0u, 0u, 0u);
        inner = uvec3(1u, 0u, 2u);
    } else if (quads && job < 4u) {
        outer = uvec3(2u, 0u, job);
        inner = uvec3(3u, 0u, job);
    } else if (quads) {
        outer = uvec3(4u, job - 3u, 0u);
        inner = uvec3(4u, job - 2u, 0u);
    } else if (job < 3u * g_rings) {
        outer = uvec3(0u, job / 3u, job % 3u);
        inner = uvec3(0u, job / 3u + 1u, job % 3u);
    } else {                            // the innermost ring of an odd count: one triangle
        outer = uvec3(0u, g_rings, 0u);
        inner = uvec3(1u, g_rings, 2u);
    }
}
// the primitives of a job: a line's segments, or (m + q) triangles of a stitch
uint job_primitives(uint job) {
    if (g_mode == 2u)
        return g_line_segments;
    uvec3 outer;
    uvec3 inner;
    job_polylines(job, outer, inner);
    return polyline_segments(outer.x, outer.y, outer.z) + polyline_segments(inner.x, inner.y, inner.z);
}
void run_job(uint job) {
    if (g_mode == 2u) {
        uint m = g_line_segments;
        float v = float(job) / float(g_lines);
        for (uint i = 0u; i < m; i++) {
            uint first = job * (m + 1u) + i;
            put_primitive(2u, vec4(position(i, m, g_line_level), v, 0.0, float(first)),
                          vec4(position(i + 1u, m, g_line_level), v, 0.0, float(first + 1u)), vec4(0.0));
        }
        return;
    }
    uvec3 outer;
    uvec3 inner;
    job_polylines(job, outer, inner);
    stitch(outer, inner);
}

// count pass: one invocation per patch record; write pass: one per (patch record,
// job), params[14] jobs per record
void main() {
    uint gid = gl_GlobalInvocationID.x;
    g_emit = params[7] != 0u;
    uint per_slot = g_emit ? params[14] : 1u;
    g_local = gid / per_slot;
    uint job = gid % per_slot;
    if (g_local >= params[0])
        return;
    g_slot = params[9] + g_local;
    g_mode = params[1];
    g_spacing = params[2];
    g_cw = params[3] != 0u;
    g_points = params[4] != 0u;
    g_max = uintBitsToFloat(params[6]);
    uint vpp = params[8];
    uint jobs = setup(g_slot * params[5]);
    if (!g_emit) {
        uint primitives = 0u;
        for (uint j = 0u; j < jobs; j++)
            primitives += job_primitives(j);
        counts[2u * g_local] = g_nverts;
        counts[2u * g_local + 1u] = g_points ? g_nverts : primitives * vpp;
        return;
    }
    if (job >= jobs)
        return;
    g_vbase = offsets[2u * g_local];
    g_ibase = offsets[2u * g_local + 1u];
    g_nidx = 0u;
    for (uint j = 0u; j < job; j++)
        g_nidx += job_primitives(j) * vpp;
    run_job(job);
    if (g_points && job == 0u) {            // point mode: every vertex once
        // triangles: the outer ring from corner 1 (0, 1, 0), its u = 0 side first, as
        // Mesa's tessellator emits it (the order is the implementation's; programs that
        // let the last point win, as piglit's atomic counter semantics, see Mesa's)
        bool turn = g_mode == 0u;
        for (uint v = 0u; v < g_nverts; v++)
            indices[g_ibase + v] = g_vbase + (turn && v < g_total ? (v + g_m[0]) % g_total : v);
    }
}
"""

# Exclusive prefix sums of a run's (vertices, indices) counts, their totals, and from
# them what the next passes take on the GPU (no CPU read): ``LAUNCH_WORDS`` words at
# binding 4: the evaluation kernel's workgroups (an indirect dispatch, words 0-2), the
# rasterisation draw (a DrawElementsIndirectCommand, words 4-8) and the evaluation
# kernel's parameters (compiler/lower/tessellation.py's TESS_PARAMS, words 12-19). The
# statistics words: 1 evaluation invocations, 2 compute invocations of the evaluation
# kernel. params (the tessellator's): 0 patch records in the run, 10 the evaluation
# kernel's workgroup size, 11-13 its parameter words 0-2.
SCAN_SOURCE = """#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Params { uint params[]; };
layout(std430, binding = 1) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 2) writeonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 3) buffer Stats { uint stats[]; };
layout(std430, binding = 4) writeonly buffer Launch { uint launch[]; };
void main() {
    uint slots = params[0];
    uint vertices = 0u;
    uint indices = 0u;
    for (uint s = 0u; s < slots; s++) {
        offsets[2u * s] = vertices;
        offsets[2u * s + 1u] = indices;
        vertices += counts[2u * s];
        indices += counts[2u * s + 1u];
    }
    offsets[2u * slots] = vertices;
    offsets[2u * slots + 1u] = indices;
    uint local_size = params[10];
    uint groups = (vertices + local_size - 1u) / local_size;
    launch[0] = groups;
    launch[1] = 1u;
    launch[2] = 1u;
    launch[3] = 0u;
    launch[4] = indices;        // count, instances, first index, base vertex, base instance
    launch[5] = 1u;
    launch[6] = 0u;
    launch[7] = 0u;
    launch[8] = 0u;
    for (uint w = 9u; w < 12u; w++)
        launch[w] = 0u;
    launch[12] = params[11];    // patches per instance, vertex records, first vertex or index
    launch[13] = params[12];
    launch[14] = params[13];
    launch[15] = 0u;
    launch[16] = 0u;
    launch[17] = vertices;      // the evaluation kernel's invocations
    launch[18] = 0u;
    launch[19] = 0u;
    stats[1] += vertices;
    stats[2] += groups * local_size;
}
"""
# the words of the scan's launch record, and where its parts start (bytes)
LAUNCH_WORDS = 20
LAUNCH_DISPATCH_B = 0
LAUNCH_DRAW_B = 16
LAUNCH_EVAL_PARAMS_B = 48


@dataclass(frozen=True)
class TessellationLink:
    """A linked program's tessellation: the control stage's output patch size (None:
    no control stage, the patch is the draw's), the evaluation layout with its
    defaults, the patch record (None without a control stage) and the evaluation
    stage's output records."""
    vertices: int | None
    layout: object              # compiler.glsl.tessellation.TessLayout, linked
    patch: object               # compiler.lower.tessellation.PatchLayout | None
    interface: object           # compiler.lower.geometry.GeometryInterface

    @property
    def output(self) -> str | None:
        if self.layout is None:
            return None
        return "points" if self.layout.point_mode else "line_strip" if self.layout.mode == "isolines" \
            else "triangle_strip"


def _merged_layout(units):
    from compiler.glsl.tessellation import TessLayout
    lay = TessLayout()
    for u in units:
        lay = lay.merge(u.tessellation or TessLayout())
    return lay


def _uniform_components(t) -> int:
    """The default-block components of a uniform of type ``t`` (opaque types take none)."""
    if t.is_array:
        return (t.length or 1) * _uniform_components(t.element)
    if t.is_struct:
        return sum(_uniform_components(f.type) for f in t.fields)
    return 0 if t.is_opaque else t.components


def check_uniform_limits(stage: str, unit, limits: dict) -> None:
    """GL 4.6 section 7.6: a link error when a stage's active default-block uniforms
    take more than MAX_<stage>_UNIFORM_COMPONENTS components or it uses more than
    MAX_<stage>_UNIFORM_BLOCKS uniform blocks (each element of a block array counts)."""
    label = {"tess_control": "TESS_CONTROL", "tess_evaluation": "TESS_EVALUATION"}[stage]
    components, blocks = 0, {}
    for v in unit.globals:
        if v.storage != "uniform" or not getattr(v, "used", True):
            continue
        if v.block is None:
            components += _uniform_components(v.type)
        else:
            blocks[id(v.block)] = v.type.length or 1 if v.type.is_array else 1
    max_components = limits.get(f"GL_MAX_{label}_UNIFORM_COMPONENTS")
    if max_components is not None and components > max_components:
        raise ValueError(f"the {stage.replace('_', ' ')} shader's uniforms take {components} components, more "
                         f"than GL_MAX_{label}_UNIFORM_COMPONENTS ({max_components})")
    max_blocks = limits.get(f"GL_MAX_{label}_UNIFORM_BLOCKS")
    if max_blocks is not None and sum(blocks.values()) > max_blocks:
        raise ValueError(f"the {stage.replace('_', ' ')} shader uses {sum(blocks.values())} uniform blocks, more "
                         f"than GL_MAX_{label}_UNIFORM_BLOCKS ({max_blocks})")


def link_tessellation(units: dict, merged: dict, limits: dict | None = None) -> TessellationLink:
    """GL 4.6 sections 7.3, 11.2: the tessellation stages' layouts and interfaces for a
    link (``units``: stage -> its shader objects' ASTs); with ``limits`` (the context's
    GL limits) the stages' uniform limits are checked too. Raises ValueError with the
    link error's text."""
    from compiler.glsl.geometry import GeometryLayout
    from compiler.lower.geometry import geometry_interface
    from compiler.lower.tessellation import patch_layout
    for stage in ("tess_control", "tess_evaluation"):
        if limits is not None and stage in merged:
            check_uniform_limits(stage, merged[stage]["unit"], limits)
    vertices, patch = None, None
    if "tess_control" in units:
        tcs = _merged_layout(units["tess_control"])
        if tcs.vertices is None:
            raise ValueError("tessellation control shader didn't declare an output patch size "
                             "(layout(vertices = N) out)")
        vertices = tcs.vertices
        patch = patch_layout(merged["tess_control"]["unit"], vertices)
    if "tess_evaluation" not in units:          # a separable control program (a pipeline's)
        return TessellationLink(vertices, None, patch, None)
    tes = _merged_layout(units["tess_evaluation"])
    if tes.mode is None:
        raise ValueError("tessellation evaluation shader didn't declare a primitive mode")
    layout = tes.linked()
    output = "points" if layout.point_mode else "line_strip" if layout.mode == "isolines" else "triangle_strip"
    iface = geometry_interface(merged["tess_evaluation"]["unit"], GeometryLayout("points", output, 1, 1))
    if patch is not None:
        _check_patch_interface(patch, merged["tess_evaluation"])
    return TessellationLink(vertices, layout, patch, iface)


def _check_patch_interface(patch, tes) -> None:
    """Each evaluation input reads a control output of the same type."""
    for v in tes["inputs"]:
        if v.builtin:
            continue
        t = v.type.element if v.type.is_array and not v.patch else v.type
        name = t.name if t.is_block else v.name
        entry = patch.find(name)
        location = (v.layout or {}).get("location")
        if location is not None and not t.is_block:      # both located: matched by location (GL 4.6 7.4.1)
            entry = patch.find_located(location, bool(v.patch), (v.layout or {}).get("component", 0)) or entry
        if entry is None:
            if v.used:
                raise ValueError(f"tessellation evaluation shader input `{v.name}' has no matching output in "
                                 "the tessellation control shader")
            continue
        if (entry.stride_B == 0) != bool(v.patch):
            raise ValueError(f"`{v.name}' is a {'patch' if v.patch else 'per-vertex'} input but the "
                             "tessellation control output is not")
        want = entry.glsl_type
        if t.name != want and not t.is_block:
            raise ValueError(f"`{v.name}' is declared as type `{t.name}' in the tessellation evaluation shader "
                             f"and `{want}' in the tessellation control shader")


def tessellation_program_queries(ctx, prog) -> dict:
    """glGetProgramiv's tessellation parameters (GL 4.6 section 7.13): pname -> value,
    None when the program has no such linked stage (INVALID_OPERATION)."""
    from driver.gl.features.gles_ext import es_has
    if not (ctx.api.gl(4, 0) or es_has(ctx.api, "tessellation_shader")):
        return {}
    ls = prog.linked_state if prog.linked else None
    link = getattr(ls, "tessellation", None) if ls is not None else None
    has_tcs = ls is not None and "tess_control" in ls.units
    has_tes = ls is not None and "tess_evaluation" in ls.units
    tcs_vertices = None
    if has_tcs:
        tcs_vertices = link.vertices if link is not None else ls.units["tess_control"].tessellation.vertices
    tes = None
    if has_tes:
        tes = link.layout if link is not None else ls.units["tess_evaluation"].tessellation.linked()
    return {E.GL_TESS_CONTROL_OUTPUT_VERTICES: tcs_vertices,
            E.GL_TESS_GEN_MODE: tes and _GL_MODE[tes.mode],
            E.GL_TESS_GEN_SPACING: tes and _GL_SPACING[tes.spacing],
            E.GL_TESS_GEN_VERTEX_ORDER: tes and _GL_ORDER[tes.order],
            E.GL_TESS_GEN_POINT_MODE: tes and int(tes.point_mode)}


def tessellation_validate(ctx, stages: dict, mode: int) -> None:
    """GL 4.6 section 10.1.15: GL_PATCHES draws need a tessellation evaluation stage,
    and a program with one draws only patches; a geometry stage after it takes the
    primitive it generates (section 11.3.1)."""
    has_tessellation = PipeShaderType.TESS_EVAL in stages
    gs = stages.get(PipeShaderType.GEOMETRY)
    if has_tessellation and gs is not None:
        link = stages[PipeShaderType.TESS_EVAL].linked_state.tessellation
        want = {"points": "points", "line_strip": "lines", "triangle_strip": "triangles"}[link.output]
        if gs.linked_state.geometry.input != want:
            raise GLError(E.GL_INVALID_OPERATION, f"the geometry shader's input primitive "
                          f"{gs.linked_state.geometry.input} is not the tessellation output ({want})")
    if has_tessellation and mode != E.GL_PATCHES:
        raise GLError(E.GL_INVALID_OPERATION, "a program with tessellation draws only GL_PATCHES")
    if not has_tessellation and mode == E.GL_PATCHES:
        raise GLError(E.GL_INVALID_OPERATION, "GL_PATCHES without a tessellation evaluation stage")


_REPORTED: set = set()


def _unsupported(what: str) -> None:
    msg = f"shimgl: tessellation draw skipped: {what} is not supported yet"
    if msg not in _REPORTED:
        _REPORTED.add(msg)
        print(msg, file=sys.stderr)
    raise GLError(E.GL_INVALID_OPERATION, msg)


# -- kernels ---------------------------------------------------------------------------
class _TessKernel:
    """``ShaderState.ir`` of a tessellation stage lowered to compute for one key: a SPIR-V
    module's stage (``spirv``), the program's linked stage (``unit``, the typed AST the
    link made of the stage's shader objects, which the lowering only reads), or the GLSL
    of a generated stage."""

    def __init__(self, source: str, stage: str, key_name: str, key, version, unit=None, spirv=None):
        self.source, self.stage, self.key_name, self.key, self.version = source, stage, key_name, key, version
        self.unit, self.spirv = unit, spirv

    def front_half(self, key):
        from compiler.compile import front_half, front_half_unit
        from compiler.ir import ShaderKey
        full = (key or ShaderKey.make()).replace(**{self.key_name: self.key})
        if self.spirv is not None:              # a SPIR-V module's stage (compiler.spirv's SpirvShader)
            return self.spirv.front_half(full)
        if self.unit is not None:
            return front_half_unit(self.unit, full)
        return front_half(self.source, self.stage, full)


def _kernel(ctx, prog, stage: str, source: str, key_name: str, key, local_size):
    ls = prog.linked_state
    cache_key = ("tess-kernel", stage, key, source if key_name == "tcs" and "tess_control" not in ls.units else "")
    handle = ls.pipe_shaders.get(cache_key)
    if handle is not None:
        return handle
    linked = ls.stages.get(stage) if not (key_name == "tcs" and stage not in ls.units) else None
    # the linked stage's version: its profile joins the compile key (a compatibility
    # control stage's gl_out[] carries the deprecated outputs: another patch record)
    kernel = _TessKernel(source, stage, key_name, key, getattr(linked.unit, "version", None) if linked else None,
                         linked.unit if linked is not None else None,
                         getattr(ls, "spirv_stages", {}).get(stage) if linked is not None else None)
    info = dict(ctx.pipe_shader_info(ls, stage), local_size=local_size)
    handle = ctx.pipe.create_shader_state(ShaderState(
        PipeShaderType.COMPUTE, kernel, f"{source}\n// {stage} kernel for {key!r}\n", info))
    ls.pipe_shaders[cache_key] = handle
    return handle


def _internal(ctx, name: str, source: str, local_size):
    from driver.gl.geometry import _ctx_cache
    cache = _ctx_cache(ctx).setdefault("tess-shaders", {})
    handle = cache.get(name)
    if handle is None:
        from compiler.glsl import parse
        unit = parse(source, "compute")
        info = {"storage_blocks": {b.block_name: _INTERNAL_SLOT + i for i, b in enumerate(unit.interface_blocks)},
                "uniforms": {}, "local_size": local_size}
        from compiler.link import stage_ir_of
        handle = cache[name] = ctx.pipe.create_shader_state(ShaderState(PipeShaderType.COMPUTE,
                                                                        stage_ir_of(unit, source), source, info))
    return handle


def _passthrough_control_source(tes_unit, patch_vertices: int, outer, inner) -> str:
    """A control stage for programs without one: copies the patch's vertices (the
    evaluation inputs, read from the vertex outputs of the same names) and writes
    the default levels (glPatchParameterfv)."""
    from driver.gl.geometry import _declare
    located = any(v.storage == "in" and not v.builtin and "location" in (v.layout or {}) for v in tes_unit.globals)
    lines = ["#version 440" if located else "#version 400", f"layout(vertices = {patch_vertices}) out;"]
    body = ["gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;",
            "gl_out[gl_InvocationID].gl_PointSize = gl_in[gl_InvocationID].gl_PointSize;"]
    for v in tes_unit.globals:
        if v.storage != "in" or v.builtin:
            continue
        if v.patch or not v.type.is_array or v.type.element.is_block or v.type.element.is_struct:
            _unsupported(f"evaluation input `{v.name}' without a tessellation control shader")
        et = v.type.element.name
        lay = v.layout or {}          # a located input: matched by location on both sides
        q = "".join(f", {k} = {lay[k]}" for k in ("component",) if k in lay)
        q = f"layout(location = {lay['location']}{q}) " if "location" in lay else ""
        lines.append(f"{q}in {_declare(et, 'shimgl_in_' + v.name)}[];")
        lines.append(f"{q}out {_declare(et, v.name)}[];")
        body.append(f"{v.name}[gl_InvocationID] = shimgl_in_{v.name}[gl_InvocationID];")
    for i, value in enumerate(outer):
        body.append(f"gl_TessLevelOuter[{i}] = {_float(value)};")
    for i, value in enumerate(inner):
        body.append(f"gl_TessLevelInner[{i}] = {_float(value)};")
    return "\n".join(lines + ["void main() {"] + ["    " + s for s in body] + ["}", ""])


def _float(value: float) -> str:
    if math.isnan(value):
        return "(0.0 / 0.0)"
    if math.isinf(value):
        return "(1.0 / 0.0)" if value > 0 else "(-1.0 / 0.0)"
    return repr(float(value))


# -- the draw ----------------------------------------------------------------------------
def tessellation_draw(ctx, mode, info, draws, indirect, vertex_range, stages) -> None:
    """One GL_PATCHES draw (``_emit_draw``'s arguments): the passes of the module docstring."""
    from driver.gl.geometry import primitives_not_generated
    if indirect is not None:            # the draws' parameters read back, as the geometry passes do
        from driver.gl.geometry import _resolve_indirect
        for info_k, draw_k, range_k in _resolve_indirect(ctx, info, indirect):
            tessellation_draw(ctx, mode, info_k, [draw_k], None, range_k, stages)
        return
    vs_prog = stages.get(PipeShaderType.VERTEX)
    tes_prog = stages[PipeShaderType.TESS_EVAL]
    xfb = ctx.xfb
    last = stages.get(PipeShaderType.GEOMETRY, tes_prog)
    if xfb.active and not xfb.paused and xfb.program is not last:
        _unsupported("transform feedback with the varyings of a program without the tessellation evaluation stage")
    tcs_prog = stages.get(PipeShaderType.TESS_CTRL)
    if vs_prog is None:
        _unsupported("tessellation without a vertex stage")
    # GL_PRIMITIVES_GENERATED counts the primitives that reach the rasteriser (GL 4.6
    # section 13.3): the rasterisation draw's own, so only the vertex pass's points are
    # taken out (known here: no wait). With a geometry stage, what its passes draw is
    # measured and taken out (the geometry passes add the primitives it emitted).
    with primitives_not_generated(ctx, measure=PipeShaderType.GEOMETRY in stages):
        _tessellation_passes(ctx, info, draws, vertex_range, stages, vs_prog, tes_prog, tcs_prog)


def _tessellation_passes(ctx, info, draws, vertex_range, stages, vs_prog, tes_prog, tcs_prog) -> None:
    from compiler.glsl import parse
    from compiler.lower.tessellation import TES_LOCAL_SIZE_X, TessControlKey, TessEvalKey, patch_layout
    from driver.gl.geometry import (
        _ctx_cache, _gs_buffer, _gs_vertex_capture, _gs_vs_outputs, _stage_source,
    )
    link = tes_prog.linked_state.tessellation
    patch_state = ctx._patch_state()
    pv = patch_state["vertices"]
    d = draws[0]
    patches = d.count // pv
    instances = info.instance_count
    if patches == 0 or instances == 0:
        return
    lo, hi = vertex_range() if callable(vertex_range) else vertex_range
    if info.index_size == 0:
        lo, hi = d.start, d.start + d.count - 1
    records = hi - lo + 1
    # 1. the vertex pass
    vs_outputs = _gs_vs_outputs(vs_prog.linked_state)
    vs_handle, vs_layout, vs_stride = _gs_vertex_capture(ctx, vs_prog, vs_outputs)
    fb = ctx.emit_framebuffer()
    ctx._emit_state(fb, vs_prog)
    s = ctx.state
    ctx.cso.set_rasterizer(replace(
        ps.rasterizer_state(s, ctx.api, fb.samples, 0, ctx.caps.point_size_range, ctx.caps.line_width_range),
        rasterizer_discard=True))
    ctx._emit_program(vs_prog, (PipeShaderType.VERTEX,))
    ctx.pipe.bind_shader_state(PipeShaderType.VERTEX, vs_handle)
    ctx.pipe.bind_shader_state(PipeShaderType.FRAGMENT, None)
    ctx._emit_vertices(vs_prog, (lo, hi), instances)
    vs_out = _gs_buffer(ctx, "tess_vs_out", records * instances * vs_stride * 4)
    ctx.pipe.set_stream_output_targets([StreamOutputTarget(vs_out, 0, vs_out.template.width_px)], [0])
    with ctx.variant_errors():
        ctx.pipe.draw_vbo(DrawInfo(PipePrim.POINTS, start_instance=info.start_instance, instance_count=instances),
                          0, None, [DrawStartCountBias(lo, records)])
    ctx.pipe.set_stream_output_targets([], [])
    # the pipe counts the records as captured points: not what GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
    # counts, nor GL_PRIMITIVES_GENERATED (measured with a geometry stage); a vertex stage
    # without outputs has nothing to capture: the pipe counts nothing then
    if vs_outputs:
        _ctx_cache(ctx)["pass_captured"] = _ctx_cache(ctx).get("pass_captured", 0) + records * instances
    if PipeShaderType.GEOMETRY not in stages:
        _ctx_cache(ctx)["pass_primitives"] = _ctx_cache(ctx).get("pass_primitives", 0) + records * instances
    # 2. the control kernel (the program's, or a generated copy with the default levels)
    if tcs_prog is not None:
        tcs_owner, source = tcs_prog, _stage_source(tcs_prog, E.GL_TESS_CONTROL_SHADER)
        patch = link.patch if link.patch is not None else tcs_prog.linked_state.tessellation.patch
        from compiler.lower.geometry import with_location_aliases
        from driver.gl.geometry import _located_outputs
        key_inputs = with_location_aliases(vs_layout, _located_outputs(vs_prog.linked_state, "vertex"))
    else:
        tcs_owner = tes_prog
        source = _passthrough_control_source(tes_prog.linked_state.units["tess_evaluation"], pv,
                                             patch_state["outer"], patch_state["inner"])
        patch = patch_layout(parse(source, "tess_control"))
        renamed = {n: f"shimgl_in_{n}" if not n.startswith("gl_") else n for n, _off, _locs in vs_layout}
        from compiler.lower.geometry import with_location_aliases
        from driver.gl.geometry import _located_outputs
        key_inputs = with_location_aliases(       # (located inputs of the copy: matched by location)
            tuple((renamed[n], off, locs) for n, off, locs in vs_layout),
            {renamed[n]: loc for n, loc in _located_outputs(vs_prog.linked_state, "vertex").items() if n in renamed})
    slots = patches * instances
    C = PipeShaderType.COMPUTE
    tcs_key = TessControlKey(pv, info.index_size, key_inputs, vs_stride, patch.vertices)
    tcs_handle = _kernel(ctx, tcs_owner, "tess_control", source, "tcs", tcs_key, (patch.vertices, 1, 1))
    params = struct.pack("<8I", patches, records, d.start, d.index_bias & 0xFFFFFFFF, lo & 0xFFFFFFFF, 0, 0, 0)
    p_res, p_off = ctx.uploader.upload(params, alignment_B=16)
    pbuf = ShaderBuffer(p_res, p_off, len(params))

    def whole(r):
        return ShaderBuffer(r, 0, r.template.width_px)
    index_buf = None
    if info.index_size:
        index_buf = whole(info.index_resource) if info.index_resource is not None else None
        if index_buf is None:
            res, off = ctx.uploader.upload(info.index_user_buffer, alignment_B=4)
            index_buf = ShaderBuffer(res, off, len(info.index_user_buffer))
    patches_buf = _gs_buffer(ctx, "tess_patches", slots * patch.size_B)
    _bind_program(ctx, tcs_owner, "tess_control" if tcs_prog is not None else None)
    ctx.pipe.bind_shader_state(C, tcs_handle)
    ctx.pipe.set_shader_buffers(C, 72, [pbuf, whole(vs_out), index_buf, whole(patches_buf)], 0b1000)
    with ctx.variant_errors():
        ctx.pipe.launch_grid(GridInfo((patch.vertices, 1, 1), (patches, instances, 1)))
    cache = _ctx_cache(ctx)             # statistics (geometry.primitives_generated_counters)
    cache["tess_patches"] = cache.get("tess_patches", 0) + slots
    cache["compute_invocations"] = cache.get("compute_invocations", 0) + slots * patch.vertices
    # 3.-7. per run of patch records (all of them unless their worst case exceeds
    # RUN_BUDGET_B): the tessellator, the evaluation kernel, the rasterisation draw
    iface = link.interface
    if tcs_prog is None:                # the default levels bound what a patch generates
        level = max([v for v in (*patch_state["outer"], *patch_state["inner"]) if v == v] + [1.0])
    else:
        level = math.inf
    bound_v, bound_i = patch_bound(link.layout, level, _max_level())
    jobs = patch_jobs(link.layout, level, _max_level())
    per_patch_B = bound_v * (16 + 4 * iface.stride_dw) + bound_i * 4
    run = max(1, min(slots, RUN_BUDGET_B // per_patch_B))
    tes_source = _stage_source(tes_prog, E.GL_TESS_EVALUATION_SHADER)
    tes_handle = _kernel(ctx, tes_prog, "tess_evaluation", tes_source, "tes", TessEvalKey(patch),
                         (TES_LOCAL_SIZE_X, 1, 1))
    for first in range(0, slots, run):
        n = min(run, slots - first)
        _tessellated_run(ctx, link, stages, tes_prog, tes_handle, patches_buf, patch, first, n,
                         (n * bound_v, n * bound_i), jobs, (patches, records, d.start))


def _tessellated_run(ctx, link, stages, tes_prog, tes_handle, patches_buf, patch, first: int, slots: int,
                     bound: tuple[int, int], jobs: int, eval_head: tuple[int, int, int]) -> None:
    """Steps 3-7 for patch records ``first`` .. ``first + slots - 1``, whose vertices and
    indices are at most ``bound``: the counts the tessellator finds size the evaluation
    dispatch and the draw on the GPU (indirect), without a read on the CPU. A geometry
    stage after tessellation takes the totals on the CPU (its passes are sized by them):
    a wait for the GPU."""
    from compiler.lower.tessellation import TES_LOCAL_SIZE_X
    from driver.gl.geometry import _ctx_cache, _gs_buffer
    C = PipeShaderType.COMPUTE

    def whole(r):
        return ShaderBuffer(r, 0, r.template.width_px)
    # 3.-5. the tessellator: count, prefix sum, write (the evaluation kernel's invocations
    # are counted on the GPU, statistics words 1 and 2)
    cache = _ctx_cache(ctx)
    cache["compute_invocations"] = cache.get("compute_invocations", 0) + 64 * -(-slots // 64) + \
        64 * -(-slots * jobs // 64) + 1
    coords, indices, launch = _tessellate(ctx, link.layout, link.output, patches_buf, first, slots, patch.words,
                                          bound, jobs, eval_head)
    # 6. the evaluation kernel, as many invocations as the tessellator generated vertices
    iface = link.interface
    bound_v = bound[0]
    tes_out = _gs_buffer(ctx, "tess_out", (bound_v + 1) * iface.stride_dw * 4)
    _bind_program(ctx, tes_prog, "tess_evaluation")
    ctx.pipe.bind_shader_state(C, tes_handle)
    ctx.pipe.set_shader_buffers(C, 72, [ShaderBuffer(launch, LAUNCH_EVAL_PARAMS_B, 32), None, None,
                                        whole(patches_buf), whole(coords), whole(tes_out)], 0b100000)
    with ctx.variant_errors():
        ctx.pipe.launch_grid(GridInfo((TES_LOCAL_SIZE_X, 1, 1), (0, 0, 0), indirect=launch,
                                      indirect_offset_B=LAUNCH_DISPATCH_B))
    gs_prog = stages.get(PipeShaderType.GEOMETRY)
    if gs_prog is not None:             # the geometry passes read the evaluation output as vertex records
        from driver.gallium import buffer_read
        from compiler.lower.geometry import GeometryKey, with_location_aliases
        from driver.gl.geometry import geometry_passes
        record = struct.unpack(f"<{LAUNCH_WORDS}I", buffer_read(ctx.pipe, launch, 0, 4 * LAUNCH_WORDS))
        total_vertices, total_indices = record[17], record[4]
        if total_vertices == 0 or total_indices == 0:
            return
        vpp = {"points": 1, "line_strip": 2, "triangle_strip": 3}[link.output]
        records_layout = tuple((o.name if not o.block else f"{o.block}.{o.member}", o.offset_dw, o.locations)
                               for o in iface.outputs)
        records_layout = with_location_aliases(records_layout, {o.name: (o.location, max(o.component, 0))
                                                                for o in iface.outputs
                                                                if not o.block and o.location >= 0})
        key = GeometryKey({1: "points", 2: "lines", 3: "triangles"}[vpp], 4, records_layout, iface.stride_dw,
                          distance_stride_dw=4)       # (a distance per location in these records)
        geometry_passes(ctx, gs_prog, stages, key, tes_out, total_indices // vpp, total_vertices, 1,
                        index_info=DrawInfo(PipePrim.TRIANGLES, index_size=4, index_resource=indices))
        return
    # 7. the rasterisation draw (the geometry passes' own: transform feedback captures it),
    # its index count from the launch record
    # (per layer / viewport where the evaluation stage writes gl_Layer / gl_ViewportIndex:
    # ARB_shader_viewport_layer_array)
    from driver.gl.geometry import raster_passes
    capture = ctx.xfb.active and not ctx.xfb.paused
    raster_passes(ctx, tes_prog, stages, iface, tes_out, indices, bound_v, bound[1], capture,
                  indirect=IndirectInfo(launch, LAUNCH_DRAW_B))


def _max_level() -> float:
    from compiler.glsl.builtin_variables import LIMITS
    return float(LIMITS["gl_MaxTessGenLevel"])


def _tessellate(ctx, lay, output: str, patches_buf, first: int, slots: int, words: int, bound: tuple[int, int],
                jobs: int, eval_head: tuple[int, int, int] = (0, 0, 0)):
    """The tessellator's passes over the ``slots`` patch records from ``first`` of
    ``words`` words (levels at words 0-5) in ``patches_buf``, generating at most
    ``bound`` (vertices, indices) with at most ``jobs`` jobs a patch: (coordinate
    buffer, index buffer, launch record buffer, see SCAN_SOURCE). Nothing is read back."""
    from compiler.lower.tessellation import TES_LOCAL_SIZE_X
    from driver.gl.geometry import _gs_buffer, _gs_stats
    C = PipeShaderType.COMPUTE

    def whole(r):
        return ShaderBuffer(r, 0, r.template.width_px)
    vpp = {"points": 1, "line_strip": 2, "triangle_strip": 3}[output]
    max_level = struct.unpack("<I", struct.pack("<f", _max_level()))[0]
    counts = _gs_buffer(ctx, "tess_counts", slots * 8)
    offsets = _gs_buffer(ctx, "tess_offsets", slots * 8 + 8)
    coords = _gs_buffer(ctx, "tess_coords", bound[0] * 16)
    indices = _gs_buffer(ctx, "tess_indices", bound[1] * 4)
    launch = _gs_buffer(ctx, "tess_launch", LAUNCH_WORDS * 4)
    tessellator = _internal(ctx, "tessellator", TESSELLATOR_SOURCE, (64, 1, 1))
    for emit in (0, 1):
        params = struct.pack("<15I", slots, MODES[lay.mode], SPACINGS[lay.spacing], int(lay.order == "cw"),
                             int(lay.point_mode), words, max_level, emit, vpp, first, TES_LOCAL_SIZE_X,
                             *(w & 0xFFFFFFFF for w in eval_head), jobs)
        p_res, p_off = ctx.uploader.upload(params, alignment_B=16)
        pbuf = ShaderBuffer(p_res, p_off, len(params))
        ctx.pipe.bind_shader_state(C, tessellator)
        ctx.pipe.set_shader_buffers(C, _INTERNAL_SLOT, [pbuf, whole(patches_buf), whole(counts), whole(offsets),
                                                        whole(coords), whole(indices)], 0b110100)
        ctx.pipe.launch_grid(GridInfo((64, 1, 1), (-(-slots * (jobs if emit else 1) // 64), 1, 1)))
        if emit:
            break
        ctx.pipe.bind_shader_state(C, _internal(ctx, "tess-scan", SCAN_SOURCE, (1, 1, 1)))
        ctx.pipe.set_shader_buffers(C, _INTERNAL_SLOT, [pbuf, whole(counts), whole(offsets), whole(_gs_stats(ctx)),
                                                        whole(launch)], 0b11100)
        ctx.pipe.launch_grid(GridInfo((1, 1, 1), (1, 1, 1)))
    return coords, indices, launch


def run_tessellator(ctx, layout, levels) -> tuple:
    """The tessellator on the GPU for patches of the given levels (``levels``: one
    (outer0..3, inner0..1) per patch; ``layout`` a linked TessLayout): (coordinates
    as a (vertices, 3) float array, the patch of each vertex, indices as a
    (primitives, vertices per primitive) array of vertex numbers). For tests and
    debugging (the totals are read back); a draw runs the same passes on the control
    kernel's patch records."""
    import numpy as np
    from driver.gallium import ResourceTemplate, buffer_read
    from driver.gallium.defines import PipeBind, PipeFormat, PipeMap, PipeTextureTarget, PipeUsage
    words = 8
    data = np.zeros((len(levels), words), np.float32)
    data[:, :6] = np.asarray(levels, np.float32)
    res = ctx.screen.resource_create(ResourceTemplate(
        PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, max(data.nbytes, 16), bind=PipeBind.SHADER_BUFFER,
        usage=PipeUsage.DEFAULT))
    ctx.pipe.buffer_subdata(res, PipeMap.WRITE, 0, data.tobytes())
    output = "points" if layout.point_mode else "line_strip" if layout.mode == "isolines" else "triangle_strip"
    finite = [v for v in np.asarray(levels, np.float64).ravel() if v == v] + [1.0]
    bound_v, bound_i = patch_bound(layout, max(finite), _max_level())
    coords, indices, launch = _tessellate(ctx, layout, output, res, 0, len(levels), words,
                                          (len(levels) * bound_v, len(levels) * bound_i),
                                          patch_jobs(layout, max(finite), _max_level()))
    record = struct.unpack(f"<{LAUNCH_WORDS}I", buffer_read(ctx.pipe, launch, 0, 4 * LAUNCH_WORDS))
    nv, ni = record[17], record[4]
    vpp = {"points": 1, "line_strip": 2, "triangle_strip": 3}[output]
    if not nv or not ni:
        return np.zeros((0, 3), np.float32), np.zeros(0, np.uint32), np.zeros((0, vpp), np.uint32)
    c = np.frombuffer(buffer_read(ctx.pipe, coords, 0, nv * 16), np.uint32).reshape(nv, 4)
    xyz = c[:, :3].copy().view(np.float32)
    idx = np.frombuffer(buffer_read(ctx.pipe, indices, 0, ni * 4), np.uint32).reshape(-1, vpp)
    return xyz, c[:, 3].copy(), idx


def _bind_program(ctx, prog, stage_name: str | None) -> None:
    """Uniforms, uniform/storage blocks, samplers, images and atomic counter buffers of one
    program stage for a kernel."""
    C = PipeShaderType.COMPUTE
    ls = prog.linked_state
    ctx.pipe.set_constant_buffer(C, 0, ConstantBuffer(None, 0, len(ls.uniform_data), bytes(ls.uniform_data)))
    if ctx.api.compat:
        from driver.gl.compat import STATE_CONSTANT_BUFFER
        block = ctx.state_uniform_bytes()
        ctx.pipe.set_constant_buffer(C, STATE_CONSTANT_BUFFER, ConstantBuffer(None, 0, len(block), block))
    if stage_name is None:
        return
    ctx._emit_blocks(ls, C, stage_name)
    ctx._emit_samplers(ls, C)
    ctx.emit_images(C, ls)
    ctx.emit_shader_buffers(C, ls, stage_name)
