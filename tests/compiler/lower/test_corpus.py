"""Every valid shader of the front end's corpus goes through front_half: the IR
validates after every pass (conftest) and no variable access, call or parameter
is left for the backend."""

from __future__ import annotations

import glob
import os

import pytest

from compiler.compile import front_half
from compiler.ir import Call, Deref, Intrinsic, walk_instrs

CORPUS = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "glsl", "corpus", "valid", "*")))
STAGES = {"vert": "vertex", "frag": "fragment", "comp": "compute"}


@pytest.mark.parametrize("path", CORPUS, ids=[os.path.basename(p) for p in CORPUS])
def test_corpus_shader_lowers_completely(path):
    shader, info = front_half(open(path).read(), STAGES[path.rsplit(".", 1)[1]])
    assert [f.name for f in shader.functions] == ["main"]
    left = [i for i in walk_instrs(shader.main.body)
            if isinstance(i, (Deref, Call)) or isinstance(i, Intrinsic) and i.name in (
                "load_deref", "store_deref", "load_param", "return_value")]
    assert not left
    if info.stage == "vertex":
        assert info.varyings[0].slot == "POS" and info.varyings[0].index == 0


def test_corpus_is_not_empty():
    assert len(CORPUS) >= 20
