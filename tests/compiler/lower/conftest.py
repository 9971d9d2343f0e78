"""The lowering tests validate the IR after every pass, as the IR tests do."""

import pytest


@pytest.fixture(autouse=True)
def _validate_after_every_pass(monkeypatch):
    monkeypatch.setenv("SHIMGL_DEBUG", "validate")
