"""The parsed form of an ARB assembly program (what the parser checks and the
translation to IR reads).

Bindings are canonical strings so two spellings of one GL input
(``vertex.texcoord`` and ``vertex.texcoord[0]``, ``fragment.color`` and
``fragment.color.primary``) compare equal:

- inputs: ``vertex.position``, ``vertex.normal``, ``vertex.color.primary``,
  ``vertex.color.secondary``, ``vertex.fogcoord``, ``vertex.texcoord[n]``,
  ``vertex.attrib[n]``, ``vertex.weight[n]``, ``vertex.matrixindex[n]``;
  ``fragment.color.primary``, ``fragment.color.secondary``,
  ``fragment.texcoord[n]``, ``fragment.fogcoord``, ``fragment.position``;
- outputs: ``result.position``, ``result.color.front.primary`` (and back /
  secondary), ``result.fogcoord``, ``result.pointsize``, ``result.texcoord[n]``;
  ``result.color[n]``, ``result.depth``;
- parameters: one ``ParamBinding`` per vec4 element.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ParamBinding", "ParamArray", "Src", "Dst", "Instruction", "Program", "Limits", "ATTRIB_ALIASES"]

# ARB_vertex_program table X.2.2: the generic attribute each conventional one aliases.
ATTRIB_ALIASES = {"vertex.position": 0, "vertex.weight[0]": 1, "vertex.normal": 2, "vertex.color.primary": 3,
                  "vertex.color.secondary": 4, "vertex.fogcoord": 5,
                  **{f"vertex.texcoord[{i}]": 8 + i for i in range(8)}}


@dataclass(frozen=True)
class ParamBinding:
    """One vec4 of a PARAM.

    ``kind``: "const" (``value`` = 4 floats), "env" / "local" (``index``),
    "state" (``state`` = a tuple naming the GL state, e.g.
    ("light", 2, "diffuse"), ("matrix", "mvp", 0, "", 1) = row 1 of the
    modelview-projection matrix; see ``to_ir._STATE`` for every form)."""
    kind: str
    index: int = 0
    value: tuple = ()
    state: tuple = ()


@dataclass
class ParamArray:
    name: str
    elements: list[ParamBinding]
    is_array: bool            # declared with [] (may be indexed; relative addressing)


@dataclass
class Src:
    """A source operand: ``file`` "temp", "input", "param"; ``name`` (temp name,
    input binding, or ParamArray name); ``index`` the array element (param),
    ``relative`` (address register name, offset) for ``name[A0.x + k]``;
    ``swizzle`` 4 component indices; ``negate``. ``extended`` (SWZ): 4 pairs of
    (component 0-3 or "0"/"1", negate)."""
    file: str
    name: str
    index: int = 0
    relative: tuple | None = None
    swizzle: tuple = (0, 1, 2, 3)
    negate: bool = False
    extended: tuple | None = None


@dataclass
class Dst:
    """``file`` "temp", "output", "address"; ``name`` (temp/address name or the
    output binding); ``mask`` bit i = component i written."""
    file: str
    name: str
    mask: int = 0xF


@dataclass
class Instruction:
    opcode: str                    # without _SAT
    sat: bool
    dst: Dst | None                # None for KIL
    srcs: list[Src]
    position: int                  # byte offset of the opcode
    unit: int | None = None        # TEX/TXP/TXB: texture image unit
    target: str | None = None      # "1D", "2D", "3D", "CUBE", "RECT"


@dataclass(frozen=True)
class Limits:
    """Implementation limits a program is checked against (GL_MAX_PROGRAM_*)."""
    instructions: int = 4096
    alu_instructions: int = 4096
    tex_instructions: int = 4096
    tex_indirections: int = 4096
    temporaries: int = 256
    parameters: int = 4096
    attribs: int = 16
    address_registers: int = 1
    env_parameters: int = 256
    local_parameters: int = 4096
    address_offset: int = 4096       # |k| of a[A0.x + k]: the grammar says 63/64; Mesa (and piglit) allow more
    texture_coords: int = 8
    texture_image_units: int = 16
    draw_buffers: int = 8


@dataclass
class Program:
    target: str                                         # "vertex" or "fragment"
    source: str
    options: set[str] = field(default_factory=set)
    instructions: list[Instruction] = field(default_factory=list)
    temps: list[str] = field(default_factory=list)
    address_regs: list[str] = field(default_factory=list)
    params: dict[str, ParamArray] = field(default_factory=dict)
    inputs: set[str] = field(default_factory=set)       # input bindings read
    outputs: set[str] = field(default_factory=set)      # output bindings written
    textures: dict[int, str] = field(default_factory=dict)   # unit -> target
    param_slots: int = 0                                # PARAM vec4s (incl. inline constants)

    # -- the figures of glGetProgramivARB
    @property
    def num_instructions(self) -> int:
        return len(self.instructions)

    @property
    def num_tex_instructions(self) -> int:
        return sum(1 for i in self.instructions if i.opcode in ("TEX", "TXP", "TXB", "KIL"))

    @property
    def num_alu_instructions(self) -> int:
        return self.num_instructions - self.num_tex_instructions

    @property
    def num_attribs(self) -> int:
        return len(self.inputs)

    @property
    def fog_option(self) -> str | None:
        for o in ("ARB_fog_linear", "ARB_fog_exp", "ARB_fog_exp2"):
            if o in self.options:
                return o[len("ARB_fog_"):]
        return None

    @property
    def position_invariant(self) -> bool:
        return "ARB_position_invariant" in self.options
