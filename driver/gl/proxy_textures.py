"""Proxy textures (GL 4.6 section 8.22, desktop GL in both profiles): glTexImage* on a
GL_PROXY_TEXTURE_* target checks the image as its texture target would without
storing any texel, and the level queries of the proxy target then describe the image
the implementation would have made: every field 0 when it cannot make it (a size past
the limits), else the image's.

Each context has one proxy texture object per proxy target (as Mesa's
``ctx->Texture.ProxyTex``). A call on a proxy target runs the texture target's own
glTexImage* / glGetTexLevelParameter* with that object standing in for the active
unit's binding of the texture target: one set of checks for both, no texel read (the
pixels are not looked at, as the specification says)."""

from __future__ import annotations

import contextlib
import math

from driver.gl import enums as E
from driver.gl.compose import extends
from driver.gl.errors import check
from driver.gl.objects import TexImage, Texture

__all__ = ["ProxyTextureMixin", "PROXY_TARGETS"]

# proxy target -> (the texture target whose checks it takes, the dimensions of its glTexImage)
PROXY_TARGETS = {
    E.GL_PROXY_TEXTURE_1D: (E.GL_TEXTURE_1D, 1),
    E.GL_PROXY_TEXTURE_2D: (E.GL_TEXTURE_2D, 2),
    E.GL_PROXY_TEXTURE_1D_ARRAY: (E.GL_TEXTURE_1D_ARRAY, 2),
    E.GL_PROXY_TEXTURE_RECTANGLE: (E.GL_TEXTURE_RECTANGLE, 2),
    E.GL_PROXY_TEXTURE_CUBE_MAP: (E.GL_TEXTURE_CUBE_MAP, 2),
    E.GL_PROXY_TEXTURE_3D: (E.GL_TEXTURE_3D, 3),
    E.GL_PROXY_TEXTURE_2D_ARRAY: (E.GL_TEXTURE_2D_ARRAY, 3),
    E.GL_PROXY_TEXTURE_CUBE_MAP_ARRAY: (E.GL_TEXTURE_CUBE_MAP_ARRAY, 3),
}


class ProxyTextureMixin:
    def _proxy(self, target: int, dims: int | None = None) -> tuple[int, int] | None:
        """(texture target, dims) when ``target`` is a proxy target of this context
        (its texture target exists here; of ``dims`` dimensions when given), else None."""
        entry = PROXY_TARGETS.get(target)
        if entry is None or self.api.es or (dims is not None and entry[1] != dims):
            return None
        from driver.gl.textures import texture_targets
        return entry if entry[0] in texture_targets(self.api) else None

    def _proxy_object(self, target: int) -> Texture:
        objects = self.__dict__.setdefault("_proxy_textures", {})
        tex = objects.get(target)
        if tex is None:
            tex = objects[target] = Texture(0, PROXY_TARGETS[target][0])
        return tex

    @contextlib.contextmanager
    def _standing_in(self, proxy_target: int):
        """The proxy object bound to its texture target on the active unit meanwhile."""
        tex_target = PROXY_TARGETS[proxy_target][0]
        unit = self.texture_units[self.active_texture]
        saved = unit.get(tex_target)
        unit[tex_target] = self._proxy_object(proxy_target)
        try:
            yield tex_target
        finally:
            if saved is None:
                unit.pop(tex_target, None)
            else:
                unit[tex_target] = saved

    def _proxy_image(self, core, dims, target, level, internalformat, width, height, depth, args) -> None:
        tex_target = PROXY_TARGETS[target][0]
        image_target = E.GL_TEXTURE_CUBE_MAP_POSITIVE_X if tex_target == E.GL_TEXTURE_CUBE_MAP else tex_target
        tex = self._proxy_object(target)
        max_size = self._max_size(image_target)
        # a level past the target's levels is an error, proxy or not (GL 4.6 section 8.5: level
        # greater than log2 of the maximum size; a rectangle has one level), as on Mesa
        top = 0 if tex_target == E.GL_TEXTURE_RECTANGLE else int(math.log2(max_size))
        check(0 <= level <= top, E.GL_INVALID_VALUE, f"level {level} outside 0..{top}")
        if not self._fits_level(tex_target, level, width, height, depth, max_size):
            # an image the implementation cannot make: the level's state is cleared, no error
            tex.set_image(0, level, TexImage())
            return
        pbo = self.buffer_bindings.get(E.GL_PIXEL_UNPACK_BUFFER) is not None
        with self._standing_in(target):
            core(image_target, level, internalformat, *args[:-1], 0 if pbo else None)

    @extends
    def glTexImage1D(self, core, target, level, internalformat, width, border, format, type, pixels):
        if self._proxy(target, 1) is None:
            return core(target, level, internalformat, width, border, format, type, pixels)
        self._proxy_image(core, 1, target, level, internalformat, width, 1, 1,
                          (width, border, format, type, pixels))

    @extends
    def glTexImage2D(self, core, target, level, internalformat, width, height, border, format, type, pixels):
        if self._proxy(target, 2) is None:
            return core(target, level, internalformat, width, height, border, format, type, pixels)
        self._proxy_image(core, 2, target, level, internalformat, width, height, 1,
                          (width, height, border, format, type, pixels))

    @extends
    def glTexImage3D(self, core, target, level, internalformat, width, height, depth, border, format, type,
                     pixels):
        if self._proxy(target, 3) is None:
            return core(target, level, internalformat, width, height, depth, border, format, type, pixels)
        self._proxy_image(core, 3, target, level, internalformat, width, height, depth,
                          (width, height, depth, border, format, type, pixels))

    @extends
    def glGetTexLevelParameteriv(self, core, target: int, level: int, pname: int) -> list:
        if self._proxy(target) is None:
            return core(target, level, pname)
        with self._standing_in(target) as tex_target:
            if tex_target == E.GL_TEXTURE_CUBE_MAP:
                tex_target = E.GL_TEXTURE_CUBE_MAP_POSITIVE_X
            return core(tex_target, level, pname)
