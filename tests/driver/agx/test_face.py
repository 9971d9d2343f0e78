"""driver.Context: the whole stack from GL calls to pixels."""

import numpy as np

import driver


def test_clear_read_pixels_and_png(tmp_path):
    ctx = driver.Context(api="gles3", width=64, height=48)
    ctx.glClearColor(0.2, 0.4, 0.6, 1.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    img = ctx.read_pixels()
    assert img.shape == (48, 64, 4)
    assert (img == [51, 102, 153, 255]).all()
    ctx.glEnable(ctx.GL_SCISSOR_TEST)
    ctx.glScissor(10, 5, 20, 10)
    ctx.glClearColor(1, 0, 0, 1)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    img = ctx.read_pixels()
    assert (img[5:15, 10:30] == [255, 0, 0, 255]).all()
    assert (img[:5] == [51, 102, 153, 255]).all() and (img[15:] == [51, 102, 153, 255]).all()
    assert ctx.glGetError() == 0
    path = tmp_path / "out.png"
    ctx.save_png(path)
    from PIL import Image
    png = np.asarray(Image.open(path))
    assert (png[::-1] == img).all()


def test_context_manager_region_and_dir():
    with driver.Context(api="gl33", width=8, height=4) as ctx:
        assert "glDrawArrays" in dir(ctx) and ctx.GL_TRIANGLES == 4
        ctx.glClearColor(1, 1, 1, 1)
        ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
        assert ctx.read_pixels(2, 1, 3, 2).shape == (2, 3, 4)
        assert (ctx.read_pixels(2, 1, 3, 2) == 255).all()


def test_contexts_in_threads_share_the_screen():
    import threading
    results, errors = {}, []

    def work(i):
        try:
            ctx = driver.Context(api="gles3", width=32, height=32)
            for k in range(3):
                ctx.glClearColor(i / 4, k / 4, 0.5, 1.0)
                ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
                ctx.glFlush()
            results[i] = ctx.read_pixels()
        except Exception as e:            # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    for i, img in results.items():
        assert (img == [round(i / 4 * 255), 128, 128, 255]).all()
