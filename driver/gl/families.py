"""The Context class: ContextBase composed with every entry-point family."""

from __future__ import annotations

from driver.gl.arbprogram import ARBProgramMixin, install_arb_aliases
from driver.gl.clearquad import ClearQuadMixin
from driver.gl.compat import CompatMixin
from driver.gl.api import Api, get_api
from driver.gl.compose import compose, init_families
from driver.gl.context import ContextBase
from driver.gl.errors import finish_context_class
from driver.gl.features import install as install_features
# The feature modules (one per feature): importing one registers its entry points
# for install_features.
from driver.gl.features import (blend_advanced, debug_output, dsa, egl_image, ext_framebuffer_object,  # noqa: F401
                                ext_transform_feedback, framebuffer_fetch, gl_spirv, gles1, gles_ext, half_float, ibm,
                                indirect_parameters,
                                internalformat_query, memory_object, multibind, nv_primitive_restart, old_names,
                                primitive_bounding_box, query_buffer, rasterizer, robustness, shader_objects,
                                shading_language_include, stencil_two_side, subroutines, texture_integer,
                                texture_ops, transform_feedback_streams)
from driver.gl.features.aliases import install_aliases
from driver.gl.teximage_extra import TexImageExtraMixin
from driver.gl.textures import TextureMixin
from driver.gl.desktop import DesktopMixin
from driver.gl.entrypoints import api_registry_commands
from driver.gl.draws import DrawMixin
from driver.gl.framebuffers import FramebufferMixin
from driver.gl.get import GetMixin
from driver.gl.buffers import BufferMixin
from driver.gl.interface_query import InterfaceQueryMixin
from driver.gl.later import LaterStagesMixin
from driver.gl.legacy import LEGACY_FAMILIES, install_dispatch
from driver.gl.pipelines import PipelineMixin
from driver.gl.proxy_textures import ProxyTextureMixin
from driver.gl.programs import ProgramMixin
from driver.gl.queries import QueryMixin
from driver.gl.readback import ReadbackMixin
from driver.gl.state import StateMixin
from driver.gl.uniforms import UniformMixin
from driver.gl.vertexarrays import VertexArrayMixin

__all__ = ["Context", "command_owners", "entry_points", "missing_entry_points"]


# The families of the context, outermost first: a family's @extends hooks wrap
# the methods of the families after it (driver.gl.compose). The legacy layer
# (ARB programs and driver.gl.legacy) comes first: it hooks into the core.
FAMILIES = (ARBProgramMixin, *LEGACY_FAMILIES, PipelineMixin, ClearQuadMixin, CompatMixin, DesktopMixin,
            LaterStagesMixin, DrawMixin, InterfaceQueryMixin, QueryMixin, ReadbackMixin, ProxyTextureMixin,
            TexImageExtraMixin, TextureMixin, FramebufferMixin, ProgramMixin, UniformMixin, StateMixin, BufferMixin,
            VertexArrayMixin, GetMixin)


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


# -- what the Context class implements, against the registry (driver.gl.entrypoints) --
def command_owners(cls=None) -> dict[str, str]:
    """Command name -> what implements it in the Context class ``cls``: a family
    (``driver.gl.families.FAMILIES``, by class name), a feature module
    (``driver.gl.features.<module>``) or the registry's aliases
    (``driver.gl.features.aliases``). One owner per name: the class is built
    so (driver.gl.compose, features.install)."""
    if cls is None:
        cls = Context
    owners = {name: family.__name__ for name, family in cls._family_owner.items() if name.startswith("gl")}
    base = getattr(cls, "_dispatch_base", cls)
    for name in dir(base):
        if name.startswith("gl") and name not in owners and callable(getattr(base, name)):
            owners[name] = _module_of(getattr(base, name))
    return owners


def _module_of(fn) -> str:
    import inspect
    inner = inspect.unwrap(fn)
    return getattr(inner, "__module__", None) or type(inner).__module__


def entry_points(api: str | Api) -> list[str]:
    """The registry's commands for `api` that driver.gl.Context implements."""
    a = api if isinstance(api, Api) else get_api(api)
    return sorted(n for n in api_registry_commands(a) if hasattr(Context, n))


def missing_entry_points(api: str | Api) -> list[str]:
    """The registry's commands for `api` that are not implemented (yet)."""
    a = api if isinstance(api, Api) else get_api(api)
    return sorted(n for n in api_registry_commands(a) if not hasattr(Context, n))
