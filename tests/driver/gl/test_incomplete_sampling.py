"""Sampling an incomplete or unbound texture returns (0, 0, 0, 1) (GL 4.6 section
11.1.3.5) for every sampler dimensionality: the driver binds a null descriptor of the
sampler's kind (a 2D one for a 1D sampler made the GPU fault: the texture unit read a
second coordinate the instruction does not give)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

CASES = [(E.GL_TEXTURE_1D, "sampler1D", "texture1D", "0.5"),
         (E.GL_TEXTURE_2D, "sampler2D", "texture2D", "vec2(0.5)"),
         (E.GL_TEXTURE_3D, "sampler3D", "texture3D", "vec3(0.5)"),
         (E.GL_TEXTURE_CUBE_MAP, "samplerCube", "textureCube", "vec3(0.5, 0.2, 0.1)")]


@pytest.mark.parametrize("target,sampler,fn,coord", CASES, ids=[c[1] for c in CASES])
def test_an_incomplete_texture_samples_as_opaque_black(target, sampler, fn, coord):
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        g.glBindTexture(target, g.glGenTextures(1)[0])          # no image: incomplete
        fs = g.glCreateShader(E.GL_FRAGMENT_SHADER)
        g.glShaderSource(fs, 1, [f"#version 120\nuniform {sampler} s;\n"
                                 f"void main() {{ gl_FragColor = {fn}(s, {coord}) + vec4(0.0, 0.0, 0.25, 0.0); }}\n"])
        g.glCompileShader(fs)
        p = g.glCreateProgram()
        g.glAttachShader(p, fs)
        g.glLinkProgram(p)
        g.glUseProgram(p)
        g.glRecti(-1, -1, 1, 1)
        assert g.glGetError() == E.GL_NO_ERROR and g.internal_errors == []
        pixels = c.read_pixels().reshape(-1, 4)
    # (0, 0, 0, 1) + (0, 0, 0.25, 0): blue 0.25 -> 64 of 255, alpha 1
    assert (pixels == [0, 0, 64, 255]).all(), pixels[0]
