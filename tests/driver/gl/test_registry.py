"""The generated registry modules match the Khronos XML registry."""

from pathlib import Path

import pytest

from driver.gl import enums, gen_registry, registry_commands

REG = gen_registry.registry_path()
GL_DIR = Path(gen_registry.__file__).parent


@pytest.mark.skipif(not REG.exists(), reason=f"no Khronos registry at {REG} (pip install glad2, or set "
                                             "SHIMGL_KHRONOS_XML to a directory with gl.xml)")
def test_regenerating_changes_nothing():
    assert (GL_DIR / "enums.py").read_text() == gen_registry.generate_enums(REG)
    assert (GL_DIR / "registry_commands.py").read_text() == gen_registry.generate_commands(REG)
    assert (GL_DIR / "registry_aliases.py").read_text() == gen_registry.generate_aliases(REG)
    assert (GL_DIR / "registry_extensions.py").read_text() == gen_registry.generate_extension_commands(REG)


def test_registry_path_follows_the_abi_builds_variable(tmp_path, monkeypatch):
    (tmp_path / "gl.xml").write_text("<registry/>")
    monkeypatch.setenv("SHIMGL_KHRONOS_XML", str(tmp_path))
    assert gen_registry.registry_path() == tmp_path / "gl.xml"


def test_known_values():
    # gl.xml values, cross-checked against the GL 4.6 spec's enumerant tables
    assert enums.GL_TEXTURE_2D == 0x0DE1
    assert enums.GL_INVALID_ENUM == 0x0500
    assert enums.GL_INVALID_FRAMEBUFFER_OPERATION == 0x0506
    assert enums.GL_COMPUTE_SHADER == 0x91B9
    assert ("gles2", "3.0") in registry_commands.ADDED_IN
    assert "glBindVertexArray" in registry_commands.ADDED_IN[("gles2", "3.0")]
    assert "glBegin" in registry_commands.CORE_REMOVED


def _commands(api, upto):
    out = set()
    for (a, v), names in registry_commands.ADDED_IN.items():
        if a == api and tuple(map(int, v.split("."))) <= upto:
            out |= set(names)
    return out


@pytest.mark.parametrize("version", [(2, 0), (3, 0), (3, 1)])
def test_every_gles_command_is_an_entry_point(version):
    """The GLES 2.0, 3.0 and 3.1 command lists of the registry are complete."""
    from driver.gl import Context
    missing = sorted(n for n in _commands("gles2", version) if not hasattr(Context, n))
    assert missing == []


def test_every_enum_the_front_end_names_exists():
    """A typo in a rarely taken branch would only fail at run time."""
    import re
    names = set()
    for path in GL_DIR.glob("*.py"):
        names |= set(re.findall(r"\bE\.(GL_\w+)", path.read_text()))
    assert names and sorted(n for n in names if not hasattr(enums, n)) == []


def test_entry_point_lists_per_api():
    from driver.gl import entry_points, missing_entry_points
    es2 = entry_points("gles2")
    assert "glDrawArrays" in es2 and "glBindVertexArray" not in es2
    assert "glBegin" not in entry_points("gl33")              # removed from core
    assert "glMatrixMode" in entry_points("compat")
    assert missing_entry_points("gles31") == []
    # GL 3.3 core lacks only the immediate-mode glVertexP* commands
    assert all(n.startswith("glVertexP") for n in missing_entry_points("gl33"))
