"""The one extension table (driver.gl.extensions) and what is derived from it:
extension lists, the GLSL side of each extension, context versions and
context requests."""

import pytest

from driver.gl import API_NAMES, enums as E
from driver.gl.api import (MAX_ES_VERSION, MAX_GL_VERSION, ContextRequestError,
                           api_for_request)
from driver.gl.extensions import (CORE, DONE, ES_VERSIONS, EXTENSIONS, GL_VERSIONS, MISSING,
                                  STAGE, advertised, by_name, max_version)
from tests.driver.gl.conftest import make_ctx

ALL_APIS = sorted(API_NAMES)


def test_requirements_name_lines_of_the_table():
    """A version's requirement that is not a GLSL version is a line of the
    table (a misspelt name would silently block or allow a version)."""
    names = by_name()
    for table in (GL_VERSIONS, ES_VERSIONS):
        for version, reqs in table.items():
            for r in reqs:
                assert r.startswith("GLSL ") or r in names, (version, r)


def test_version_is_the_last_whose_requirements_all_work():
    """max_version stops at the first version with a MISSING requirement;
    every version up to it has only DONE/CORE/STAGE requirements."""
    glsl = frozenset(v for a in API_NAMES.values() for v in a.glsl)
    for es, table, top in ((False, GL_VERSIONS, MAX_GL_VERSION), (True, ES_VERSIONS, MAX_ES_VERSION)):
        assert max_version(es, glsl) == top
        for version, reqs in table.items():
            status = [by_name()[r].status for r in reqs if not r.startswith("GLSL ")]
            if version <= top:
                assert all(s in (DONE, CORE, STAGE) for s in status), version
        above = [v for v in table if v > top]
        if above:
            first = min(above)
            assert any(not r.startswith("GLSL ") and by_name()[r].status is MISSING
                       or r.startswith("GLSL ") and r[5:] not in glsl
                       for r in table[first] if r in by_name() or r.startswith("GLSL ")), first


@pytest.mark.parametrize("api", ALL_APIS)
def test_context_lists_exactly_the_done_lines_it_exposes(api):
    ctx = make_ctx(api)
    a = ctx.api
    expected = sorted(e.name for e in EXTENSIONS if e.status is DONE and e.exposed_in(a.es, a.core, a.version))
    n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0] if a.version >= (3, 0) else None
    if n is not None:
        assert sorted(ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)) == expected
    if not a.core:
        assert sorted(ctx.glGetString(E.GL_EXTENSIONS).split()) == expected
    assert advertised(a.es, a.core, a.version) == expected
    for e in expected:                   # nothing not DONE is ever listed
        assert by_name()[e].status is DONE


def _first_glsl_version(api, ext_name):
    """The oldest #version of the context at which the compiler knows the extension."""
    from compiler.glsl.versions import EXTENSIONS as GLSL_EXTS
    known = {e.name: e for e in GLSL_EXTS}[ext_name]
    for token in reversed(api.glsl):
        number = int(token.split()[0])
        es = token.endswith("es") or token == "100"
        if (known.es and es and number >= known.es) or (known.desktop and not es and number >= known.desktop):
            return token
    return None


@pytest.mark.parametrize("api", ALL_APIS)
def test_glsl_side_accepts_every_extension_with_a_language_part(api):
    """Every listed extension of the context with a shading-language part can
    be required in a shader of that context, and its macro is defined."""
    ctx = make_ctx(api)
    names = sorted(n for n in advertised(ctx.api.es, ctx.api.core, ctx.api.version)
                   if by_name()[n].has_glsl(ctx.api.es))
    assert set(names) <= ctx.api.glsl_extensions
    for name in names:
        token = _first_glsl_version(ctx.api, name)
        assert token is not None, f"{api}: the compiler does not implement {name}"
        stage = E.GL_COMPUTE_SHADER if name == "GL_ARB_compute_shader" else E.GL_FRAGMENT_SHADER
        src = (f"#version {token}\n#extension {name} : require\n"
               f"#ifndef {name}\n#error macro {name} missing\n#endif\nvoid main() {{}}\n")
        if stage == E.GL_COMPUTE_SHADER:
            src = src.replace("void main", "layout(local_size_x = 1) in;\nvoid main")
        sh = ctx.glCreateShader(stage)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0] == 1, (name, ctx.glGetShaderInfoLog(sh))


def test_glsl_rejects_an_extension_the_context_lacks():
    """GL_ARB_compute_shader is not exposed in a GL 3.3 core context: requiring
    it is a compile error; enabling it only warns, and no macro is defined."""
    ctx = make_ctx("gl33")
    assert "GL_ARB_compute_shader" not in ctx.api.glsl_extensions
    for behaviour, ok in (("require", 0), ("enable", 1)):
        sh = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
        ctx.glShaderSource(sh, 1, ["#version 330\n#extension GL_ARB_compute_shader : %s\n"
                                "#ifdef GL_ARB_compute_shader\n#error defined\n#endif\n"
                                "void main() {}\n" % behaviour])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0] == ok
        assert "GL_ARB_compute_shader" in ctx.glGetShaderInfoLog(sh)


def test_compatibility_profile_has_the_core_version():
    compat = API_NAMES["compat"]
    assert compat.version == MAX_GL_VERSION and not compat.core and not compat.es
    core_versions = [a.version for a in API_NAMES.values() if a.core]
    assert max(core_versions) == MAX_GL_VERSION and min(core_versions) == (3, 2)


@pytest.mark.parametrize("request_,expect", [
    ((False, 2, 1, False), ("compat", MAX_GL_VERSION)),
    ((False, 3, 0, False), ("compat", MAX_GL_VERSION)),
    ((False, 3, 2, True), ("core", MAX_GL_VERSION)),
    ((False, 3, 3, False), ("compat", MAX_GL_VERSION)),
    ((True, 2, 0, False), ("es", MAX_ES_VERSION)),
    ((True, 3, 0, False), ("es", MAX_ES_VERSION)),
])
def test_request_gets_the_newest_backward_compatible_context(request_, expect):
    api = api_for_request(*request_)
    kind, version = expect
    assert api.version == version
    assert (api.es, api.core) == {"compat": (False, False), "core": (False, True), "es": (True, False)}[kind]


def test_requests_above_the_driver_or_not_a_version_fail():
    above = (MAX_GL_VERSION[0], MAX_GL_VERSION[1] + 1) if MAX_GL_VERSION < (4, 6) else (5, 0)
    for req in ((False, *above, True), (False, 3, 4, True), (False, 5, 0, False), (True, 1, 2, False),
                (True, 4, 0, False), (True, 3, 3, False)):
        with pytest.raises(ContextRequestError):
            api_for_request(*req)
    with pytest.raises(ContextRequestError):          # GL 2.1 has no forward-compatible contexts
        api_for_request(False, 2, 1, False, forward_compatible=True)
    with pytest.raises(ContextRequestError):
        api_for_request(False, 3, 3, True, debug=True, no_error=True)


def test_context_flags_and_profile_mask_answer_the_request():
    api = api_for_request(False, 3, 3, True, forward_compatible=True, debug=True)
    ctx = make_ctx(api)
    assert ctx.glGetIntegerv(E.GL_CONTEXT_FLAGS) == [E.GL_CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT
                                                     | E.GL_CONTEXT_FLAG_DEBUG_BIT]
    assert ctx.glGetIntegerv(E.GL_CONTEXT_PROFILE_MASK) == [E.GL_CONTEXT_CORE_PROFILE_BIT]
    compat = make_ctx(api_for_request(False, 2, 0, False, robust=True))
    assert compat.glGetIntegerv(E.GL_CONTEXT_FLAGS) == [E.GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT]
    assert compat.glGetIntegerv(E.GL_CONTEXT_PROFILE_MASK) == [E.GL_CONTEXT_COMPATIBILITY_PROFILE_BIT]
    assert compat.glGetString(E.GL_VERSION).startswith("%d.%d (Compatibility Profile) " % MAX_GL_VERSION)


def test_every_core_version_from_32_creates_a_context():
    for name, api in API_NAMES.items():
        if api.core:
            ctx = make_ctx(name)
            assert (ctx.glGetIntegerv(E.GL_MAJOR_VERSION)[0], ctx.glGetIntegerv(E.GL_MINOR_VERSION)[0]) == api.version
            assert ctx.glGetString(E.GL_VERSION).startswith("%d.%d (Core Profile) " % api.version)


def test_every_extension_the_compiler_knows_is_a_line_of_the_table():
    """The compiler's list says what its GLSL side implements; whether a
    context exposes it is the table's decision, so each name must be there."""
    from compiler.glsl.versions import EXTENSIONS as GLSL_EXTS
    for e in GLSL_EXTS:
        assert e.name in by_name() and by_name()[e.name].glsl, e.name


def test_layout_extensions_in_glsl_110_and_120():
    """As in Mesa, GL_ARB_explicit_attrib_location and GL_ARB_shading_language_420pack
    may be enabled in GLSL 1.10/1.20 shaders: the location is honoured, and
    an initializer list compiles."""
    ctx = make_ctx("compat")
    vs = ctx.glCreateShader(E.GL_VERTEX_SHADER)
    ctx.glShaderSource(vs, 1, ["#version 110\n#extension GL_ARB_explicit_attrib_location : require\n"
                               "layout(location = 3) in vec4 p;\nvoid main() { gl_Position = p; }\n"])
    ctx.glCompileShader(vs)
    assert ctx.glGetShaderiv(vs, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(vs)
    fs = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
    ctx.glShaderSource(fs, 1, ["#version 120\n#extension GL_ARB_shading_language_420pack : require\n"
                               "void main() { vec4 c = { 1.0, 0.5, 0.25, 1.0 }; gl_FragColor = c; }\n"])
    ctx.glCompileShader(fs)
    assert ctx.glGetShaderiv(fs, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(fs)
    prog = ctx.glCreateProgram()
    ctx.glAttachShader(prog, vs)
    ctx.glAttachShader(prog, fs)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
    assert ctx.glGetAttribLocation(prog, "p") == 3
