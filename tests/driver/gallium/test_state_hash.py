"""Pipe state objects hash their fields once: the hash the dataclass would compute
(equal states hash alike, unequal ones apart as before), kept on the object, and
never carried by a pickled copy (str hashes differ between processes)."""

from __future__ import annotations

import dataclasses
import pickle

from driver.gallium.state import BlendState, DepthStencilAlphaState, RasterizerState, RtBlendState, ScissorState


def _field_hash(obj) -> int:
    return hash(tuple(getattr(obj, f.name) for f in dataclasses.fields(obj)))


def test_the_hash_is_the_fields_hash_computed_once():
    r = RasterizerState(scissor=True, line_width=3.0)
    assert "_hash" not in r.__dict__
    assert hash(r) == _field_hash(r)
    assert r.__dict__["_hash"] == _field_hash(r)          # kept: the next hash reads it
    assert hash(RasterizerState(scissor=True, line_width=3.0)) == hash(r)
    assert RasterizerState(scissor=True, line_width=3.0) == r
    other = dataclasses.replace(r, scissor=False)
    assert other != r and "_hash" not in other.__dict__ and hash(other) == _field_hash(other)


def test_nested_states_and_dict_keys():
    b = BlendState(rt=(RtBlendState(blend_enable=True),) * 8)
    cache = {b: 1, DepthStencilAlphaState(): 2, ScissorState(0, 0, 4, 4): 3}
    assert cache[BlendState(rt=(RtBlendState(blend_enable=True),) * 8)] == 1
    assert cache[DepthStencilAlphaState()] == 2 and cache[ScissorState(0, 0, 4, 4)] == 3


def test_a_pickled_copy_hashes_afresh():
    r = RasterizerState(flatshade=True)
    hash(r)
    copy = pickle.loads(pickle.dumps(r))
    assert "_hash" not in copy.__dict__ and copy == r and hash(copy) == hash(r)
