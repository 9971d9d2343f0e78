"""driver.gallium: the Gallium-like pipe interface between the GL front end and
a hardware driver.

Owns the abstract PipeScreen / PipeContext contract, the state structs (frozen
dataclasses), the pipe enums, and helpers built only on the contract (CSO
cache, upload manager, mipmap generation by blits). The GL front end
(driver.gl) uses only this interface; the hardware driver (driver.agx)
implements it.

May import: nothing of ours outside driver.gallium (in particular not driver.gl
or driver.agx)."""

from driver.gallium.context import PipeContext, PipeQuery, ShaderVariantError, Transfer
from driver.gallium.cso import CsoContext
from driver.gallium.defines import *  # noqa: F401,F403
from driver.gallium.defines import __all__ as _defines_all
from driver.gallium.screen import PipeFence, PipeScreen, ScreenCaps, ShaderCaps
from driver.gallium.state import *  # noqa: F401,F403
from driver.gallium.state import __all__ as _state_all
from driver.gallium.util import UploadManager, buffer_read, gen_mipmap_by_blit, minify

__all__ = [
    "PipeContext", "PipeQuery", "ShaderVariantError", "Transfer", "CsoContext", "PipeFence", "PipeScreen",
    "ScreenCaps", "ShaderCaps", "UploadManager", "buffer_read", "gen_mipmap_by_blit",
    "minify", *_defines_all, *_state_all,
]
