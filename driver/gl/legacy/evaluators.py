"""Evaluators (GL 2.1 section 5.1): glMap1/glMap2 Bezier maps, glEvalCoord,
glMapGrid, glEvalMesh, glEvalPoint and glGetMap. An evaluation issues the
commands of the enabled maps with the evaluated values (the current
values are not updated) and, with a vertex map enabled, a vertex; the
Bernstein polynomials are evaluated with numpy."""

from __future__ import annotations

from math import comb

import numpy as np

from driver.gl import enums as E
from driver.gl.errors import check, check_enum

__all__ = ["EvaluatorMixin", "MAX_EVAL_ORDER"]

MAX_EVAL_ORDER = 30
# map kind -> components, for MAP1_* and MAP2_* (table 5.1)
_KINDS = {"VERTEX_3": 3, "VERTEX_4": 4, "INDEX": 1, "COLOR_4": 4, "NORMAL": 3,
          "TEXTURE_COORD_1": 1, "TEXTURE_COORD_2": 2, "TEXTURE_COORD_3": 3, "TEXTURE_COORD_4": 4}
_MAP1 = {getattr(E, f"GL_MAP1_{k}"): (k, n) for k, n in _KINDS.items()}
_MAP2 = {getattr(E, f"GL_MAP2_{k}"): (k, n) for k, n in _KINDS.items()}


def _bernstein(order: int, t: float) -> np.ndarray:
    n = order - 1
    i = np.arange(order)
    return np.array([comb(n, k) for k in i], np.float64) * t ** i * (1 - t) ** (n - i)


def _bernstein_derivative(order: int, t: float) -> np.ndarray:
    n = order - 1
    if n == 0:
        return np.zeros(1)
    d = np.zeros(order)
    lower = _bernstein(order - 1, t)
    d[:-1] -= n * lower
    d[1:] += n * lower
    return d


class EvaluatorMixin:
    def _init_family(self) -> None:
        self._maps1: dict = {}
        self._maps2: dict = {}
        self._grid1 = (1, 0.0, 1.0)
        self._grid2 = (1, 0.0, 1.0, 1, 0.0, 1.0)

    # -- maps ------------------------------------------------------------------------------
    def glMap1f(self, target, u1, u2, stride, order, points) -> None:
        check_enum(target, _MAP1)
        _, k = _MAP1[target]
        check(u1 != u2 and stride >= k and 1 <= order <= MAX_EVAL_ORDER, E.GL_INVALID_VALUE, "bad map")
        check(points is not None and not isinstance(points, (int, float)), E.GL_INVALID_VALUE, "no points")
        flat = np.asarray(list(np.asarray(points, np.float64).ravel()), np.float64)
        rows = np.array([flat[i * stride:i * stride + k] for i in range(order)])
        check(rows.shape == (order, k), E.GL_INVALID_VALUE, "too few control points")
        self._maps1[target] = (float(u1), float(u2), order, rows)

    glMap1d = glMap1f

    def glMap2f(self, target, u1, u2, ustride, uorder, v1, v2, vstride, vorder, points) -> None:
        check_enum(target, _MAP2)
        _, k = _MAP2[target]
        check(u1 != u2 and v1 != v2 and ustride >= k and vstride >= k and 1 <= uorder <= MAX_EVAL_ORDER
              and 1 <= vorder <= MAX_EVAL_ORDER, E.GL_INVALID_VALUE, "bad map")
        check(points is not None and not isinstance(points, (int, float)), E.GL_INVALID_VALUE, "no points")
        flat = np.asarray(points, np.float64).ravel()
        net = np.zeros((uorder, vorder, k))
        for i in range(uorder):
            for j in range(vorder):
                off = i * ustride + j * vstride
                check(off + k <= flat.size, E.GL_INVALID_VALUE, "too few control points")
                net[i, j] = flat[off:off + k]
        self._maps2[target] = (float(u1), float(u2), float(v1), float(v2), uorder, vorder, net)

    glMap2d = glMap2f

    def glGetMapfv(self, target, query) -> list[float]:
        check_enum(target, {**_MAP1, **_MAP2})
        check_enum(query, (E.GL_COEFF, E.GL_ORDER, E.GL_DOMAIN))
        if target in _MAP1:
            u1, u2, order, rows = self._maps1.get(target, (0.0, 1.0, 1, np.zeros((1, _MAP1[target][1]))))
            return {E.GL_COEFF: list(rows.ravel()), E.GL_ORDER: [order], E.GL_DOMAIN: [u1, u2]}[query]
        u1, u2, v1, v2, uo, vo, net = self._maps2.get(
            target, (0.0, 1.0, 0.0, 1.0, 1, 1, np.zeros((1, 1, _MAP2[target][1]))))
        return {E.GL_COEFF: list(net.ravel()), E.GL_ORDER: [uo, vo], E.GL_DOMAIN: [u1, u2, v1, v2]}[query]

    glGetMapdv = glGetMapfv

    def glGetMapiv(self, target, query) -> list[int]:
        vals = self.glGetMapfv(target, query)
        return None if vals is None else [int(round(v)) for v in vals]

    # -- evaluation ---------------------------------------------------------------------------
    def _issue(self, values: dict, normal_auto=None) -> None:
        """Emit the vertex of the evaluated maps; colour, normal and texture
        coordinate come from enabled maps, without changing the current values."""
        saved = (self.legacy.current_color, self.legacy.current_normal, self.legacy.current_texcoords[0], self.legacy.index)
        try:
            if "INDEX" in values:
                self.legacy.index = float(values["INDEX"][0])
            if "COLOR_4" in values:
                self.legacy.current_color = tuple(float(v) for v in values["COLOR_4"])
            if normal_auto is not None:
                self.legacy.current_normal = normal_auto
            elif "NORMAL" in values:
                self.legacy.current_normal = tuple(float(v) for v in values["NORMAL"])
            for n in (4, 3, 2, 1):
                if f"TEXTURE_COORD_{n}" in values:
                    tc = [float(v) for v in values[f"TEXTURE_COORD_{n}"]]
                    self.legacy.current_texcoords[0] = tuple(tc + [0.0, 0.0, 1.0][n - 1:])
                    break
            if "VERTEX_4" in values:
                self._emit_vertex(*(float(v) for v in values["VERTEX_4"]))
            elif "VERTEX_3" in values:
                self._emit_vertex(*(float(v) for v in values["VERTEX_3"]), 1.0)
        finally:
            self.legacy.current_color, self.legacy.current_normal, self.legacy.current_texcoords[0], self.legacy.index = saved

    def _eval1(self, u: float) -> None:
        values = {}
        for target, (u1, u2, order, rows) in self._maps1.items():
            if target in self.state.enabled:
                values[_MAP1[target][0]] = _bernstein(order, (u - u1) / (u2 - u1)) @ rows
        self._issue(values)

    def _eval2(self, u: float, v: float) -> None:
        values, normal = {}, None
        for target, (u1, u2, v1, v2, uo, vo, net) in self._maps2.items():
            if target not in self.state.enabled:
                continue
            s, t = (u - u1) / (u2 - u1), (v - v1) / (v2 - v1)
            bu, bv = _bernstein(uo, s), _bernstein(vo, t)
            kind = _MAP2[target][0]
            values[kind] = np.einsum("i,j,ijk->k", bu, bv, net)
            if kind.startswith("VERTEX") and E.GL_AUTO_NORMAL in self.state.enabled:
                du = np.einsum("i,j,ijk->k", _bernstein_derivative(uo, s), bv, net)
                dv = np.einsum("i,j,ijk->k", bu, _bernstein_derivative(vo, t), net)
                if kind == "VERTEX_4":      # derivative of p / w (section 5.1)
                    p, w = values[kind][:3], values[kind][3]
                    du = (du[:3] * w - p * du[3]) / (w * w)
                    dv = (dv[:3] * w - p * dv[3]) / (w * w)
                n = np.cross(du[:3], dv[:3])
                ln = np.linalg.norm(n)
                normal = tuple(float(x) for x in (n / ln if ln else n))
        if normal is not None and "VERTEX_4" not in values and "VERTEX_3" not in values:
            normal = None
        self._issue(values, normal)

    def glEvalCoord1f(self, u) -> None:
        self._eval1(float(u))

    glEvalCoord1d = glEvalCoord1f

    def glEvalCoord1fv(self, v) -> None:
        self.glEvalCoord1f(list(v)[0])

    glEvalCoord1dv = glEvalCoord1fv

    def glEvalCoord2f(self, u, v) -> None:
        self._eval2(float(u), float(v))

    glEvalCoord2d = glEvalCoord2f

    def glEvalCoord2fv(self, v) -> None:
        u, w = list(v)[:2]
        self.glEvalCoord2f(u, w)

    glEvalCoord2dv = glEvalCoord2fv

    # -- grids and meshes -----------------------------------------------------------------------
    def glMapGrid1f(self, un, u1, u2) -> None:
        check(un > 0, E.GL_INVALID_VALUE, "un <= 0")
        self._grid1 = (int(un), float(u1), float(u2))

    glMapGrid1d = glMapGrid1f

    def glMapGrid2f(self, un, u1, u2, vn, v1, v2) -> None:
        check(un > 0 and vn > 0, E.GL_INVALID_VALUE, "un or vn <= 0")
        self._grid2 = (int(un), float(u1), float(u2), int(vn), float(v1), float(v2))

    glMapGrid2d = glMapGrid2f

    def _u(self, i):
        un, u1, u2 = self._grid1
        return u1 + i * (u2 - u1) / un

    def _uv(self, i, j):
        un, u1, u2, vn, v1, v2 = self._grid2
        return u1 + i * (u2 - u1) / un, v1 + j * (v2 - v1) / vn

    def glEvalPoint1(self, i) -> None:
        self._eval1(self._u(i))

    def glEvalPoint2(self, i, j) -> None:
        self._eval2(*self._uv(i, j))

    def glEvalMesh1(self, mode, i1, i2) -> None:
        """Section 5.1: Begin(POINTS or LINE_STRIP); EvalPoint1(i1..i2); End."""
        check_enum(mode, (E.GL_POINT, E.GL_LINE))
        self.glBegin(E.GL_POINTS if mode == E.GL_POINT else E.GL_LINE_STRIP)
        for i in range(i1, i2 + 1):
            self._eval1(self._u(i))
        self.glEnd()

    def glEvalMesh2(self, mode, i1, i2, j1, j2) -> None:
        """FILL: a quad strip per row; LINE: line strips along both directions; POINT: points."""
        check_enum(mode, (E.GL_POINT, E.GL_LINE, E.GL_FILL))
        if mode == E.GL_FILL:
            for j in range(j1, j2):
                self.glBegin(E.GL_QUAD_STRIP)
                for i in range(i1, i2 + 1):
                    self._eval2(*self._uv(i, j))
                    self._eval2(*self._uv(i, j + 1))
                self.glEnd()
        elif mode == E.GL_LINE:
            for j in range(j1, j2 + 1):
                self.glBegin(E.GL_LINE_STRIP)
                for i in range(i1, i2 + 1):
                    self._eval2(*self._uv(i, j))
                self.glEnd()
            for i in range(i1, i2 + 1):
                self.glBegin(E.GL_LINE_STRIP)
                for j in range(j1, j2 + 1):
                    self._eval2(*self._uv(i, j))
                self.glEnd()
        else:
            self.glBegin(E.GL_POINTS)
            for j in range(j1, j2 + 1):
                for i in range(i1, i2 + 1):
                    self._eval2(*self._uv(i, j))
            self.glEnd()
