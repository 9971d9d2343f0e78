"""drmshim.gpu.raster: the geometry and raster units of the software GPU, as pure
numpy building blocks on arrays (no memory access, no command streams).

The pipeline calls them in this order::

    assemble(topology, count | indices)           -> (P, k) vertex ids       (PPP)
    clip_triangles / clip_lines / cull_points      -> ClippedPrims / mask     (PPP)
    viewport_transform(clipped.position, ...)      -> window x, y, z, 1/w     (PPP)
    setup_triangles / setup_lines / setup_points   -> TriangleSetup           (PPP)
    bin_triangles(setup, W, H, ...)                -> TileLists               (tiler)
    rasterize(setup, rect, samples, rows=...)      -> Fragments               (ISP)
    covered_pixels(setup, rect, rows=...)          -> bool image, count       (ISP, coverage only)
    covered_rows(setup, rect, rows=...)            -> row intervals, count    (ISP, a few big triangles)
    rank_layers, depth_stencil, resolve_visibility -> sample masks            (ISP)
    visible_pixels(setup, rect, state, depth, ...) -> visible fragments        (ISP, HSR without fragments)
    barycentrics / point_coords                    -> interpolation weights   (PDM)

Units: ``_px`` pixels, ``_fx`` fixed point 1/256 px, depth in window units.
Enumerations are ints or lower-case names (``constants``).
"""

from .assembly import assemble, provoking_column
from .clip import (ClippedPrims, blend, clip_lines, clip_planes, clip_triangles, cull_points, unclipped_window,
                   vertex_distances)
from .constants import (COMPARE_FUNCS, CULL_MODES, FRONT_FACES, MAX_WINDOW_COORD_PX, SAMPLE_POSITIONS_16THS,
                        STENCIL_OPS, SUBPIXEL_BITS, TOPOLOGIES, sample_positions_fx, sample_positions_px)
from .native_geometry import planes as planes_c
from .isp import (DepthStencilState, RankLayers, StencilFace, compare, depth_stencil, layers_of, rank_layers,
                  resolve_visibility, samples_passed, stencil_op, visible_pixels)
from .rasterize import (Fragments, Scratch, barycentrics, covered_pixels, covered_rows, intersect_rects, point_coords,
                        rasterize)
from .setup import (TriangleSetup, face_and_cull, min_resolvable_depth, polygon_edges, polygon_offset,
                    polygon_vertices, setup_lines, setup_points,
                    setup_triangles, signed_area2_fx, snap_fx, viewport_transform)
from .tiler import TileLists, bin_triangles

__all__ = [
    "assemble", "provoking_column",
    "ClippedPrims", "blend", "clip_lines", "clip_planes", "clip_triangles", "cull_points",
    "unclipped_window", "vertex_distances",
    "COMPARE_FUNCS", "CULL_MODES", "FRONT_FACES", "MAX_WINDOW_COORD_PX", "SAMPLE_POSITIONS_16THS", "STENCIL_OPS",
    "SUBPIXEL_BITS", "TOPOLOGIES", "sample_positions_fx", "sample_positions_px",
    "DepthStencilState", "RankLayers", "StencilFace", "compare", "depth_stencil", "layers_of", "rank_layers",
    "resolve_visibility", "samples_passed", "stencil_op", "visible_pixels",
    "Fragments", "Scratch", "barycentrics", "covered_pixels", "covered_rows", "intersect_rects", "point_coords",
    "rasterize",
    "TriangleSetup", "face_and_cull", "min_resolvable_depth", "polygon_edges", "polygon_offset",
    "polygon_vertices", "setup_lines", "setup_points",
    "setup_triangles", "signed_area2_fx", "snap_fx", "viewport_transform",
    "TileLists", "bin_triangles",
    "planes_c",
]
