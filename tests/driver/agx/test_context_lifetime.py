"""A context gives its queue back - and with it the kernel's scheduler and firmware
threads - when it is destroyed (destroy(), close(), a ``with`` block) and when the
program drops it without destroying it: a finalizer releases it when it is
collected, at once for a plain ``del``, at the next safe point when the cyclic
garbage collector found it (driver.agx.device.release_when_safe)."""

from __future__ import annotations

import errno
import gc
import threading

import pytest

from driver.agx.device import release_deferred
from driver.agx.face import Context, default_screen

SLACK_THREADS = 4 + 4     # the one live context's queue (4 threads) and a little room


def _queue_exists(queue_id: int) -> bool:
    """Whether the kernel still has this queue of the process screen's device file
    (QUEUE_COUNTERS on a destroyed queue is ENOENT)."""
    try:
        default_screen().device.queue_counters(queue_id)
        return True
    except OSError as error:
        assert error.errno == errno.ENOENT, error
        return False


def _draw(ctx: Context) -> None:
    ctx.glClearColor(0.0, 1.0, 0.0, 1.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    assert (ctx.read_pixels(0, 0, 1, 1)[0, 0] == [0, 255, 0, 255]).all()


def _loop(rounds: int, destroy: bool) -> tuple[int, int, list[int]]:
    baseline, peak, queues = threading.active_count(), 0, []
    for _ in range(rounds):
        if destroy:
            with Context(api="gles3", width=4, height=4) as ctx:
                _draw(ctx)
                queues.append(ctx.pipe.queue_id)
                peak = max(peak, threading.active_count())
        else:
            ctx = Context(api="gles3", width=4, height=4)     # the previous one is dropped here
            _draw(ctx)
            queues.append(ctx.pipe.queue_id)
            peak = max(peak, threading.active_count())
    ctx = None
    return baseline, peak, queues


@pytest.mark.parametrize("destroy", [True, False], ids=["destroyed", "dropped"])
def test_forty_contexts_in_a_loop_keep_the_threads_bounded(destroy):
    baseline, peak, queues = _loop(40, destroy)
    assert peak <= baseline + SLACK_THREADS, (baseline, peak)     # 40 leaked queues: +160 threads
    assert threading.active_count() <= baseline + SLACK_THREADS
    assert not any(_queue_exists(q) for q in queues)


@pytest.mark.slow
def test_three_hundred_contexts_in_a_loop_keep_the_threads_bounded():
    baseline, peak, queues = _loop(300, destroy=True)
    assert peak <= baseline + SLACK_THREADS, (baseline, peak)
    assert not any(_queue_exists(q) for q in queues)


def test_close_is_destroy_and_is_idempotent():
    ctx = Context(api="gles3", width=4, height=4)
    _draw(ctx)
    queue = ctx.pipe.queue_id
    ctx.close()
    assert not _queue_exists(queue)
    ctx.close()
    ctx.destroy()


def test_a_dropped_context_frees_its_queue_at_once():
    ctx = Context(api="gles3", width=4, height=4)
    _draw(ctx)
    queue = ctx.pipe.queue_id
    del ctx                                          # the last reference: the finalizer runs here
    assert not _queue_exists(queue)


def test_a_context_in_a_reference_cycle_is_released_at_the_next_safe_point():
    ctx = Context(api="gles3", width=4, height=4)
    _draw(ctx)
    queue = ctx.pipe.queue_id
    ctx.itself = ctx                                 # only the cyclic collector can free it
    del ctx
    gc.collect()
    # found by the collector, which may stop any thread anywhere: queued, not run there
    assert _queue_exists(queue)
    assert release_deferred() >= 1
    assert not _queue_exists(queue)


def test_the_next_context_releases_what_the_collector_found():
    ctx = Context(api="gles3", width=4, height=4)
    _draw(ctx)
    queue = ctx.pipe.queue_id
    ctx.itself = ctx
    del ctx
    gc.collect()
    with Context(api="gles3", width=4, height=4) as other:    # creating a queue is a safe point
        assert not _queue_exists(queue)
        _draw(other)


def test_a_collected_pipe_context_gives_its_queue_back():
    screen = default_screen()
    pipe = screen.context_create()
    queue = pipe.queue_id
    assert _queue_exists(queue)
    del pipe
    gc.collect()
    release_deferred()
    assert not _queue_exists(queue)

