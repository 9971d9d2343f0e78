"""The records a driver puts in a shader variant's key, and the conventions the
driver and the compiled shaders share about the state block.

- ``RenderTarget``, ``Blend``: a fragment variant's render targets and their blend
  state (the end-of-tile epilogue, ``compiler/lower/blend.py``), with the names of
  the blend factors and equations (GL 4.6 tables 17.1 and 17.2; the advanced
  equations of KHR_blend_equation_advanced, tables 15.1 and 15.2, which the GLSL
  front end's ``layout(blend_support_*)`` qualifiers name too);
- ``STATE_BLOCK``, ``STATE_BLOCK_UBO``: where a compiled shader reads the
  compatibility profile's built-in state block (``compiler.link.state_block``).

Below every part of the compiler and importing nothing: the hardware driver builds
keys and binds buffers with these without reaching the GLSL front end or the
lowering.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ADVANCED_EQUATIONS", "DEFAULT_RENDER_TARGETS", "EQUATIONS", "FACTORS", "SPILLED_RT_IMAGE_BASE", "STATE_BLOCK",
           "STATE_BLOCK_UBO",
           "Blend", "RenderTarget"]

FACTORS = ("zero", "one", "src_color", "one_minus_src_color", "dst_color", "one_minus_dst_color",
           "src_alpha", "one_minus_src_alpha", "dst_alpha", "one_minus_dst_alpha", "src_alpha_saturate",
           "constant_color", "one_minus_constant_color", "constant_alpha", "one_minus_constant_alpha",
           # dual-source blending (GL 3.3 / ARB_blend_func_extended): the fragment's second
           # colour, the output of index 1 at the same location
           "src1_color", "one_minus_src1_color", "src1_alpha", "one_minus_src1_alpha")
EQUATIONS = ("add", "subtract", "reverse_subtract", "min", "max")
# In the order of the specification's tables 15.1 and 15.2 (and of the GL tokens
# MULTIPLY .. HSL_LUMINOSITY).
ADVANCED_EQUATIONS = ("multiply", "screen", "overlay", "darken", "lighten", "colordodge", "colorburn",
                      "hardlight", "softlight", "difference", "exclusion", "hsl_hue", "hsl_saturation",
                      "hsl_color", "hsl_luminosity")


#: the UBO index of the compatibility profile's built-in state block (``compiler.link.state_block``),
#: named ``STATE_BLOCK`` in ``ShaderInfo.ubos``; the driver binds the state constant buffer
STATE_BLOCK_UBO = 4096
STATE_BLOCK = "gl_State"


@dataclass(frozen=True)
class Blend:
    rgb_func: str = "add"
    rgb_src: str = "one"
    rgb_dst: str = "zero"
    alpha_func: str = "add"
    alpha_src: str = "one"
    alpha_dst: str = "zero"

    def __post_init__(self):
        for f in (self.rgb_src, self.rgb_dst, self.alpha_src, self.alpha_dst):
            assert f in FACTORS, f"unknown blend factor {f!r}"
        assert self.rgb_func in EQUATIONS + ADVANCED_EQUATIONS and self.alpha_func in EQUATIONS, \
            "unknown blend equation"

    @property
    def advanced(self) -> bool:
        """An advanced equation (blend_advanced.py): one equation for colour and alpha,
        the factors unused."""
        return self.rgb_func in ADVANCED_EQUATIONS

    @property
    def uses_src1(self) -> bool:
        return any("src1" in f for f in (self.rgb_src, self.rgb_dst, self.alpha_src, self.alpha_dst))

    @property
    def uses_constant(self) -> bool:
        return any("constant" in f for f in (self.rgb_src, self.rgb_dst, self.alpha_src, self.alpha_dst))


@dataclass(frozen=True)
class RenderTarget:
    """One colour attachment: tile-buffer ``format`` (uapi.isa memory format name),
    the shader-side ``base_type`` (float/int/uint), ``components`` stored,
    ``offset_B`` in the tile record, ``write_mask`` (bit j = memory component j),
    the ``blend`` state (None = no blending) and ``swizzle``: the RGBA channel
    (0-3) stored as memory component j (None: component j is channel j; BGRA
    formats are (2, 1, 0, 3)). ``spilled``: the target is not in tile memory but
    in its image, the shader's image slot ``SPILLED_RT_IMAGE_BASE`` + its index
    (past every image unit a shader may use): read and written with image loads
    and writes."""
    format: str = "unorm8"
    base_type: str = "float"
    components: int = 4
    offset_B: int = 0
    write_mask: int = 0xF
    blend: Blend | None = None
    swizzle: tuple[int, ...] | None = None
    spilled: bool = False

    def __post_init__(self):
        if self.swizzle is not None and tuple(self.swizzle) == tuple(range(self.components)):
            object.__setattr__(self, "swizzle", None)      # one key per target, however the identity is spelt
        assert self.swizzle is None or (len(self.swizzle) == self.components and self.base_type == "float"), \
            "a swizzle names one RGBA channel per stored component (float targets only)"


DEFAULT_RENDER_TARGETS = (RenderTarget(),)
#: image slot of spilled render target i: SPILLED_RT_IMAGE_BASE + i
SPILLED_RT_IMAGE_BASE = 64
