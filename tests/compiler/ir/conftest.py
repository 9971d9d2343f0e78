"""The IR tests always validate after every pass."""

import pytest


@pytest.fixture(autouse=True)
def _validate_after_every_pass(monkeypatch):
    monkeypatch.setenv("SHIMGL_DEBUG", "validate")
