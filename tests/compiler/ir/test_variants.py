"""Shader keys and the variant cache."""

import pytest

from compiler.ir.core import Intrinsic, walk_instrs
from compiler.ir.printer import print_shader
from compiler.ir.variants import ShaderKey, ShaderVariants

from . import programs


def test_keys_are_hashable_values():
    a = ShaderKey.make(blend=[{"eq": "add", "src": "one"}], two_side=True)
    b = ShaderKey.make(two_side=True, blend=({"src": "one", "eq": "add"},))
    assert a == b and hash(a) == hash(b)
    assert a["two_side"] is True and a.get("missing", 3) == 3
    assert a.replace(two_side=False) != a
    assert "two_side=True" in str(a)
    with pytest.raises(TypeError):
        ShaderKey.make(bad=object.__new__(type("Unhashable", (), {"__hash__": None})))


def test_variants_compiled_once_per_key_on_private_copies():
    shader = programs.indirect_array()
    original = print_shader(shader)
    compiled = []

    def compile_variant(ir, key):
        compiled.append(key)
        # A variant may change its copy freely (here: drop the stores).
        for i in list(walk_instrs(ir.main.body)):
            if isinstance(i, Intrinsic) and i.name == "store_output":
                i.block.remove(i)
        return ("binary", key["rt_format"])

    v = ShaderVariants(shader, compile_variant)
    k1 = ShaderKey.make(rt_format="rgba8")
    k2 = ShaderKey.make(rt_format="rgba16f")
    assert v.get(k1) == ("binary", "rgba8")
    assert v.get(k1) == ("binary", "rgba8")
    assert v.get(k2) == ("binary", "rgba16f")
    assert compiled == [k1, k2] and v.hits == 1 and v.misses == 2 and len(v) == 2
    assert print_shader(shader) == original
