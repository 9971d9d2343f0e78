"""The GLSL lexer: preprocessed text -> tokens with source locations.

Keywords depend on the version, as in Mesa's glsl_lexer.ll: a word is a
keyword where the version allows it, an error ("illegal use of reserved word")
where the version reserves it, and a plain identifier elsewhere. Whether an
identifier names a type (a struct) is decided by the parser, which owns the
symbol table; built-in type names are keywords here.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import InfoLog, SourceLoc
from .types import builtin_type_names
from .versions import GLSLVersion


class Token(NamedTuple):
    kind: str  # "ident", "type", "keyword", "int", "uint", "float", "double", "bool", "punct", "eof"
    text: str
    loc: SourceLoc
    value: object = None  # numeric value for literals


# keyword -> (desktop version allowed, ES version allowed); 0 = never a keyword.
_KEYWORDS: dict[str, tuple[int, int]] = {
    "attribute": (110, 100), "const": (110, 100), "uniform": (110, 100), "varying": (110, 100),
    "break": (110, 100), "continue": (110, 100), "do": (110, 100), "for": (110, 100),
    "while": (110, 100), "if": (110, 100), "else": (110, 100), "in": (110, 100),
    "out": (110, 100), "inout": (110, 100), "true": (110, 100), "false": (110, 100),
    "discard": (110, 100), "return": (110, 100), "struct": (110, 100), "void": (110, 100),
    "invariant": (120, 100), "centroid": (120, 300), "lowp": (130, 100), "mediump": (130, 100),
    "highp": (130, 100), "precision": (130, 100), "flat": (130, 300), "smooth": (130, 300),
    "noperspective": (130, 0), "switch": (130, 300), "case": (130, 300), "default": (130, 300),
    "layout": (140, 300), "sample": (400, 320), "patch": (400, 320), "subroutine": (400, 0),
    "buffer": (430, 310), "shared": (430, 310), "coherent": (420, 310), "volatile": (420, 310),
    "restrict": (420, 310), "readonly": (420, 310), "writeonly": (420, 310), "precise": (400, 0),
}

# Reserved for future use: using one is an error. (desktop from, ES from)
_RESERVED: dict[str, tuple[int, int]] = {
    w: (110, 100) for w in (
        "asm class union enum typedef template this packed goto inline noinline public "
        "static extern external interface long short half fixed unsigned superp input output "
        "hvec2 hvec3 hvec4 fvec2 fvec3 fvec4 sampler3DRect sizeof cast namespace using").split()
}
_RESERVED.update({w: (110, 100) for w in "dvec2 dvec3 dvec4 double dmat2 dmat3 dmat4".split()})
# Words that later versions make keywords are reserved only where Mesa's lexer reserves them
# (the specifications' reserved lists of 1.30-3.30 do not name them): `buffer' and `shared'
# are never reserved before they are keywords, `patch' only in ES, `sample', `subroutine'
# and `precise' from 4.00 (ES 3.00/3.10), the memory qualifiers from 4.20, `case' and
# `active' from 1.30. Programs of GLSL 1.30-4.10 use `sample' and `buffer' as names.
_RESERVED.update({"lowp": (120, 0), "mediump": (120, 0), "highp": (120, 0), "precision": (120, 0),
                  "switch": (110, 100), "case": (130, 300), "default": (110, 100),
                  "flat": (0, 100), "noperspective": (0, 300), "volatile": (110, 100),
                  "active": (130, 300), "common": (130, 300), "partition": (130, 300),
                  "filter": (130, 300), "image1D": (130, 0), "resource": (420, 300),
                  "coherent": (420, 300), "restrict": (420, 300), "readonly": (420, 300),
                  "writeonly": (420, 300), "layout": (0, 300), "patch": (0, 300),
                  "sample": (400, 300), "subroutine": (400, 300),
                  "precise": (400, 310), "attribute": (0, 300),
                  "varying": (0, 300)})
# GLSL 1.30 section 3.6: the image types (type names from 4.20 or with image load/store,
# which tokenize checks first) and samplerBuffer (a type from 1.40) are reserved.
_RESERVED.update({f"{p}image{d}": (130, 0) for p in ("", "i", "u") for d in (
    "1D", "2D", "3D", "Cube", "1DArray", "2DArray", "Buffer")})
_RESERVED.update({w: (130, 0) for w in ("image1DShadow", "image2DShadow", "image1DArrayShadow",
                                        "image2DArrayShadow", "samplerBuffer")})
# Reserved in GLSL 1.30 only (a layout qualifier identifier from 1.40 on), unless one of
# the extensions that brings it is enabled (Mesa: row_major with ARB_uniform_buffer_object).
_RESERVED_130_ONLY = {"row_major": ("GL_ARB_uniform_buffer_object",)}

# Keywords that an enabled extension brings to earlier versions.
_EXTENSION_KEYWORDS = {
    "buffer": ("GL_ARB_shader_storage_buffer_object",),
    "shared": ("GL_ARB_compute_shader",),
    "layout": ("GL_ARB_explicit_attrib_location", "GL_ARB_uniform_buffer_object",
               "GL_ARB_separate_shader_objects", "GL_ARB_explicit_uniform_location",
               "GL_ARB_shading_language_420pack", "GL_ARB_compute_shader",
               "GL_ARB_shader_storage_buffer_object", "GL_ARB_shader_image_load_store",
               "GL_ARB_shader_atomic_counters", "GL_ARB_fragment_coord_conventions",
               "GL_ARB_conservative_depth", "GL_AMD_conservative_depth", "GL_ARB_tessellation_shader",
               "GL_EXT_shader_framebuffer_fetch_non_coherent"),     # layout(noncoherent) in GLSL ES 1.00
    # memory qualifiers: images and storage blocks both bring them
    **{w: ("GL_ARB_shader_image_load_store", "GL_ARB_shader_storage_buffer_object")
       for w in ("coherent", "volatile", "restrict", "readonly", "writeonly")},
    "precise": ("GL_ARB_gpu_shader5",),
    "sample": ("GL_ARB_gpu_shader5", "GL_OES_shader_multisample_interpolation"),
    "patch": ("GL_ARB_tessellation_shader",),
    "subroutine": ("GL_ARB_shader_subroutine",),
    # EXT_gpu_shader4: interpolation qualifiers for varyings in GLSL 1.10/1.20
    "flat": ("GL_EXT_gpu_shader4",),
    "noperspective": ("GL_EXT_gpu_shader4",),
    "centroid": ("GL_EXT_gpu_shader4",),
}
_GPU_SHADER4 = "GL_EXT_gpu_shader4"

# Reserved words that become identifiers (layout qualifier names) from a version or
# with an extension: (desktop version, ES version, extensions).
_RESERVED_UNTIL = {"packed": (140, 300, ("GL_ARB_uniform_buffer_object",))}

_PUNCT = sorted("""<<= >>= ++ -- << >> <= >= == != && || ^^ += -= *= /= %= &= |= ^=
    ( ) [ ] { } . , ; : ? + - * / % < > = ! ~ & | ^""".split(), key=len, reverse=True)

_TOKEN_RE = re.compile(r"""
  (?P<ws>[ \t\v\f\r]+)
| (?P<float>(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?:lf|LF|[fF])?
           |[0-9]+[eE][+-]?[0-9]+(?:lf|LF|[fF])?
           |[0-9]+(?:lf|LF|[fF]))
| (?P<int>0[xX][0-9a-fA-F]*(?:[uU][lL]|[lL]|[uU])?|[0-9]+(?:[uU][lL]|[lL]|[uU])?)
| (?P<word>[A-Za-z_][A-Za-z0-9_]*)
| (?P<punct>""" + "|".join(re.escape(p) for p in _PUNCT) + r""")
| (?P<bad>.)
""", re.VERBOSE)


def tokenize(text: str, line_map: list[tuple[int, int]], version: GLSLVersion,
             log: InfoLog, extensions=()) -> list[Token]:
    """Split preprocessed `text` into tokens; `line_map[i]` locates output line i.

    `extensions` are the enabled extensions (some add type names).
    """
    type_names = builtin_type_names(version, extensions)
    ext_keywords = {w for w, exts in _EXTENSION_KEYWORDS.items() if any(e in extensions for e in exts)}
    # EXT_gpu_shader4 spells the unsigned type `unsigned int' in GLSL 1.10/1.20
    gpu_shader4 = _GPU_SHADER4 in extensions and not version.at_least(130, 300)
    toks: list[Token] = []
    for idx, line in enumerate(text.split("\n")):
        src, lineno = line_map[idx] if idx < len(line_map) else (0, idx + 1)
        pos = 0
        while pos < len(line):
            m = _TOKEN_RE.match(line, pos)
            kind = m.lastgroup
            s = m.group(kind)
            loc = SourceLoc(src, lineno, pos + 1)
            pos = m.end()
            if kind == "ws":
                continue
            if kind == "word":
                if s == "int" and gpu_shader4 and toks and toks[-1].kind == "unsigned":
                    toks[-1] = Token("type", "uint", toks[-1].loc)    # EXT_gpu_shader4
                    continue
                if s == "unsigned" and gpu_shader4:
                    toks.append(Token("unsigned", s, loc))      # must be followed by `int'
                    continue
                toks.append(_word(s, loc, version, type_names, log, ext_keywords, extensions))
            elif kind == "int":
                toks.append(_integer(s, loc, version, log, extensions))
            elif kind == "float":
                toks.append(_float(s, loc, version, log, extensions))
            elif kind == "punct":
                toks.append(Token("punct", s, loc))
            else:
                log.error(loc, f"syntax error, unexpected character `{s}'" if s != "#" else
                          "syntax error, unexpected '#'")
    for i, t in enumerate(toks):
        if t.kind == "unsigned":
            log.error(t.loc, "`unsigned' must be followed by `int'")
            toks[i] = t._replace(kind="ident")
    # end of file: just after the last character of the last line
    lines = text.split("\n")
    last = line_map[len(lines) - 1] if len(line_map) >= len(lines) else (0, len(lines))
    toks.append(Token("eof", "end of file", SourceLoc(last[0], last[1], len(lines[-1]) + 1)))
    return toks


def _word(s: str, loc: SourceLoc, version: GLSLVersion, type_names, log: InfoLog,
          ext_keywords=frozenset(), extensions=()) -> Token:
    if s in ("true", "false"):
        return Token("bool", s, loc, s == "true")
    kw = _KEYWORDS.get(s)
    if kw and (version.at_least(*kw) and not (s in ("attribute", "varying") and version.at_least(0, 300))
               or s in ext_keywords):
        return Token("keyword", s, loc)
    if s in type_names:
        return Token("type", s, loc)
    res = _RESERVED.get(s)
    until = _RESERVED_UNTIL.get(s)
    if until and (version.at_least(until[0], until[1]) or any(e in extensions for e in until[2])):
        res = None
    if res and version.at_least(*res) or (s in _RESERVED_130_ONLY and not version.es and version.number == 130
                                          and not any(e in extensions for e in _RESERVED_130_ONLY[s])):
        log.error(loc, f"illegal use of reserved word `{s}'")
        return Token("ident", s, loc)
    if "__" in s and not s.startswith("gl_"):
        log.warning(loc, f"identifier `{s}' uses reserved `__' string") if not version.es else \
            log.error(loc, f"identifier `{s}' uses reserved `__' string")
    return Token("ident", s, loc)


def _integer(s: str, loc: SourceLoc, version: GLSLVersion, log: InfoLog, extensions=()) -> Token:
    if s[-1] in "lL":                              # ARB_gpu_shader_int64: 1l, 1ul
        return _integer64(s, loc, log, extensions)
    unsigned = s[-1] in "uU"
    digits = s[:-1] if unsigned else s
    if unsigned and not version.at_least(130, 300) and _GPU_SHADER4 not in extensions:
        log.error(loc, "unsigned integer literals require GLSL 1.30 or GLSL ES 3.00")
    value = _digits_value(digits, s, loc, log)
    if value > 0xFFFFFFFF:
        # GLSL 1.30+: out-of-range literals are an error; Mesa's message.
        log.error(loc, f"literal value `{s}' out of range")
        value &= 0xFFFFFFFF
    if unsigned:
        return Token("uint", s, loc, value)
    if value > 0x7FFFFFFF:
        value -= 1 << 32  # two's complement, as the specifications describe for 1.30+
    return Token("int", s, loc, value)


def _digits_value(digits: str, s: str, loc: SourceLoc, log: InfoLog) -> int:
    """The value of an integer literal's digits (hex, octal or decimal); 0 and an
    error for malformed ones (`s` is the whole literal, for the message)."""
    try:
        if digits.lower().startswith("0x"):
            return int(digits, 16)
        if digits.startswith("0") and len(digits) > 1:
            return int(digits, 8)
        return int(digits, 10)
    except ValueError:
        log.error(loc, f"invalid integer literal `{s}'")
        return 0


def _integer64(s: str, loc: SourceLoc, log: InfoLog, extensions) -> Token:
    unsigned = s[-2] in "uU"
    digits = s[:-2] if unsigned else s[:-1]
    if "GL_ARB_gpu_shader_int64" not in extensions:
        log.error(loc, f"64-bit integer literal `{s}' requires GL_ARB_gpu_shader_int64")
    value = _digits_value(digits, s, loc, log)
    if value >> 64:
        log.error(loc, f"literal value `{s}' out of range")
        value &= (1 << 64) - 1
    if unsigned:
        return Token("uint64", s, loc, value)
    return Token("int64", s, loc, value - (1 << 64) if value >> 63 else value)


def _float(s: str, loc: SourceLoc, version: GLSLVersion, log: InfoLog, extensions=()) -> Token:
    if s[-2:] in ("lf", "LF"):
        if not version.at_least(400, 0) and "GL_ARB_gpu_shader_fp64" not in extensions:
            log.error(loc, "double-precision floating-point literals require GLSL 4.00")
        return Token("double", s, loc, float(s[:-2]))
    if s[-1] in "fF":
        if not version.at_least(120, 300):
            log.error(loc, "the `f' suffix on floating-point literals requires GLSL 1.20 or GLSL ES 3.00")
        s2 = s[:-1]
    else:
        s2 = s
    return Token("float", s, loc, float(s2))
