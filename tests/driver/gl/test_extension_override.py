"""MESA_EXTENSION_OVERRIDE (driver.gl.overrides): a developer's switch over the
extension list of every context of the process."""

import pytest

from driver.gl import enums as E
from driver.gl import extensions as X
from driver.gl.extensions import extension_override
from driver.gl.overrides import ENV, Override
from tests.driver.gl.conftest import make_ctx


def _reset_caches():
    extension_override.cache_clear()
    X.available.cache_clear()
    X.glsl_extensions.cache_clear()


@pytest.fixture
def override(monkeypatch):
    def set_to(text):
        monkeypatch.setenv(ENV, text)
        _reset_caches()
    yield set_to
    monkeypatch.delenv(ENV, raising=False)
    _reset_caches()


def _listed(ctx):
    return {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}


def test_parse_signs_and_unknown_names():
    warned = []
    ov = Override.parse("+GL_A GL_B -GL_C GL_NOPE -GL_B", {"GL_A", "GL_B", "GL_C"}, warned.append)
    assert ov.enable == {"GL_A"}
    assert ov.disable == {"GL_B", "GL_C"}          # the later word wins
    assert len(warned) == 1 and "GL_NOPE" in warned[0]
    assert not Override.parse("", {"GL_A"})


def test_override_adds_and_removes_names(override, capfd):
    base = make_ctx("compat")
    before = _listed(base)
    assert "GL_ARB_multi_bind" in before and "GL_ARB_geometry_shader4" not in before
    version = base.glGetString(E.GL_VERSION)

    override("+GL_ARB_geometry_shader4 -GL_ARB_multi_bind GL_NOT_AN_EXTENSION")
    ctx = make_ctx("compat")
    after = _listed(ctx)
    assert after == (before - {"GL_ARB_multi_bind"}) | {"GL_ARB_geometry_shader4"}
    assert ctx.api.has_extension("GL_ARB_geometry_shader4")
    assert not ctx.api.has_extension("GL_ARB_multi_bind")
    assert "GL_ARB_geometry_shader4" in ctx.api.glsl_extensions    # its shading-language part too
    assert ctx.glGetString(E.GL_VERSION) == version              # the version is the table's
    err = capfd.readouterr().err
    assert "GL_NOT_AN_EXTENSION" in err and "ignored" in err
    assert "GL_ARB_geometry_shader4" in err and "does not fully implement" in err


def test_override_keeps_each_api_to_its_own_extensions(override):
    override("+GL_ARB_geometry_shader4")
    es = make_ctx("gles3")
    assert "GL_ARB_geometry_shader4" not in _listed(es)     # a desktop extension stays out of GLES


def test_unset_variable_changes_nothing(override):
    override("   ")
    ctx = make_ctx("compat")
    a = ctx.api
    assert sorted(_listed(ctx)) == sorted(e.name for e in X.EXTENSIONS
                                          if e.status is X.DONE and e.exposed_in(a.es, a.core, a.version))
