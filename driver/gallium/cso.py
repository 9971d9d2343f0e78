"""A constant-state-object cache and binder (Gallium's cso_context kind).

The GL front end describes state by value (frozen dataclasses); CsoContext
creates each distinct CSO once per pipe context, reuses it afterwards, and
skips binds of the state already bound. Sampler/shader CSOs per stage are
handled the same way (samplers by value, shaders by handle)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from driver.gallium.context import PipeContext
from driver.gallium.defines import PipeShaderType
from driver.gallium.state import (
    BlendState, DepthStencilAlphaState, RasterizerState, SamplerState, VertexElement,
)

__all__ = ["CsoContext"]


class CsoContext:
    """Caches CSOs created on one PipeContext. `stats` counts creations and
    skipped binds (for tests and debugging)."""

    def __init__(self, pipe: PipeContext):
        self.pipe = pipe
        self._blend: dict[BlendState, Any] = {}
        self._rast: dict[RasterizerState, Any] = {}
        self._dsa: dict[DepthStencilAlphaState, Any] = {}
        self._samplers: dict[SamplerState, Any] = {}
        self._velems: dict[tuple[VertexElement, ...], Any] = {}
        self._bound: dict[str, Any] = {}
        self._bound_state: dict[str, Any] = {}      # kind -> the state object of the bound handle
        self._bound_samplers: dict[PipeShaderType, tuple] = {}
        self._bound_sampler_states: dict[PipeShaderType, tuple] = {}   # stage -> the tuple bound last
        self.stats = {"created": 0, "binds_skipped": 0}

    def _set(self, kind: str, cache: dict, state, create, bind) -> None:
        if self._bound_state.get(kind) is state:
            # the very object bound last (a front end that re-derives a state only when its
            # inputs change passes the same object again): no hash, no lookup
            self.stats["binds_skipped"] += 1
            return
        handle = cache.get(state)
        if handle is None:
            handle = cache[state] = create(state)
            self.stats["created"] += 1
        if self._bound.get(kind) is handle:
            self.stats["binds_skipped"] += 1
            self._bound_state[kind] = state
            return
        bind(handle)
        self._bound[kind] = handle
        self._bound_state[kind] = state

    def set_blend(self, state: BlendState) -> None:
        p = self.pipe
        self._set("blend", self._blend, state, p.create_blend_state, p.bind_blend_state)

    def set_rasterizer(self, state: RasterizerState) -> None:
        p = self.pipe
        self._set("rast", self._rast, state, p.create_rasterizer_state, p.bind_rasterizer_state)

    def set_depth_stencil_alpha(self, state: DepthStencilAlphaState) -> None:
        p = self.pipe
        self._set("dsa", self._dsa, state, p.create_depth_stencil_alpha_state,
                  p.bind_depth_stencil_alpha_state)

    def set_vertex_elements(self, elements: tuple[VertexElement, ...]) -> None:
        p = self.pipe
        self._set("velems", self._velems, tuple(elements), p.create_vertex_elements_state,
                  p.bind_vertex_elements_state)

    def set_samplers(self, stage: PipeShaderType, states: Sequence[SamplerState | None]) -> None:
        if type(states) is tuple and self._bound_sampler_states.get(stage) is states:
            # the very tuple bound last (a front end that derives samplers again only when
            # their inputs change passes the same one): no hashing
            self.stats["binds_skipped"] += 1
            return
        handles = []
        for s in states:
            if s is None:
                handles.append(None)
                continue
            h = self._samplers.get(s)
            if h is None:
                h = self._samplers[s] = self.pipe.create_sampler_state(s)
                self.stats["created"] += 1
            handles.append(h)
        key = tuple(id(h) if h is not None else None for h in handles)
        self._bound_sampler_states[stage] = states if type(states) is tuple else None
        if self._bound_samplers.get(stage) == key:
            self.stats["binds_skipped"] += 1
            return
        self.pipe.bind_sampler_states(stage, 0, handles)
        self._bound_samplers[stage] = key

    def destroy(self) -> None:
        """Delete every cached CSO."""
        p = self.pipe
        for h in self._blend.values():
            p.delete_blend_state(h)
        for h in self._rast.values():
            p.delete_rasterizer_state(h)
        for h in self._dsa.values():
            p.delete_depth_stencil_alpha_state(h)
        for h in self._samplers.values():
            p.delete_sampler_state(h)
        for h in self._velems.values():
            p.delete_vertex_elements_state(h)
        for d in (self._blend, self._rast, self._dsa, self._samplers, self._velems, self._bound,
                  self._bound_state):
            d.clear()
        self._bound_samplers.clear()
        self._bound_sampler_states.clear()
