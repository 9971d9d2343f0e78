"""GL_SAMPLE_MASK_VALUE is indexed state (GL 4.6 table 23.19, ARB_texture_multisample):
glGetIntegeri_v(SAMPLE_MASK_VALUE, word) answers the word glSampleMaski set, all bits at
first; a word at or past MAX_SAMPLE_MASK_WORDS is INVALID_VALUE."""

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def test_sample_mask_words_are_answered_by_index():
    ctx = driver.Context(api="gl33", width=4, height=4)
    assert ctx.glGetIntegeri_v(E.GL_SAMPLE_MASK_VALUE, 0) == [0xFFFFFFFF]
    ctx.glSampleMaski(0, 0x5)
    assert ctx.glGetIntegeri_v(E.GL_SAMPLE_MASK_VALUE, 0) == [0x5]
    words = ctx.glGetIntegerv(E.GL_MAX_SAMPLE_MASK_WORDS)[0]
    assert words == 1
    assert ctx.glGetIntegeri_v(E.GL_SAMPLE_MASK_VALUE, words) is None
    expect(ctx, E.GL_INVALID_VALUE)
    assert ctx.glGetIntegeri_v(E.GL_SAMPLE_MASK_VALUE, 0) == [0x5]
