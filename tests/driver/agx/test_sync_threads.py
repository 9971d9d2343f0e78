"""Submissions shared between threads: contexts of one screen in several threads flush,
wait, poll and export fences while any thread may retire any submission (and destroy its
sync object). No ioctl may name a sync object that another thread has destroyed."""

import sys
import threading

import uapi

import driver
import driver.agx.face as face
from driver.agx.pipe import AgxScreen
from driver.gallium import PIPE_TIMEOUT_INFINITE

THREADS = 6
ROUNDS = 120


def test_flushes_waits_and_exports_from_several_threads(monkeypatch):
    monkeypatch.setenv("SHIMGL_DEBUG", "flush")
    screen = AgxScreen()
    monkeypatch.setattr(face, "_screens", {"/dev/dri/renderD128": screen})
    contexts = [driver.Context(api="gles3", width=16, height=16) for _ in range(THREADS)]
    fences = [None] * THREADS                # each thread's latest fence, waited on by the next one
    errors, images = [], {}
    start = threading.Barrier(THREADS)

    def work(i):
        ctx = contexts[i]
        try:
            start.wait()
            for k in range(ROUNDS):
                # each clear writes the window colour buffer: the previous submission is an in-sync
                ctx.glClearColor(i / 8, (k % 4) / 4, 0.5, 1.0)
                ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
                fences[i] = ctx.pipe.flush()
                other = fences[(i + 1) % THREADS]
                if other is not None:
                    screen.fence_finish(other, 0)                  # poll another thread's submission
                    fd = other.export_sync_file()
                    if fd is not None:
                        uapi.close(fd)
                if k % 10 == 9:
                    img = ctx.read_pixels()
                    assert (img == [round(i / 8 * 255), round((k % 4) / 4 * 255), 128, 255]).all(), (i, k)
            images[i] = ctx.read_pixels()
        except Exception as e:                # noqa: BLE001 - reported below
            errors.append(e)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)              # switch threads as often as possible
    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors[:3]
    for i, img in images.items():
        assert (img == [round(i / 8 * 255), round((ROUNDS - 1) % 4 / 4 * 255), 128, 255]).all()
    for ctx in contexts:
        screen.fence_finish(ctx.pipe.flush(), PIPE_TIMEOUT_INFINITE)
        ctx.destroy()
    assert not screen.pending or all(s.done for s in screen.pending)
    screen.destroy()
