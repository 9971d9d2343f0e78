"""A device makes its own queue only when something submits on it (the GL
driver submits on its contexts' queues only), and a process's contexts share
one screen."""

from __future__ import annotations

import errno

import pytest

from driver.agx import Device


def test_the_device_queue_is_made_on_first_use():
    dev = Device()
    try:
        context_queue = dev.queue_create()        # what a context does: the first queue of the file
        with pytest.raises(OSError) as e:         # no other queue exists yet
            dev.queue_counters(context_queue + 1)
        assert e.value.errno in (errno.ENOENT, errno.EINVAL)
        own = dev.queue_id                         # made now
        assert own != context_queue and dev.queue_id == own
        assert dev.queue_counters()["commands"] == 0
    finally:
        dev.close()


def test_contexts_share_the_process_screen():
    from driver.agx.face import Context
    a, b = Context(api="gles3", width=4, height=4), Context(api="gles3", width=4, height=4)
    assert a.screen is b.screen and a.screen.device is b.screen.device
