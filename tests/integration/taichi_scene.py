"""Taichi from its own virtual environment, on its OpenGL backend
(`ti.init(arch=ti.opengl)`: GLSL 4.30 compute shaders over storage buffers,
atomics): a 64x64 field filled and blurred with a 5-point stencil, a histogram
by atomic adds, a vector field through a matrix product, normalize, log, exp,
pow and floor. Saves the fields to OUT.npz for test_taichi.py, which computes
them with numpy. Nothing of shimgl is imported.

Usage: python taichi_scene.py OUT.npz. Prints "arch ...", then "OK"."""
import sys

import numpy as np
import taichi as ti

ti.init(arch=ti.opengl, log_level=ti.WARN, offline_cache=False)
print("arch", ti.lang.impl.current_cfg().arch.name)
n = 64
a = ti.field(ti.f32, shape=(n, n))
b = ti.field(ti.f32, shape=(n, n))
hist = ti.field(ti.i32, shape=8)
v = ti.Vector.field(3, ti.f32, shape=n)


@ti.kernel
def fill():
    for i, j in a:
        a[i, j] = ti.cast((i * 7 + j * 3) % 11, ti.f32) * 0.5


@ti.kernel
def blur():
    for i, j in b:
        s = a[i, j] * 4.0
        if i > 0:
            s += a[i - 1, j]
        if i < n - 1:
            s += a[i + 1, j]
        if j > 0:
            s += a[i, j - 1]
        if j < n - 1:
            s += a[i, j + 1]
        b[i, j] = s / 8.0


@ti.kernel
def histogram():
    for i, j in a:
        ti.atomic_add(hist[(i * j) % 8], 1)


@ti.kernel
def vectors():
    for i in v:
        m = ti.Matrix([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [1.0, 0.0, 1.0]])
        y = m @ ti.Vector([i * 1.0, i * 0.5, 1.0])
        v[i] = y.normalized() * ti.log(1.0 + i) + ti.Vector([ti.floor(i / 3.0), ti.exp(-i * 0.1), ti.pow(i, 0.5)])


fill()
blur()
histogram()
vectors()
np.savez(sys.argv[1], blur=b.to_numpy(), hist=hist.to_numpy(), vectors=v.to_numpy())
print("OK")
