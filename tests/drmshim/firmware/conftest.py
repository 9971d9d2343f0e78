"""Fixtures for the kernel tests (defined in tests.drmshim.kernel.helpers)."""

from tests.drmshim.kernel.helpers import dev, open_private  # noqa: F401
