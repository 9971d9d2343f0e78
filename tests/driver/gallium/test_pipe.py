"""The pipe interface: state structs, CSO cache, helpers."""

import dataclasses

import pytest

from driver import gallium as g
from tests.driver.gallium.recording import make_pipe


def test_context_is_abstract():
    with pytest.raises(TypeError):
        g.PipeContext()
    with pytest.raises(TypeError):
        g.PipeScreen()


def test_cso_states_are_frozen_and_hashable():
    a = g.BlendState()
    b = g.BlendState()
    assert a == b and hash(a) == hash(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.dither = True
    c = dataclasses.replace(a, dither=True)
    assert c != a
    assert len({g.RasterizerState(), g.RasterizerState(cull_face=g.PipeFace.BACK)}) == 2


def test_blend_state_needs_one_entry_per_colour_buffer():
    with pytest.raises(AssertionError):
        g.BlendState(rt=(g.RtBlendState(),))


def test_resource_template_rejects_empty_extents():
    with pytest.raises(AssertionError):
        g.ResourceTemplate(g.PipeTextureTarget.TEXTURE_2D, g.PipeFormat.R8G8B8A8_UNORM, 0)


def test_surfaces_hash_resources_by_identity():
    t = g.ResourceTemplate(g.PipeTextureTarget.TEXTURE_2D, g.PipeFormat.R8G8B8A8_UNORM, 4, 4)
    r1, r2 = g.PipeResource(t), g.PipeResource(t)
    s1 = g.Surface(r1, t.format)
    assert s1 == g.Surface(r1, t.format)
    assert s1 != g.Surface(r2, t.format)


def test_cso_cache_creates_once_and_skips_redundant_binds():
    screen, pipe = make_pipe()
    cso = g.CsoContext(pipe)
    cso.set_blend(g.BlendState())
    cso.set_blend(g.BlendState())
    cso.set_blend(dataclasses.replace(g.BlendState(), dither=True))
    cso.set_blend(g.BlendState())
    names = pipe.names()
    assert names.count("create_blend_state") == 2
    assert names.count("bind_blend_state") == 3
    assert cso.stats["binds_skipped"] == 1
    cso.destroy()
    assert pipe.names().count("delete_blend_state") == 2


def test_cso_cache_samplers_per_stage():
    screen, pipe = make_pipe()
    cso = g.CsoContext(pipe)
    s = g.SamplerState()
    cso.set_samplers(g.PipeShaderType.FRAGMENT, [s, None, s])
    cso.set_samplers(g.PipeShaderType.FRAGMENT, [s, None, s])
    assert pipe.names() == ["create_sampler_state", "bind_sampler_states"]
    stage, start, handles = pipe.last("bind_sampler_states")
    assert handles[1] is None and handles[0] is handles[2]


def test_cso_samplers_tuple_bound_last_is_skipped_without_hashing():
    """The very tuple bound last (a front end keeping its derivation) is skipped by
    identity; another stage's binds in between keep each stage's own; an equal
    tuple that is another object is still compared by its handles."""
    screen, pipe = make_pipe()
    cso = g.CsoContext(pipe)
    s, t = g.SamplerState(), g.SamplerState(min_img_filter=g.PipeTexFilter.LINEAR)
    kept = (s, t)
    cso.set_samplers(g.PipeShaderType.FRAGMENT, kept)
    cso.set_samplers(g.PipeShaderType.VERTEX, (t,))
    skipped = cso.stats["binds_skipped"]
    cso.set_samplers(g.PipeShaderType.FRAGMENT, kept)
    assert cso.stats["binds_skipped"] == skipped + 1
    assert pipe.names().count("bind_sampler_states") == 2
    cso.set_samplers(g.PipeShaderType.FRAGMENT, (t, s))         # another order: bound
    assert pipe.names().count("bind_sampler_states") == 3
    cso.set_samplers(g.PipeShaderType.FRAGMENT, kept)           # the old tuple again: bound again
    assert pipe.names().count("bind_sampler_states") == 4


def test_viewport_from_gl_maps_ndc_corners_to_window():
    # GL 4.6 section 13.8.1: xw = (px/2) xd + ox, zw = ((f-n)/2) zd + (n+f)/2
    vp = g.ViewportState.from_gl(10, 20, 100, 50, 0.0, 1.0)
    assert vp.scale == (50, 25, 0.5) and vp.translate == (60, 45, 0.5)
    vp = g.ViewportState.from_gl(0, 0, 8, 8, 0.25, 0.75, clip_halfz=True)
    assert vp.scale[2] == 0.5 and vp.translate[2] == 0.25


def test_clear_bits():
    assert g.PipeClear.color(3) == g.PipeClear.COLOR3
    assert g.PipeClear.COLOR & g.PipeClear.DEPTH == 0


def test_minify():
    assert [g.minify(13, lv) for lv in range(5)] == [13, 6, 3, 1, 1]


def test_upload_manager_packs_and_aligns():
    screen, pipe = make_pipe()
    up = g.UploadManager(screen, pipe, default_size_B=64)
    r1, o1 = up.upload(b"abc")
    r2, o2 = up.upload(b"defg", alignment_B=16)
    assert r1 is r2 and (o1, o2) == (0, 16)
    assert bytes(r1.storage[16:20]) == b"defg"
    r3, o3 = up.upload(bytes(60))          # does not fit: a new buffer
    assert r3 is not r1 and o3 == 0
    r4, _ = up.upload(bytes(200))          # larger than the default size
    assert r4.size_B == 200


def test_gen_mipmap_by_blit_walks_levels():
    screen, pipe = make_pipe()
    t = g.ResourceTemplate(g.PipeTextureTarget.TEXTURE_2D, g.PipeFormat.R8G8B8A8_UNORM, 8, 4,
                           last_level=3)
    res = screen.resource_create(t)
    g.gen_mipmap_by_blit(pipe, res, 0, 3, 0, 0)
    blits = [a[0] for n, a in pipe.calls if n == "blit"]
    assert [(b.src.level, b.dst.level) for b in blits] == [(0, 1), (1, 2), (2, 3)]
    assert [(b.dst.box.width, b.dst.box.height) for b in blits] == [(4, 2), (2, 1), (1, 1)]
    assert all(b.filter == g.PipeTexFilter.LINEAR for b in blits)


def test_buffer_read_roundtrip():
    screen, pipe = make_pipe()
    res = screen.resource_create(g.ResourceTemplate(g.PipeTextureTarget.BUFFER,
                                                    g.PipeFormat.R8_UINT, 16))
    pipe.buffer_subdata(res, g.PipeMap.WRITE, 4, b"\x01\x02")
    assert g.buffer_read(pipe, res, 3, 4) == b"\x00\x01\x02\x00"
