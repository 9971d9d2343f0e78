"""GL_APPLE_vertex_array_object (compatibility contexts).

Apple's vertex array objects are the context's vertex array objects under
other rules: glBindVertexArrayAPPLE of an unused name creates the object (no
glGenVertexArraysAPPLE needed; Gen only reserves names), the arrays may be in
client memory, and the binding (VERTEX_ARRAY_BINDING_APPLE, the same state as
VERTEX_ARRAY_BINDING) belongs to the client vertex-array attribute group: a
glPopClientAttrib restores the Apple object that was bound at the push, made
again under its name if it was deleted in between (as binding its name would).
glGen/Delete/IsVertexArraysAPPLE are the registry's aliases of the core
commands (driver.gl.features.aliases): Is answers TRUE only for a bound name.
"""

from __future__ import annotations

import weakref

from driver.gl import enums as E
from driver.gl.compose import extends
from driver.gl.errors import check

__all__ = ["AppleVertexArrayMixin"]


class AppleVertexArrayMixin:
    """glBindVertexArrayAPPLE and the client attribute stack's binding."""

    def _init_family(self) -> None:
        self._apple_vaos = weakref.WeakSet()       # the objects glBindVertexArrayAPPLE made

    def glBindVertexArrayAPPLE(self, array: int) -> None:
        check(self.api.has_extension("GL_APPLE_vertex_array_object"), E.GL_INVALID_OPERATION,
              "GL_APPLE_vertex_array_object is not available")
        if array == 0:
            self.vao = self.default_vao
            return
        created = self.vertex_arrays.get(array) is None
        vao = self.vertex_arrays.get_or_create(array, self.caps.max_vertex_attribs)
        if created:
            self._apple_vaos.add(vao)
        vao.ever_bound = True
        self.vao = vao

    @extends
    def glPushClientAttrib(self, core, mask: int) -> None:
        core(mask)
        if mask & E.GL_CLIENT_VERTEX_ARRAY_BIT:
            self._client_attrib_stack[-1]["apple_binding"] = self.vao

    @extends
    def glPopClientAttrib(self, core) -> None:
        saved = self._client_attrib_stack[-1] if self._client_attrib_stack else {}
        core()
        vao = saved.get("apple_binding")
        if vao is None or (vao is not self.default_vao and vao not in self._apple_vaos):
            return
        if vao is not self.default_vao and self.vertex_arrays.get(vao.name) is not vao:
            if self.vertex_arrays.is_generated(vao.name):       # the name is another object's now
                return
            self.vertex_arrays.objects[vao.name] = vao          # deleted since the push: made again
        self.vao = vao
