import pytest

from driver.gl import Context
from tests.driver.gallium.recording import make_pipe


def make_ctx(api="gles3", width=64, height=32):
    screen, pipe = make_pipe()
    return Context(pipe, api, width, height)


@pytest.fixture(params=["gles2", "gles3", "gles31", "gl33", "gl43", "compat"])
def any_ctx(request):
    return make_ctx(request.param)


@pytest.fixture
def es3():
    return make_ctx("gles3")


@pytest.fixture
def core():
    return make_ctx("gl43")


@pytest.fixture
def compat():
    return make_ctx("compat")
