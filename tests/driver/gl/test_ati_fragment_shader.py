"""GL_ATI_fragment_shader through driver.Context(api="compat"): the recording
API and its errors (the specification's Errors section), and shaders drawn
through the compiler and the software GPU against values computed here from
the specification's tables 3.20-3.24."""

import math

import numpy as np
import pytest

from driver.gl import enums as E

N = E.GL_NONE
W = H = 8
R = [E.GL_REG_0_ATI + i for i in range(6)]
CON = [E.GL_CON_0_ATI + i for i in range(8)]
PRIMARY, SECONDARY = E.GL_PRIMARY_COLOR, E.GL_SECONDARY_INTERPOLATOR_ATI
COLOR = np.array([0.3, 0.6, 0.9, 0.4])          # glColor
SECOND = np.array([0.5, 1.0, 0.25, 0.0])        # glSecondaryColor (alpha 0)
TEXCOORD = np.array([0.2, 0.7, 0.4, 0.5])       # glTexCoord4f on unit 0


@pytest.fixture
def ctx():
    import driver
    c = driver.Context(api="compat", width=W, height=H)
    c.glClearColor(1.0, 0.0, 0.0, 1.0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    return c


def define(c, body, name=None):
    if name is not None:
        c.glBindFragmentShaderATI(name)
    c.glBeginFragmentShaderATI()
    body(c)
    c.glEndFragmentShaderATI()
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log[-3:]


def draw(c, z=0.0):
    c.glEnable(E.GL_FRAGMENT_SHADER_ATI)
    c.glColor4f(*COLOR)
    c.glSecondaryColor3f(*SECOND[:3])
    c.glTexCoord4f(*TEXCOORD)
    c.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        c.glVertex3f(x, y, z)
    c.glEnd()
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log[-3:]
    return np.asarray(c.read_pixels())[H // 2, W // 2].astype(float) / 255.0


def near(got, want, tol=1.5 / 255):
    want = np.clip(np.asarray(want, float), 0.0, 1.0)
    assert np.allclose(got[:len(want)], want, atol=tol), (got, want)


def constants(c, values):
    for k, v in enumerate(values):
        c.glSetFragmentShaderConstantATI(CON[k], list(v))


K = [np.array(v) for v in ((0.25, 0.5, 0.75, 0.125), (0.5, 0.25, 0.125, 0.75), (0.75, 0.125, 0.5, 0.25))]


def test_listed_in_compatibility_contexts_only():
    import driver
    assert "GL_ATI_fragment_shader" in driver.Context(api="compat", width=4, height=4).glGetString(E.GL_EXTENSIONS)
    c = driver.Context(api="gl43", width=4, height=4)
    n = c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    assert "GL_ATI_fragment_shader" not in {c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}


def test_fixed_limits_and_enable_state(ctx):
    c = ctx
    assert c.glGetIntegerv(E.GL_NUM_FRAGMENT_REGISTERS_ATI) == [6]
    assert c.glGetIntegerv(E.GL_NUM_FRAGMENT_CONSTANTS_ATI) == [8]
    assert c.glGetIntegerv(E.GL_NUM_PASSES_ATI) == [2]
    assert c.glGetIntegerv(E.GL_NUM_INSTRUCTIONS_PER_PASS_ATI) == [8]
    assert c.glGetIntegerv(E.GL_NUM_INSTRUCTIONS_TOTAL_ATI) == [16]
    assert c.glGetBooleanv(E.GL_COLOR_ALPHA_PAIRING_ATI) == [True]
    assert not c.glIsEnabled(E.GL_FRAGMENT_SHADER_ATI)
    c.glEnable(E.GL_FRAGMENT_SHADER_ATI)
    assert c.glIsEnabled(E.GL_FRAGMENT_SHADER_ATI) and c.glGetBooleanv(E.GL_FRAGMENT_SHADER_ATI) == [True]
    assert c.glGetError() == E.GL_NO_ERROR


# -- arithmetic: each op on constants, colour and alpha alike, against table 3.21 ----------
def _k(i):
    return (CON[i], N, N)


OPS = [
    (E.GL_MOV_ATI, (0,), lambda a: a),
    (E.GL_ADD_ATI, (0, 1), lambda a, b: a + b),
    (E.GL_SUB_ATI, (1, 0), lambda a, b: a - b),
    (E.GL_MUL_ATI, (0, 1), lambda a, b: a * b),
    (E.GL_MAD_ATI, (0, 1, 2), lambda a, b, d: a * b + d),
    (E.GL_LERP_ATI, (0, 1, 2), lambda a, b, d: a * b + (1 - a) * d),
    (E.GL_CND_ATI, (0, 1, 2), lambda a, b, d: np.where(d > 0.5, a, b)),
    (E.GL_CND0_ATI, (0, 1, 2), lambda a, b, d: np.where(d >= 0, a, b)),
    (E.GL_DOT3_ATI, (0, 1), lambda a, b: np.full(4, a[:3] @ b[:3])),
    (E.GL_DOT4_ATI, (0, 1), lambda a, b: np.full(4, a @ b)),
    (E.GL_DOT2_ADD_ATI, (1, 2, 0), lambda a, b, d: np.full(4, a[0] * b[0] + a[1] * b[1] + d[2])),
]


@pytest.mark.parametrize("op,args,fn", OPS, ids=[f"{op:#x}" for op, _a, _f in OPS])
def test_each_op(ctx, op, args, fn):
    c = ctx
    color = {1: c.glColorFragmentOp1ATI, 2: c.glColorFragmentOp2ATI, 3: c.glColorFragmentOp3ATI}[len(args)]
    alpha = {1: c.glAlphaFragmentOp1ATI, 2: c.glAlphaFragmentOp2ATI, 3: c.glAlphaFragmentOp3ATI}[len(args)]
    # at most two different constants per instruction: K[2] comes through REG_1
    flat = [x for i in args for x in (_k(i) if i < 2 else (R[1], N, N))]

    def body(c):
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[1], N, N, *_k(2))
        c.glAlphaFragmentOp1ATI(E.GL_MOV_ATI, R[1], N, *_k(2))
        color(op, R[0], N, N, *flat)
        alpha(op, R[0], N, *flat)
        constants(c, K)
    define(c, body)
    near(draw(c), fn(*(K[i] for i in args)))


def test_cnd_takes_the_negated_third_argument(ctx):
    c = ctx

    def body(c):
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[1], N, N, *_k(2))
        c.glColorFragmentOp3ATI(E.GL_CND_ATI, R[0], N, N, *_k(0), *_k(1), R[1], N, E.GL_NEGATE_BIT_ATI)
        constants(c, K)
    define(c, body)
    near(draw(c)[:3], np.where(-K[2] > 0.5, K[0], K[1])[:3])     # every component: a2


def test_argument_modifiers_in_order_comp_bias_2x_negate(ctx):
    c = ctx
    k = np.array([0.125, 0.25, 0.875, 0.5])

    def body(c):
        # REG_1 = -(2 * ((1 - k) - 0.5)) = 2k - 1; REG_0 = REG_1 * -1 + 0 ... kept positive:
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[1], N, N, CON[0], N,
                                E.GL_COMP_BIT_ATI | E.GL_BIAS_BIT_ATI | E.GL_2X_BIT_ATI | E.GL_NEGATE_BIT_ATI)
        c.glColorFragmentOp2ATI(E.GL_ADD_ATI, R[0], N, N, R[1], N, N, CON[1], N, E.GL_BIAS_BIT_ATI)
        c.glSetFragmentShaderConstantATI(CON[0], list(k))
        c.glSetFragmentShaderConstantATI(CON[1], [1.0, 1.0, 1.0, 1.0])
    define(c, body)
    near(draw(c)[:3], (2 * k - 1 + 0.5)[:3])       # 2k - 1 + (1 - 0.5)


def test_replication_and_destination_masks(ctx):
    c = ctx

    def body(c):
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, CON[2], N, N)            # (0.75, 0.125, 0.5)
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], E.GL_GREEN_BIT_ATI, N, CON[0], E.GL_BLUE, N)
        c.glAlphaFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, CON[1], E.GL_RED, N)
        constants(c, K)
    define(c, body)
    near(draw(c), [0.75, K[0][2], 0.5, K[1][0]])


@pytest.mark.parametrize("mod,scale", [(E.GL_2X_BIT_ATI, 2), (E.GL_4X_BIT_ATI, 4), (E.GL_8X_BIT_ATI, 8),
                                       (E.GL_HALF_BIT_ATI, 0.5), (E.GL_QUARTER_BIT_ATI, 0.25),
                                       (E.GL_EIGHTH_BIT_ATI, 0.125)])
def test_destination_scale_then_saturate(ctx, mod, scale):
    c = ctx
    k = np.array([0.0625, 0.125, 0.5, 0.25])

    def body(c):
        # REG_0 = scale * k - 0.5 (scale, then saturate, on the first instruction only)
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[1], N, mod | E.GL_SATURATE_BIT_ATI, CON[0], N, N)
        c.glAlphaFragmentOp1ATI(E.GL_MOV_ATI, R[1], mod | E.GL_SATURATE_BIT_ATI, CON[0], N, N)
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[2], N, mod, CON[0], N, N)
        c.glColorFragmentOp2ATI(E.GL_SUB_ATI, R[0], N, N, R[2], N, N, R[1], N, N)
        c.glAlphaFragmentOp2ATI(E.GL_ADD_ATI, R[0], N, R[1], N, N, CON[1], N, N)
        c.glSetFragmentShaderConstantATI(CON[0], list(k))
        c.glSetFragmentShaderConstantATI(CON[1], [0.0, 0.0, 0.0, 0.0])
    define(c, body)
    got = draw(c)
    near(got[:3], (scale * k - np.clip(scale * k, 0, 1))[:3])       # what saturation removed
    near(got[3:], [min(scale * k[3], 1.0)])


def test_the_pair_reads_registers_as_before_it(ctx):
    """Colour and alpha instructions of a pair run in parallel: the alpha
    instruction reads REG_0's red before the colour instruction changes it."""
    c = ctx

    def body(c):
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, CON[0], N, N)         # red 0.25
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, CON[1], N, N)         # red 0.5 ...
        c.glAlphaFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, R[0], E.GL_RED, N)       # ... alpha reads 0.25
        constants(c, K)
    define(c, body)
    near(draw(c), [*K[1][:3], 0.25])


def test_alpha_dot_takes_the_colour_result(ctx):
    c = ctx

    def body(c):
        c.glColorFragmentOp2ATI(E.GL_DOT3_ATI, R[0], N, N, *_k(0), *_k(1))
        c.glAlphaFragmentOp2ATI(E.GL_DOT3_ATI, R[0], N, *_k(2), *_k(2))         # arguments ignored
        constants(c, K)
    define(c, body)
    near(draw(c), np.full(4, K[0][:3] @ K[1][:3]))


# -- sources, routing and passes ---------------------------------------------------------------
def test_interpolators_and_texture_coordinates(ctx):
    c = ctx

    def body(c):
        c.glPassTexCoordATI(R[1], E.GL_TEXTURE0, E.GL_SWIZZLE_STR_ATI)
        c.glColorFragmentOp3ATI(E.GL_MAD_ATI, R[0], N, N, R[1], N, N, SECONDARY, N, N, PRIMARY, N, N)
        c.glAlphaFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, PRIMARY, N, N)
    define(c, body)
    near(draw(c), [*(TEXCOORD[:3] * SECOND[:3] + COLOR[:3]), COLOR[3]])


@pytest.mark.parametrize("swizzle,want", [
    (E.GL_SWIZZLE_STQ_ATI, TEXCOORD[[0, 1, 3]] / 4),
    (E.GL_SWIZZLE_STR_DR_ATI, np.array([0.2 / 0.4, 0.7 / 0.4, 1 / 0.4]) / 4),
    (E.GL_SWIZZLE_STQ_DQ_ATI, np.array([0.2 / 0.5, 0.7 / 0.5, 1 / 0.5]) / 4)])
def test_texture_coordinate_swizzles(ctx, swizzle, want):
    c = ctx

    def body(c):
        c.glPassTexCoordATI(R[1], E.GL_TEXTURE0, swizzle)
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, E.GL_QUARTER_BIT_ATI, R[1], N, N)
    define(c, body)
    near(draw(c)[:3], want)


def _texture(c, target, rgb):
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(target, tex)
    faces = [target] if target != E.GL_TEXTURE_CUBE_MAP else \
        [E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + i for i in range(6)]
    for f in faces:
        c.glTexImage2D(f, 0, E.GL_RGB, 1, 1, 0, E.GL_RGB, E.GL_FLOAT, np.array(rgb, np.float32).tobytes())
    c.glTexParameteri(target, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    c.glTexParameteri(target, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    return tex


def test_sample_map_reads_the_enabled_target_of_the_unit(ctx):
    c = ctx
    define(c, lambda c: (c.glSampleMapATI(R[0], E.GL_TEXTURE0, E.GL_SWIZZLE_STR_ATI),
                         c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, R[0], N, N)))
    near(draw(c)[:3], [0, 0, 0])                         # no texture enabled on unit 0: black
    _texture(c, E.GL_TEXTURE_2D, [0.25, 0.5, 0.75])
    near(draw(c)[:3], [0, 0, 0])                         # bound, not enabled
    c.glEnable(E.GL_TEXTURE_2D)
    near(draw(c)[:3], [0.25, 0.5, 0.75])
    _texture(c, E.GL_TEXTURE_CUBE_MAP, [0.75, 0.125, 0.5])
    c.glEnable(E.GL_TEXTURE_CUBE_MAP)                    # the cube map wins over 2D
    near(draw(c)[:3], [0.75, 0.125, 0.5])


def test_two_passes_dependent_read_and_register_lifetimes(ctx):
    """Pass 1 computes a coordinate into REG_1 and a value into REG_2; pass 2
    samples unit 0 at REG_1 (dependent read), keeps REG_2 by routing it to
    itself and reads REG_3, written only in pass 1, as 0."""
    c = ctx
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, tex)
    texels = np.array([[[0.25, 0.0, 0.0], [0.5, 0.0, 0.0]], [[0.75, 0.0, 0.0], [1.0, 0.0, 0.0]]], np.float32)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGB, 2, 2, 0, E.GL_RGB, E.GL_FLOAT, texels.tobytes())
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    c.glEnable(E.GL_TEXTURE_2D)

    def body(c):
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[1], N, N, CON[0], N, N)        # (0.75, 0.75): texel (1, 1)
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[2], N, N, CON[1], N, N)
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[3], N, N, CON[1], N, N)
        c.glSampleMapATI(R[0], R[1], E.GL_SWIZZLE_STR_ATI)
        c.glPassTexCoordATI(R[2], R[2], E.GL_SWIZZLE_STR_ATI)
        c.glColorFragmentOp3ATI(E.GL_MAD_ATI, R[0], N, N, R[2], N, N, R[0], E.GL_RED, N, R[3], N, N)
        c.glSetFragmentShaderConstantATI(CON[0], [0.75, 0.75, 0.0, 0.0])
        c.glSetFragmentShaderConstantATI(CON[1], [0.5, 0.25, 1.0, 0.0])
    define(c, body)
    near(draw(c)[:3], np.array([0.5, 0.25, 1.0]) * 1.0 + 0.0)


def test_local_constants_override_global_ones(ctx):
    c = ctx

    def body(c):
        c.glColorFragmentOp2ATI(E.GL_ADD_ATI, R[0], N, N, *_k(0), *_k(1))
        c.glSetFragmentShaderConstantATI(CON[1], [0.5, 0.0, 0.25, 0.0])          # the shader's own
    c.glSetFragmentShaderConstantATI(CON[0], [0.125, 0.25, 0.0, 0.0])            # global
    c.glSetFragmentShaderConstantATI(CON[1], [1.0, 1.0, 1.0, 1.0])               # global, overridden
    define(c, body)
    near(draw(c)[:3], [0.625, 0.25, 0.25])
    c.glSetFragmentShaderConstantATI(CON[0], [0.0, 0.5, 0.5, 0.0])               # reaches the next draw
    near(draw(c)[:3], [0.5, 0.5, 0.75])


def test_bound_shader_selects_and_default_shader(ctx):
    c = ctx
    define(c, lambda c: c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, PRIMARY, N, N), name=7)
    define(c, lambda c: c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, SECONDARY, N, N), name=0)
    near(draw(c)[:3], SECOND[:3])
    c.glBindFragmentShaderATI(7)
    near(draw(c)[:3], COLOR[:3])
    c.glDisable(E.GL_FRAGMENT_SHADER_ATI)          # fixed function: the primary colour
    c.glBindFragmentShaderATI(0)
    c.glColor4f(*COLOR)
    c.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        c.glVertex2f(x, y)
    c.glEnd()
    near(np.asarray(c.read_pixels())[4, 4] / 255.0, COLOR[:3])


def test_arb_fragment_program_and_glsl_take_precedence(ctx):
    c = ctx
    define(c, lambda c: c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, SECONDARY, N, N))
    text = b"!!ARBfp1.0\nMOV result.color, fragment.texcoord[0];\nEND\n"
    c.glBindProgramARB(E.GL_FRAGMENT_PROGRAM_ARB, 1)
    c.glProgramStringARB(E.GL_FRAGMENT_PROGRAM_ARB, E.GL_PROGRAM_FORMAT_ASCII_ARB, len(text), text)
    c.glEnable(E.GL_FRAGMENT_PROGRAM_ARB)
    near(draw(c)[:3], TEXCOORD[:3])
    c.glDisable(E.GL_FRAGMENT_PROGRAM_ARB)
    fs = c.glCreateShader(E.GL_FRAGMENT_SHADER)
    c.glShaderSource(fs, 1, ["void main() { gl_FragColor = gl_Color; }"], None)
    c.glCompileShader(fs)
    prog = c.glCreateProgram()
    c.glAttachShader(prog, fs)
    c.glLinkProgram(prog)
    c.glUseProgram(prog)
    near(draw(c)[:3], COLOR[:3])
    c.glUseProgram(0)
    near(draw(c)[:3], SECOND[:3])


@pytest.mark.parametrize("mode", ["linear", "exp", "exp2"])
def test_fog_follows_the_shader(ctx, mode):
    c = ctx
    fog, density, z = np.array([0.2, 0.3, 0.8]), 0.4, 0.8
    define(c, lambda c: c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, PRIMARY, N, N))
    c.glFogfv(E.GL_FOG_COLOR, [*fog, 0.0])
    c.glFogf(E.GL_FOG_DENSITY, density)
    c.glFogf(E.GL_FOG_START, 0.0)
    c.glFogf(E.GL_FOG_END, 1.0)
    c.glFogi(E.GL_FOG_MODE, {"linear": E.GL_LINEAR, "exp": E.GL_EXP, "exp2": E.GL_EXP2}[mode])
    c.glEnable(E.GL_FOG)
    f = {"linear": 1.0 - z, "exp": math.exp(-density * z), "exp2": math.exp(-(density * z) ** 2)}[mode]
    near(draw(c, z=-z)[:3], f * COLOR[:3] + (1 - f) * fog, tol=2.5 / 255)


# -- errors: each leaves the definition as it was -------------------------------------------
def err(c):
    e = c.glGetError()
    assert c.glGetError() == E.GL_NO_ERROR
    return e


def test_object_errors(ctx):
    c = ctx
    assert not c.glGenFragmentShadersATI(0) and err(c) == E.GL_INVALID_VALUE     # 0 (None: the C ABI's 0)
    first = c.glGenFragmentShadersATI(3)
    assert first >= 1 and err(c) == E.GL_NO_ERROR
    assert c.glGenFragmentShadersATI(2) == first + 3
    c.glDeleteFragmentShaderATI(first + 1)
    c.glBindFragmentShaderATI(42)                 # bind creates an unused name
    c.glDeleteFragmentShaderATI(628)              # nothing to delete: no error
    assert err(c) == E.GL_NO_ERROR
    c.glBeginFragmentShaderATI()
    for call in (lambda: c.glGenFragmentShadersATI(1), lambda: c.glBindFragmentShaderATI(1),
                 lambda: c.glDeleteFragmentShaderATI(42), c.glBeginFragmentShaderATI):
        call()
        assert err(c) == E.GL_INVALID_OPERATION
    c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, PRIMARY, N, N)
    c.glEndFragmentShaderATI()
    assert err(c) == E.GL_NO_ERROR
    for call in (c.glEndFragmentShaderATI, lambda: c.glPassTexCoordATI(R[0], E.GL_TEXTURE0, E.GL_SWIZZLE_STR_ATI),
                 lambda: c.glSampleMapATI(R[0], E.GL_TEXTURE0, E.GL_SWIZZLE_STR_ATI),
                 lambda: c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, PRIMARY, N, N),
                 lambda: c.glAlphaFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, PRIMARY, N, N)):
        call()
        assert err(c) == E.GL_INVALID_OPERATION


def test_definition_errors(ctx):
    c = ctx
    c.glBeginFragmentShaderATI()
    c.glPassTexCoordATI(R[0], E.GL_REG_1_ATI, E.GL_SWIZZLE_STR_ATI)         # register in the first pass
    assert err(c) == E.GL_INVALID_OPERATION
    c.glPassTexCoordATI(R[1], E.GL_TEXTURE0, E.GL_SWIZZLE_STR_ATI)
    c.glPassTexCoordATI(R[1], E.GL_TEXTURE1, E.GL_SWIZZLE_STR_ATI)          # same register twice
    assert err(c) == E.GL_INVALID_OPERATION
    c.glSampleMapATI(R[2], E.GL_TEXTURE0, E.GL_SWIZZLE_STQ_ATI)             # STR then STQ of one set
    assert err(c) == E.GL_INVALID_OPERATION
    c.glSampleMapATI(R[2], E.GL_TEXTURE0, E.GL_SWIZZLE_STR_DR_ATI)          # the projection may vary
    assert err(c) == E.GL_NO_ERROR
    c.glSampleMapATI(E.GL_REG_6_ATI if hasattr(E, "GL_REG_6_ATI") else R[5] + 1, E.GL_TEXTURE0,
                     E.GL_SWIZZLE_STR_ATI)
    assert err(c) == E.GL_INVALID_ENUM
    c.glPassTexCoordATI(R[3], E.GL_TEXTURE0 + 8, E.GL_SWIZZLE_STR_ATI)
    assert err(c) == E.GL_INVALID_ENUM
    c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, E.GL_TEXTURE0, N, N)   # not an argument
    assert err(c) == E.GL_INVALID_ENUM
    c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, E.GL_2X_BIT_ATI | E.GL_HALF_BIT_ATI, R[1], N, N)
    assert err(c) == E.GL_INVALID_ENUM
    c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, SECONDARY, E.GL_ALPHA, N)
    assert err(c) == E.GL_INVALID_OPERATION
    c.glAlphaFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, SECONDARY, N, N)
    assert err(c) == E.GL_INVALID_OPERATION
    c.glColorFragmentOp3ATI(E.GL_MAD_ATI, R[0], N, N, *_k(0), *_k(1), *_k(2))
    assert err(c) == E.GL_INVALID_OPERATION                                    # three different constants
    c.glColorFragmentOp3ATI(E.GL_MAD_ATI, R[0], N, N, *_k(0), *_k(1), *_k(0))
    assert err(c) == E.GL_NO_ERROR
    c.glAlphaFragmentOp2ATI(E.GL_DOT3_ATI, R[0], N, *_k(0), *_k(1))             # colour was MAD
    assert err(c) == E.GL_INVALID_OPERATION
    c.glColorFragmentOp2ATI(E.GL_DOT4_ATI, R[0], N, N, *_k(0), SECONDARY, N, N)
    assert err(c) == E.GL_INVALID_OPERATION                                    # DOT4 of the secondary's alpha
    c.glColorFragmentOp2ATI(E.GL_DOT4_ATI, R[0], N, N, *_k(0), *_k(1))
    c.glAlphaFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, *_k(0))                     # after a colour DOT4
    assert err(c) == E.GL_INVALID_OPERATION
    for _ in range(6):                                                         # 8 pairs in all
        c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, R[0], N, N)
    assert err(c) == E.GL_NO_ERROR
    c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, R[0], N, N)
    assert err(c) == E.GL_INVALID_OPERATION
    c.glPassTexCoordATI(R[0], E.GL_REG_0_ATI, E.GL_SWIZZLE_STQ_ATI)            # STQ of a register
    assert err(c) == E.GL_INVALID_OPERATION
    c.glPassTexCoordATI(R[0], E.GL_REG_0_ATI, E.GL_SWIZZLE_STR_ATI)            # the second pass
    c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, R[0], N, N)
    c.glPassTexCoordATI(R[1], E.GL_REG_0_ATI, E.GL_SWIZZLE_STR_ATI)            # no third pass
    assert err(c) == E.GL_INVALID_OPERATION
    c.glEndFragmentShaderATI()
    assert err(c) == E.GL_NO_ERROR


def test_end_errors_close_the_definition_and_leave_the_shader_invalid(ctx):
    c = ctx
    c.glBeginFragmentShaderATI()
    c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, PRIMARY, N, N)        # colour in pass 1 ...
    c.glPassTexCoordATI(R[0], R[0], E.GL_SWIZZLE_STR_ATI)
    c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, SECONDARY, N, N)
    assert err(c) == E.GL_NO_ERROR
    c.glEndFragmentShaderATI()                                              # ... of a two-pass shader
    assert err(c) == E.GL_INVALID_OPERATION
    c.glEndFragmentShaderATI()
    assert err(c) == E.GL_INVALID_OPERATION                                 # it was closed
    c.glBeginFragmentShaderATI()
    c.glEndFragmentShaderATI()                                              # no arithmetic instruction
    assert err(c) == E.GL_INVALID_OPERATION
    # an invalid shader draws with the fixed-function stages (the primary colour)
    near(draw(c)[:3], COLOR[:3])


def test_constant_errors_and_display_lists(ctx):
    c = ctx
    c.glSetFragmentShaderConstantATI(E.GL_CON_0_ATI + 8, [0.0] * 4)
    assert err(c) == E.GL_INVALID_ENUM
    define(c, lambda c: c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, CON[3], N, N))
    lst = c.glGenLists(1)
    c.glNewList(lst, E.GL_COMPILE)
    c.glSetFragmentShaderConstantATI(CON[3], [0.25, 0.75, 0.5, 1.0])       # compiled
    c.glEndList()
    near(draw(c)[:3], [0, 0, 0])
    c.glCallList(lst)
    near(draw(c)[:3], [0.25, 0.75, 0.5])


def test_definitions_are_not_compiled_into_display_lists(ctx):
    c = ctx
    lst = c.glGenLists(1)
    c.glNewList(lst, E.GL_COMPILE)
    c.glBindFragmentShaderATI(3)                                           # compiled
    c.glBeginFragmentShaderATI()                                           # executed now
    c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, SECONDARY, N, N)
    c.glEndFragmentShaderATI()
    c.glEndList()
    assert err(c) == E.GL_NO_ERROR
    near(draw(c)[:3], SECOND[:3])               # the default shader (0) was defined
    define(c, lambda c: c.glColorFragmentOp1ATI(E.GL_MOV_ATI, R[0], N, N, PRIMARY, N, N), name=3)
    c.glBindFragmentShaderATI(0)
    c.glCallList(lst)                           # binds 3
    near(draw(c)[:3], COLOR[:3])
