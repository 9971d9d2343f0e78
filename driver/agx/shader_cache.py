"""The hardware driver's name for the on-disk shader cache, ``driver.shader_cache``:
it sits below both the GL front end (which caches compiled shader objects in it)
and this driver (compiled variants, ``compile.cached_compile``)."""

from driver.shader_cache import *  # noqa: F401,F403
from driver.shader_cache import __all__  # noqa: F401
