"""GL_EXT_vertex_array (compatibility contexts): the array pointers of GL 1.1
as they were first specified, with a ``count`` of the elements the
application promises to have stored (from the first). The arrays are GL
1.1's (``driver/gl/compat.py``, ``legacy/immediate.py``); the count is kept per
vertex array object and array (texture coordinates per client active unit)
and answered by glGet of the ``*_ARRAY_COUNT_EXT`` names; a negative count is
INVALID_VALUE and changes nothing. glArrayElementEXT, glDrawArraysEXT and
glGetPointervEXT are the registry's aliases of the core commands.
"""

from __future__ import annotations

import weakref

from driver.gl import enums as E
from driver.gl.compose import extends
from driver.gl.errors import check
from driver.gl.features import call

__all__ = ["ExtVertexArrayMixin"]

# glGet name -> the array it counts
_COUNT_NAMES = {E.GL_VERTEX_ARRAY_COUNT_EXT: E.GL_VERTEX_ARRAY, E.GL_NORMAL_ARRAY_COUNT_EXT: E.GL_NORMAL_ARRAY,
                E.GL_COLOR_ARRAY_COUNT_EXT: E.GL_COLOR_ARRAY, E.GL_INDEX_ARRAY_COUNT_EXT: E.GL_INDEX_ARRAY,
                E.GL_TEXTURE_COORD_ARRAY_COUNT_EXT: E.GL_TEXTURE_COORD_ARRAY,
                E.GL_EDGE_FLAG_ARRAY_COUNT_EXT: E.GL_EDGE_FLAG_ARRAY}


class ExtVertexArrayMixin:
    """The counted pointer commands and their counts."""

    def _init_family(self) -> None:
        self._ext_array_counts = weakref.WeakKeyDictionary()     # vertex array object -> {key: count}

    def _ext_array_key(self, array: int):
        unit = self.legacy.client_active_texture if array == E.GL_TEXTURE_COORD_ARRAY else 0
        return array, unit

    def _ext_pointer(self, array: int, count: int, core: str, *args) -> None:
        check(self.api.has_extension("GL_EXT_vertex_array"), E.GL_INVALID_OPERATION, "no GL_EXT_vertex_array")
        check(count >= 0, E.GL_INVALID_VALUE, "negative count")
        call(self, core, *args)
        self._ext_array_counts.setdefault(self.vao, {})[self._ext_array_key(array)] = int(count)

    def glVertexPointerEXT(self, size, type, stride, count, pointer) -> None:
        self._ext_pointer(E.GL_VERTEX_ARRAY, count, "glVertexPointer", size, type, stride, pointer)

    def glNormalPointerEXT(self, type, stride, count, pointer) -> None:
        self._ext_pointer(E.GL_NORMAL_ARRAY, count, "glNormalPointer", type, stride, pointer)

    def glColorPointerEXT(self, size, type, stride, count, pointer) -> None:
        self._ext_pointer(E.GL_COLOR_ARRAY, count, "glColorPointer", size, type, stride, pointer)

    def glIndexPointerEXT(self, type, stride, count, pointer) -> None:
        self._ext_pointer(E.GL_INDEX_ARRAY, count, "glIndexPointer", type, stride, pointer)

    def glTexCoordPointerEXT(self, size, type, stride, count, pointer) -> None:
        self._ext_pointer(E.GL_TEXTURE_COORD_ARRAY, count, "glTexCoordPointer", size, type, stride, pointer)

    def glEdgeFlagPointerEXT(self, stride, count, pointer) -> None:
        self._ext_pointer(E.GL_EDGE_FLAG_ARRAY, count, "glEdgeFlagPointer", stride, pointer)

    @extends
    def _legacy_get_entries(self, core) -> dict:
        t = core()
        if self.api.compat and self.api.has_extension("GL_EXT_vertex_array"):
            for pname, array in _COUNT_NAMES.items():
                t[pname] = (lambda c, a=array: c._ext_array_counts.get(c.vao, {}).get(c._ext_array_key(a), 0))
        return t
