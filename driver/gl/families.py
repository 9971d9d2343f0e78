"""The Context class: ContextBase composed with every entry-point family."""

from __future__ import annotations

from driver.gl.arbprogram import ARBProgramMixin, install_arb_aliases
from driver.gl.clearquad import ClearQuadMixin
from driver.gl.compat import CompatMixin
from driver.gl.compose import compose, init_families
from driver.gl.context import ContextBase
from driver.gl.errors import finish_context_class
from driver.gl.features import install as install_features
from driver.gl.features.aliases import install_aliases
from driver.gl.teximage_extra import TexImageExtraMixin
from driver.gl.textures import TextureMixin
from driver.gl.desktop import DesktopMixin
from driver.gl.draws import DrawMixin
from driver.gl.framebuffers import FramebufferMixin
from driver.gl.get import GetMixin
from driver.gl.buffers import BufferMixin
from driver.gl.interface_query import InterfaceQueryMixin
from driver.gl.later import LaterStagesMixin
from driver.gl.legacy import LEGACY_FAMILIES, install_dispatch
from driver.gl.pipelines import PipelineMixin
from driver.gl.programs import ProgramMixin
from driver.gl.queries import QueryMixin
from driver.gl.readback import ReadbackMixin
from driver.gl.state import StateMixin
from driver.gl.uniforms import UniformMixin
from driver.gl.vertexarrays import VertexArrayMixin

__all__ = ["Context"]


# The families of the context, outermost first: a family's @extends hooks wrap
# the methods of the families after it (driver.gl.compose). The legacy layer
# (ARB programs and driver.gl.legacy) comes first: it hooks into the core.
FAMILIES = (ARBProgramMixin, *LEGACY_FAMILIES, PipelineMixin, ClearQuadMixin, CompatMixin, DesktopMixin,
            LaterStagesMixin, DrawMixin, InterfaceQueryMixin, QueryMixin, ReadbackMixin, TexImageExtraMixin,
            TextureMixin, FramebufferMixin, ProgramMixin, UniformMixin, StateMixin, BufferMixin, VertexArrayMixin,
            GetMixin)


def _compose_families(cls):
    compose(cls, FAMILIES)
    install_arb_aliases(cls)
    return cls


@install_dispatch
@finish_context_class
@install_aliases
@install_features
@_compose_families
class Context(ContextBase):
    """A GL context. `Context(pipe, api="gles3", width=256, height=256)`;
    `api` is one of driver.gl.API_NAMES. Its methods come from FAMILIES
    (installed, not inherited: one definition per name) and the feature
    modules (driver.gl.features)."""

    def _init_families(self) -> None:
        init_families(self)

    def destroy(self) -> None:
        """Release every pipe object the context made (eglDestroyContext).
        The context must not be used afterwards."""
        destroy = self.screen.resource_destroy
        # queued work may still name the resources about to go: run it first
        try:
            self.glFinish()
        except OSError:         # a queue lost to a GPU reset has nothing left to run
            pass
        # shared objects go with the last context of the share group
        last = self.share_group.leave(self, destroy)
        for table in (self.buffers, self.textures, self.renderbuffers) if last else ():
            for obj in table:
                if obj.resource is not None:
                    destroy(obj.resource)
        programs = list(self._programs()) if last else []
        programs += list(getattr(self, "_clear_programs", {}).values())
        if getattr(self, "_ff_program", None) is not None:
            programs.append(self._ff_program)
        programs += list(getattr(self, "_ff_programs", {}).values())
        programs += list(getattr(self, "_arb_draw_programs", {}).values())
        for p in programs:
            if p.linked_state is not None:
                for handle in p.linked_state.pipe_shaders.values():
                    self.pipe.delete_shader_state(handle)
        for q in self.queries:
            if q.pipe_query is not None:
                self.pipe.destroy_query(q.pipe_query)
        self.cso.destroy()
        self.uploader.destroy()
        for res in self.window.resources():
            destroy(res)
