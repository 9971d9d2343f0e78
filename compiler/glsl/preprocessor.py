"""The GLSL preprocessor (Mesa's glcpp, written again from the specifications).

What it does, in order:
1. joins lines ending in a backslash and replaces comments by spaces (a
   multi-line comment collapses onto its first line, as in glcpp);
2. splits each logical line into preprocessing tokens (identifiers, numbers,
   punctuators) that remember their column and the white space before them;
3. runs directives (`#define`, `#undef`, `#if`/`#ifdef`/`#ifndef`/`#elif`/
   `#else`/`#endif`, `#error`, `#pragma`, `#extension`, `#version`, `#line`,
   and `#include` with ARB_shading_language_include) and expands macros on
   every active text line.

The result has exactly one output line per logical input line (directives and
skipped lines become empty lines) and a line map giving each output line's
source-string number and line number, so the lexer reports the positions of
the original text. A line where nothing was expanded is copied verbatim, so its
columns are exact too.

`#include` (compiler/glsl/include.py looks the path up among the named strings
the GL gives) preprocesses the included string in place, with the macros and
conditionals of the including one; its lines are located by the path the
directive names (as its `__FILE__`), and the including string's numbering
resumes after it. The result's `flat_source` is the source with each `#include`
replaced by the included text between `#line N "path"` directives that keep
every position: a text that compiles the same without the named strings (the
GL keeps it as the compiled source, so later changes to the strings change
nothing, as the extension requires).

Version handling: `#version` must come before anything but comments and white
space; without it the version is 1.10. `__VERSION__`, `GL_ES`,
`GL_core_profile`, `GL_compatibility_profile`, `GL_FRAGMENT_PRECISION_HIGH`
and one macro per extension we expose are predefined.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import InfoLog, SourceLoc
from collections.abc import Collection

from .include import MAX_INCLUDE_DEPTH, IncludeError, Includes, parse_path

from .versions import (DEFAULT_VERSION, Extension, GLSLVersion, extension_table,
                       parse_version)

# ---------------------------------------------------------------------------
# Tokens

_PUNCTUATORS = sorted(
    """<<= >>= ## ++ -- << >> <= >= == != && || ^^ += -= *= /= %= &= |= ^=
    # ( ) [ ] { } . , ; : ? + - * / % < > = ! ~ & | ^""".split(),
    key=len, reverse=True)
_TOKEN_RE = re.compile(
    r"(?P<ws>[ \t\v\f\r]*)(?:"
    r"(?P<id>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<num>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)"
    r"|(?P<punct>" + "|".join(re.escape(p) for p in _PUNCTUATORS) + r")"
    r"|(?P<other>\S))")


@dataclass(slots=True)
class PPToken:
    kind: str  # "id", "num", "punct", "other"
    text: str
    column: int  # 1-based column in the logical line (0 for synthesized tokens)
    ws: str = ""  # white space that preceded the token
    hide: frozenset = frozenset()  # macros that must not expand this token again

    def copy(self, **kw) -> "PPToken":
        t = PPToken(self.kind, self.text, self.column, self.ws, self.hide)
        for k, v in kw.items():
            setattr(t, k, v)
        return t


def tokenize_line(text: str) -> list[PPToken]:
    toks = []
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m or m.lastgroup is None:
            break
        kind = m.lastgroup
        toks.append(PPToken(kind, m.group(kind), m.start(kind) + 1, m.group("ws")))
        pos = m.end()
    return toks


def _render(tokens: list[PPToken]) -> str:
    return "".join(t.ws + t.text for t in tokens)


# ---------------------------------------------------------------------------
# Phase 1: line splicing and comments


@dataclass(slots=True)
class _LogicalLine:
    text: str
    line: int  # physical line number (1-based) where it starts
    start: int = 0  # its span in the source text: [start, end), the newline excluded
    end: int = 0


def _split_logical_lines(source: str, log: InfoLog, src: int | str = 0) -> list[_LogicalLine]:
    """Join continuation lines, replace comments by spaces; one entry per line kept."""
    lines: list[_LogicalLine] = []
    cur: list[str] = []
    start_line = line = 1
    start = 0
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c == "\\" and source.startswith("\n", i + 1):
            i += 2
            line += 1
            continue
        if c == "\\" and source.startswith("\r\n", i + 1):
            i += 3
            line += 1
            continue
        if c == "\n":
            lines.append(_LogicalLine("".join(cur), start_line, start, i))
            cur = []
            i += 1
            start = i
            line += 1
            start_line = line
            continue
        if c == "/" and source.startswith("//", i):
            j = i
            while j < n and source[j] != "\n":
                if source[j] == "\\" and source.startswith("\n", j + 1):
                    line += 1
                    j += 1
                j += 1
            i = j
            continue
        if c == "/" and source.startswith("/*", i):
            end = source.find("*/", i + 2)
            if end < 0:
                log.error(SourceLoc(src, line, len("".join(cur)) + 1),
                          "unterminated comment", preprocessor=True)
                end = n
            body = source[i:end + 2]
            newlines = body.count("\n")
            cur.append(" " if newlines else " " * len(body))
            line += newlines
            i = end + 2
            continue
        cur.append(c)
        i += 1
    if cur or not lines:
        lines.append(_LogicalLine("".join(cur), start_line, start, n))
    return lines


# ---------------------------------------------------------------------------
# Macros


@dataclass(slots=True)
class Macro:
    name: str
    params: list[str] | None  # None: object-like
    body: list[PPToken]
    builtin: bool = False

    def same_as(self, other: "Macro") -> bool:
        """C rules for a benign redefinition: same parameters, same tokens."""
        def shape(toks):
            return [(t.text, bool(t.ws) and i > 0) for i, t in enumerate(toks)]
        return self.params == other.params and shape(self.body) == shape(other.body)


@dataclass
class PreprocessResult:
    """Everything the preprocessor learned; `preprocess()` returns its first four."""

    text: str
    version: GLSLVersion
    profile: str  # "es", "core" or "compatibility"
    extensions: dict[str, str]  # name -> behaviour ("require", "enable", "warn", "disable")
    line_map: list[tuple[int, int]]  # output line index -> (source number, line number)
    pragmas: list[str] = field(default_factory=list)
    version_loc: SourceLoc = SourceLoc()
    invariant_all: bool = False
    extension_locs: dict[str, SourceLoc] = field(default_factory=dict)
    # the source with every #include replaced by the text it included (between #line
    # directives that keep the positions); None when nothing was included
    flat_source: str | None = None


class _Cond:
    __slots__ = ("loc", "active", "taken", "has_else", "parent_active")

    def __init__(self, loc, parent_active, active):
        self.loc = loc
        self.parent_active = parent_active
        self.active = parent_active and active
        self.taken = self.active
        self.has_else = False


class _ExprError(Exception):
    pass


class Preprocessor:
    """One run over one shader source; see the module docstring."""

    def __init__(self, source: str, log: InfoLog | None = None, stage: str | None = None,
                 compat_context: bool | None = None, available: Collection[str] | None = None,
                 includes: Includes | None = None):
        self.log = log if log is not None else InfoLog()
        self.includes = includes     # the named strings #include may name (None: none)
        self.included = False        # an #include was carried out
        self._include: tuple[str, bool, int] | None = None   # set by an #include directive
        self._include_depth = 0
        self._cond_base = 0          # conditionals of the strings that include this one
        self._raw_line = ""          # the logical line of the directive being run
        self.compat_context = compat_context
        self.available = available   # the GL context's GLSL extensions (None: all we know)
        self.profile_token: str | None = None  # the profile named by #version, if any
        self.stage = stage
        self.source = source
        self.macros: dict[str, Macro] = {}
        self.conds: list[_Cond] = []
        self.version: GLSLVersion = DEFAULT_VERSION
        self.version_seen = False
        self.seen_content = False  # a token other than #version seen yet
        self.seen_code = False  # a non-directive token seen yet
        self.extensions: dict[str, str] = {}
        self.extension_locs: dict[str, SourceLoc] = {}
        self.pragmas: list[str] = []
        self.invariant_all = False
        self.version_loc = SourceLoc()
        self.src_no: int | str = 0   # a source-string number, or the path of an included string
        self.cur_line = 1
        self.cur_col = 1

    # -- diagnostics -------------------------------------------------------

    def _loc(self, col: int | None = None) -> SourceLoc:
        return SourceLoc(self.src_no, self.cur_line, col if col else self.cur_col)

    def error(self, msg: str, col: int | None = None) -> None:
        self.log.error(self._loc(col), msg, preprocessor=True)

    def warning(self, msg: str, col: int | None = None) -> None:
        self.log.warning(self._loc(col), msg, preprocessor=True)

    # -- driver ------------------------------------------------------------

    @property
    def active(self) -> bool:
        return not self.conds or self.conds[-1].active

    def run(self) -> PreprocessResult:
        lines = _split_logical_lines(self.source, self.log)
        out: list[str] = []
        line_map: list[tuple[int | str, int]] = []
        flat: list[str] = []
        self._define_builtins()
        self._run_lines(lines, self.source, out, line_map, flat, None)
        for cond in self.conds:
            self.log.error(cond.loc, "Unterminated #if", preprocessor=True)
        if not self.version_seen and not self.seen_content:
            self._implicit_version()
        return PreprocessResult(
            text="\n".join(out), version=self.version, profile=self.version.profile,
            extensions=dict(self.extensions), line_map=line_map, pragmas=self.pragmas,
            version_loc=self.version_loc, invariant_all=self.invariant_all,
            extension_locs=dict(self.extension_locs),
            flat_source="".join(flat) if self.included else None)

    def _run_lines(self, lines: list[_LogicalLine], text: str, out: list[str],
                   line_map: list[tuple[int | str, int]], flat: list[str],
                   including: tuple[str, ...] | None) -> None:
        """Preprocess the logical `lines` of one string (`text`: a shader source, or the
        named string at tree location `including`), appending to `out`/`line_map`, and
        its text with every `#include` replaced by what it includes to `flat`."""
        line_offset = 0  # added to physical line numbers after #line
        flat_pos = 0     # `text` up to here is in `flat`
        i = 0
        while i < len(lines):
            ll = lines[i]
            i += 1
            self.cur_line = ll.line + line_offset
            toks = tokenize_line(ll.text)
            line_map.append((self.src_no, self.cur_line))
            if toks and toks[0].text == "#":
                self._raw_line = ll.text
                new_line = self._directive(toks)
                out.append("")
                if new_line is not None:
                    # The next physical line gets number new_line.
                    nxt = lines[i].line if i < len(lines) else ll.line + 1
                    line_offset = new_line - nxt
                include, self._include = self._include, None
                if include is not None:
                    flat.append(text[flat_pos:ll.start])
                    flat_pos = ll.end
                    self._include_string(include, out, line_map, flat, including)
                continue
            if not self.active or not toks:
                out.append("")
                continue
            if not self.version_seen and not self.seen_content:
                self._implicit_version()
            self.seen_content = self.seen_code = True
            # A call of a function-like macro may continue on following lines;
            # the joined text stays on the first line, the others become empty.
            joined: list[int] = []
            while self._needs_more_lines(toks) and i < len(lines) and not _is_directive(lines[i].text):
                extra = tokenize_line(lines[i].text)
                if extra:
                    extra[0].ws = extra[0].ws or " "
                toks = toks + extra
                joined.append(lines[i].line + line_offset)
                i += 1
            expanded, changed = self.expand(toks, self.cur_line)
            out.append(_render(expanded) if changed or joined else ll.text)
            for jl in joined:
                out.append("")
                line_map.append((self.src_no, jl))
        flat.append(text[flat_pos:])

    def _include_string(self, include, out, line_map, flat, including) -> None:
        """Preprocess the named string an active `#include` names, in place of the
        directive (ARB_shading_language_include): its lines are located by the path the
        directive gives (as `__FILE__`), and the including string's numbering resumes
        after it. `flat` gets `#line` directives that say the same around its text."""
        path, angle, col = include
        if self.includes is None:
            self.error(f'#include "{path}": no named strings are available to this compile', col)
            return
        try:
            loc = self.includes.resolve(path, angle, including)
        except IncludeError as e:
            self.error(str(e), col)
            return
        if self._include_depth >= MAX_INCLUDE_DEPTH:
            self.error(f'#include "{path}": more than {MAX_INCLUDE_DEPTH} nested #include strings', col)
            return
        self.included = True
        text = self.includes.strings[loc]
        src, line, cond_base = self.src_no, self.cur_line, self._cond_base
        # "#line N" numbers the next line N from GLSL 3.30 / ES 3.00, the directive's own before
        after = 0 if self._line_numbers_next() else 1
        flat.append(f'#line {1 - after} "{path}"\n')
        self.src_no, self._cond_base = path, len(self.conds)
        self._include_depth += 1
        try:
            self._run_lines(_split_logical_lines(text, self.log, path), text, out, line_map, flat, loc)
        finally:
            self._include_depth -= 1
        while len(self.conds) > self._cond_base:     # conditionals close in their own string
            self.log.error(self.conds.pop().loc, "Unterminated #if", preprocessor=True)
        self.src_no, self.cur_line, self._cond_base = src, line, cond_base
        flat.append(f"\n#line {line + 1 - after} {_source_text(src)}")

    def _line_numbers_next(self) -> bool:
        """Whether `#line N` gives N to the next line (GLSL 3.30 / ES 3.00 and later)
        rather than to the directive's own line."""
        return self.version.number >= 330 or (self.version.es and self.version.number >= 300)

    def _needs_more_lines(self, toks: list[PPToken]) -> bool:
        """True when the line ends inside a call of a function-like macro."""
        depth = 0
        pending = False
        for t in toks:
            if t.kind == "id" and t.text in self.macros and self.macros[t.text].params is not None and depth == 0:
                pending = True
                continue
            if pending and depth == 0:
                if t.text == "(":
                    depth = 1
                else:
                    pending = False
                continue
            if depth:
                if t.text == "(":
                    depth += 1
                elif t.text == ")":
                    depth -= 1
                    if depth == 0:
                        pending = False
        return depth > 0 or pending

    # -- built-in macros and version ---------------------------------------

    def _define_builtins(self) -> None:
        for name in ("__LINE__", "__FILE__", "__VERSION__"):
            self.macros[name] = Macro(name, None, [], builtin=True)

    def _apply_version_macros(self) -> None:
        v = self.version
        defs = {"__VERSION__": str(v.number)}
        if v.es:
            defs["GL_ES"] = "1"
            # ES 1.00 section 4.5.4: defined when the fragment language has highp (ours does)
            defs["GL_FRAGMENT_PRECISION_HIGH"] = "1"
        if v.number >= 150 and not v.es:
            defs["GL_core_profile"] = "1"
            if self.profile_token == "compatibility":  # Mesa: only when the token is present
                defs["GL_compatibility_profile"] = "1"
        for ext in extension_table(v, self.available):
            defs[ext.name] = "1"
        for name, value in defs.items():
            self.macros[name] = Macro(name, None, [PPToken("num", value, 0)], builtin=True)
        self.macros["__VERSION__"] = Macro("__VERSION__", None, [], builtin=True)

    def _implicit_version(self) -> None:
        self.version_seen = True
        self._apply_version_macros()

    def _version_directive(self, toks: list[PPToken], hash_col: int) -> None:
        if self.version_seen or self.seen_content:
            self.error("#version must appear on the first line", hash_col)
            return
        self.version_seen = True
        self.version_loc = self._loc(hash_col)
        if len(toks) < 1 or toks[0].kind != "num":
            self.error("syntax error, unexpected NEWLINE, expecting INTEGER", hash_col)
            self._apply_version_macros()
            return
        num = toks[0].text
        if num.startswith("0") and num != "0":
            self.error(f'invalid #version "{num}" (not a decimal constant)', hash_col)
        profile = toks[1].text if len(toks) > 1 else None
        if len(toks) > 2:
            self.error("extra tokens at end of directive", toks[2].column)
        self.profile_token = profile
        version, problem = parse_version(int(num) if num.isdigit() else 0, profile,
                                         self.compat_context)
        if problem:  # Mesa reports these at the version number
            self.log.error(self._loc(toks[0].column), problem)
        self.version = version
        self._apply_version_macros()

    # -- directives ----------------------------------------------------------

    def _directive(self, toks: list[PPToken]) -> int | None:
        """Run one directive line; returns the new line number after `#line`."""
        hash_col = toks[0].column
        self.cur_col = hash_col
        if len(toks) == 1:
            return None  # the null directive
        name_tok, args = toks[1], toks[2:]
        name = name_tok.text
        if name in ("if", "ifdef", "ifndef"):
            self._push_cond(name, args, hash_col)
            return None
        if name in ("elif", "else", "endif"):
            self._change_cond(name, args, hash_col)
            return None
        if not self.active:
            return None
        if name != "version" and not self.version_seen:
            self._implicit_version()
        if name == "version":
            self._version_directive(args, hash_col)
            return None
        self.seen_content = True
        if name == "define":
            self._define(args, hash_col)
        elif name == "undef":
            self._undef(args, hash_col)
        elif name == "error":
            self.error("#error " + _render(args).strip() if args else "#error", hash_col)
        elif name == "pragma":
            self._pragma(args, hash_col)
        elif name == "extension":
            self._extension(args, hash_col)
        elif name == "line":
            return self._line(args, hash_col, self._directive_rest(name_tok))
        elif name == "include":
            self._include_directive(self._directive_rest(name_tok), hash_col)
        else:
            self.error("Illegal non-directive after #", hash_col)
        return None

    def _push_cond(self, name, args, hash_col):
        parent = self.active
        loc = self._loc(hash_col)
        if not parent:
            self.conds.append(_Cond(loc, False, False))
            return
        if not self.version_seen:
            self._implicit_version()
        self.seen_content = True
        if name == "if":
            if not args:
                self.error("#if with no expression", hash_col)
                value = False
            else:
                value = self._eval_condition(args, hash_col)
        else:
            if not args or args[0].kind != "id":
                self.error(f"#{name} needs a macro name" if not args else
                           f"syntax error, unexpected {args[0].text}", hash_col)
                value = False
            else:
                if len(args) > 1:
                    self.error("extra tokens at end of directive", args[1].column)
                value = (args[0].text in self.macros) == (name == "ifdef")
        self.conds.append(_Cond(loc, True, value))

    def _change_cond(self, name, args, hash_col):
        if len(self.conds) <= self._cond_base:
            self.error(f"#{name} without #if", hash_col)
            return
        c = self.conds[-1]
        if name == "endif":
            self.conds.pop()
            return
        if c.has_else:
            self.error("#elif after #else" if name == "elif" else "multiple #else", hash_col)
            return
        if name == "else":
            c.has_else = True
            c.active = c.parent_active and not c.taken
            c.taken = c.taken or c.active
            return
        # elif
        if c.parent_active and not c.taken:
            if not args:
                self.error("#elif with no expression", hash_col)
                value = False
            else:
                value = self._eval_condition(args, hash_col)
            c.active = value
            c.taken = value
        else:
            c.active = False

    def _define(self, args: list[PPToken], hash_col: int) -> None:
        if not args:
            self.error("#define without macro name", hash_col)
            return
        name_tok = args[0]
        if name_tok.kind != "id":
            self.error(f"Invalid macro name \"{name_tok.text}\"", hash_col)
            return
        name = name_tok.text
        if name == "defined":
            self.error('"defined" cannot be used as a macro name', hash_col)
            return
        if name.startswith("GL_"):
            self.error('Macro names starting with "GL_" are reserved.', hash_col)
            return
        if "__" in name:
            if self.version.es and self.version.number <= 300:
                self.error('Macro names containing "__" are reserved for use by the implementation.', hash_col)
                return
            self.warning('Macro names containing "__" are reserved for use by the implementation.', hash_col)
        rest = args[1:]
        params: list[str] | None = None
        if rest and rest[0].text == "(" and not rest[0].ws:
            params = []
            j = 1
            expect_name = True
            while True:
                if j >= len(rest):
                    self.error("syntax error, unexpected NEWLINE", hash_col)
                    return
                t = rest[j]
                j += 1
                if t.text == ")" and (not expect_name or not params):
                    break
                if expect_name and t.kind == "id":
                    if t.text in params:
                        self.error(f'Duplicate macro parameter "{t.text}"', hash_col)
                        return
                    params.append(t.text)
                    expect_name = False
                elif not expect_name and t.text == ",":
                    expect_name = True
                elif not expect_name and t.text == ")":
                    break
                else:
                    self.error(f"syntax error, unexpected {t.text}", hash_col)
                    return
            body = rest[j:]
        else:
            body = rest
        if body:
            body = [t.copy(ws=" " if t.ws else "") for t in body]
            body[0].ws = ""
            if body[0].text == "##" or body[-1].text == "##":
                self.error("'##' cannot appear at either end of a macro expansion", hash_col)
                return
            if params is not None and any(t.text == "#" for t in body):
                # GLSL keeps C's token pasting but not its stringification (there are no strings)
                self.error("'#' (stringification) is not allowed in a GLSL macro", hash_col)
                return
        macro = Macro(name, params, body)
        old = self.macros.get(name)
        if old is not None:
            if old.builtin or not old.same_as(macro):
                self.error(f"Redefinition of macro {name}", hash_col)
                return
        self.macros[name] = macro

    def _undef(self, args, hash_col):
        if not args or args[0].kind != "id":
            self.error("syntax error, unexpected NEWLINE, expecting IDENTIFIER"
                       if not args else f"syntax error, unexpected {args[0].text}", hash_col)
            return
        name = args[0].text
        if len(args) > 1:
            self.error("extra tokens at end of directive", args[1].column)
        if name.startswith("GL_"):
            self.error("Built-in (pre-defined) names beginning with GL_ cannot be undefined.", hash_col)
            return
        if name in ("__LINE__", "__FILE__", "__VERSION__"):
            if self.version.es and self.version.number >= 300:
                self.error("Built-in (pre-defined) names cannot be undefined.", hash_col)
                return
        if "__" in name:
            if self.version.es and self.version.number <= 300:
                self.error('Macro names containing "__" are reserved for use by the implementation.', hash_col)
            else:
                self.warning('Macro names containing "__" are reserved for use by the implementation.', hash_col)
        self.macros.pop(name, None)

    def _pragma(self, args, hash_col=1):
        text = _render(args).strip()
        self.pragmas.append(text)
        if re.fullmatch(r"STDGL\s+invariant\s*\(\s*all\s*\)", text):
            self.invariant_all = True
            if self.stage == "fragment" and self.version.es and self.version.number >= 300:
                # GLSL ES 3.00 section 4.6.1
                self.error("#pragma STDGL invariant(all) cannot be used in a fragment shader", hash_col)

    def _extension(self, args, hash_col):
        words = [t.text for t in args]
        if len(words) != 3 or words[1] != ":" or args[0].kind != "id" or args[2].kind != "id":
            self.log.error(self._loc(hash_col), "syntax error, expected `#extension name : behavior'")
            return
        name, behavior = words[0], words[2]
        if behavior not in ("require", "enable", "warn", "disable"):
            self.log.error(self._loc(args[2].column), f"unknown extension behavior `{behavior}'")
            return
        if self.seen_code:
            if self.version.es:
                self.log.error(self._loc(hash_col),
                               "#extension directive is not allowed in the middle of a shader")
            else:
                self.log.warning(self._loc(hash_col),
                                 "#extension directive is not allowed in the middle of a shader")
        table = {e.name: e for e in extension_table(self.version, self.available)}
        name_loc = self._loc(args[0].column)
        if name == "all":
            if behavior in ("require", "enable"):
                self.log.error(name_loc, f"cannot {behavior} all extensions")
                return
            for ext in table:
                self.extensions[ext] = behavior
            return
        if name not in table:
            stage_word = self.stage or "this"
            msg = f"extension `{name}' unsupported in {stage_word} shader"
            if behavior == "require":
                self.log.error(name_loc, msg)
            elif behavior != "disable":
                self.log.warning(name_loc, msg)
            return
        self.extensions[name] = behavior
        self.extension_locs[name] = self._loc(hash_col)

    def _directive_rest(self, name_tok: PPToken) -> str:
        """The directive line's text after its name (what `#include` and `#line` read
        as text: a quoted path is no preprocessing token)."""
        return self._raw_line[name_tok.column - 1 + len(name_tok.text):]

    def _include_enabled(self) -> bool:
        return self.extensions.get("GL_ARB_shading_language_include") in ("enable", "require", "warn")

    def _include_directive(self, rest: str, hash_col: int) -> None:
        """`#include "path"` / `#include <path>` (ARB_shading_language_include): the
        string is looked up and preprocessed after the directive (`_include_string`)."""
        if not self._include_enabled():
            self.error("#include needs `#extension GL_ARB_shading_language_include'", hash_col)
            return
        text = rest.strip()
        m = re.fullmatch(r'"([^"]*)"(.*)', text) or re.fullmatch(r"<([^>]*)>(.*)", text)
        if m is None:
            self.error('#include expects "path" or <path>', hash_col)
            return
        if m.group(2).strip():
            self.error("extra tokens at end of directive", hash_col)
            return
        self._include = (m.group(1), text.startswith("<"), hash_col)

    def _line(self, args, hash_col, rest: str = "") -> int | None:
        path = None
        m = re.fullmatch(r'(.*?)"([^"]*)"\s*', rest)
        if m is not None:         # #line <line> "<path>" (ARB_shading_language_include)
            if not self._include_enabled():
                self.error("syntax error, unexpected string: #line with a path needs "
                           "`#extension GL_ARB_shading_language_include'", hash_col)
                return None
            path = m.group(2)
            args = tokenize_line(m.group(1))
        toks, _ = self.expand(args, self.cur_line)
        if path is None and toks and toks[-1].kind == "str":      # #line N __FILE__ in an included string
            path = toks.pop().text[1:-1]
        if path is not None and parse_path(path) is None:
            self.error(f'#line: "{path}" is not a valid path', hash_col)
            return None
        nums = []
        for t in toks:
            if t.kind != "num":
                self.error(f"syntax error, unexpected {t.text}", hash_col)
                return None
            try:
                nums.append(int(t.text.rstrip("uU"), 0) if not re.fullmatch(r"0[0-7]+", t.text)
                            else int(t.text, 8))
            except ValueError:
                self.error(f"syntax error, unexpected {t.text}", hash_col)
                return None
        if not 1 <= len(nums) <= (1 if path is not None else 2):
            self.error("syntax error, unexpected NEWLINE", hash_col)
            return None
        if len(nums) == 2:
            self.src_no = nums[1]
        elif path is not None:
            self.src_no = path
        new = nums[0]
        # GLSL 3.30 / ES 3.00 and later: the next line has number `line`;
        # earlier versions: the directive's own line has number `line`.
        if not self._line_numbers_next():
            new += 1
        return new

    def expand(self, tokens: list[PPToken], line: int) -> tuple[list[PPToken], bool]:
        """Macro-expand `tokens` found on `line`; returns (tokens, whether anything changed)."""
        return _expand(self, tokens, line)

    # -- #if expressions -----------------------------------------------------

    def _eval_condition(self, args: list[PPToken], hash_col: int) -> bool:
        toks: list[PPToken] = []
        i = 0
        while i < len(args):  # replace `defined X` and `defined ( X )` first
            t = args[i]
            if t.kind == "id" and t.text == "defined":
                j = i + 1
                paren = j < len(args) and args[j].text == "("
                if paren:
                    j += 1
                if j >= len(args) or args[j].kind != "id":
                    self.error("syntax error, unexpected NEWLINE, expecting IDENTIFIER"
                               if j >= len(args) else f"syntax error, unexpected {args[j].text}", hash_col)
                    return False
                name = args[j].text
                j += 1
                if paren:
                    if j >= len(args) or args[j].text != ")":
                        self.error("syntax error, missing ')' after defined", hash_col)
                        return False
                    j += 1
                toks.append(PPToken("num", "1" if name in self.macros else "0", t.column, t.ws))
                i = j
                continue
            toks.append(t)
            i += 1
        toks, _ = self.expand(toks, self.cur_line)
        try:
            value = _CondParser(toks, self).parse()
        except _ExprError as e:
            self.error(str(e), hash_col)
            return False
        return value != 0


def _source_text(src: int | str) -> str:
    """A source-string number or an included string's path as `#line` writes it."""
    return str(src) if isinstance(src, int) else f'"{src}"'


def _is_directive(text: str) -> bool:
    return text.lstrip().startswith("#")


class _CondParser:
    """Integer expression of #if/#elif (C precedence, GLSL's operator subset)."""

    _BINARY = [
        ("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="),
        ("<<", ">>"), ("+", "-"), ("*", "/", "%"),
    ]

    def __init__(self, toks, pp: Preprocessor):
        self.toks = toks
        self.i = 0
        self.pp = pp
        self.undefined: str | None = None

    def peek(self):
        return self.toks[self.i].text if self.i < len(self.toks) else None

    def parse(self) -> int:
        v = self.binary(0)
        if self.i < len(self.toks):
            raise _ExprError(f"syntax error, unexpected {self.toks[self.i].text}")
        if self.undefined and self.pp.version.es:
            raise _ExprError(f"undefined macro {self.undefined} in expression (illegal in GLES)")
        return v

    def binary(self, level: int) -> int:
        if level == len(self._BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self._BINARY[level]:
            op = self.toks[self.i].text
            self.i += 1
            right = self.binary(level + 1)
            left = self.apply(op, left, right)
        return left

    @staticmethod
    def apply(op, a, b):
        if op in ("/", "%") and b == 0:
            raise _ExprError("division by 0 in preprocessor directive" if op == "/"
                             else "zero modulus in preprocessor directive")
        if op == "/":
            q = abs(a) // abs(b)
            return q if (a >= 0) == (b >= 0) else -q
        if op == "%":
            return a - b * _CondParser.apply("/", a, b)
        ops = {
            "||": lambda: int(bool(a) or bool(b)), "&&": lambda: int(bool(a) and bool(b)),
            "|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b,
            "==": lambda: int(a == b), "!=": lambda: int(a != b), "<": lambda: int(a < b),
            ">": lambda: int(a > b), "<=": lambda: int(a <= b), ">=": lambda: int(a >= b),
            "<<": lambda: a << b if b < 64 else 0, ">>": lambda: a >> b,
            "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
        }
        return ops[op]()

    def unary(self) -> int:
        op = self.peek()
        if op in ("+", "-", "!", "~"):
            self.i += 1
            v = self.unary()
            return {"+": v, "-": -v, "!": int(not v), "~": ~v}[op]
        if op == "(":
            self.i += 1
            v = self.binary(0)
            if self.peek() != ")":
                raise _ExprError("syntax error, unexpected " + (self.peek() or "NEWLINE") + ", expecting ')'")
            self.i += 1
            return v
        if op is None:
            raise _ExprError("syntax error, unexpected NEWLINE")
        t = self.toks[self.i]
        self.i += 1
        if t.kind == "id":
            if self.undefined is None:
                self.undefined = t.text
            return 0
        if t.kind == "num":
            text = t.text.rstrip("uU")
            try:
                if re.fullmatch(r"0[0-7]*", text):
                    return int(text, 8)
                return int(text, 0)
            except ValueError:
                raise _ExprError(f"syntax error, unexpected {t.text}") from None
        raise _ExprError(f"syntax error, unexpected {t.text}")


# ---------------------------------------------------------------------------
# Macro expansion (hide sets, after Prosser's algorithm for C)


def _expand(self: Preprocessor, tokens: list[PPToken], line: int) -> tuple[list[PPToken], bool]:
    """Expand every macro in `tokens`. Returns (tokens, whether anything changed)."""
    out: list[PPToken] = []
    work = list(tokens)
    changed = False
    while work:
        t = work.pop(0)
        if t.kind != "id" or t.text not in self.macros or t.text in t.hide:
            out.append(t)
            continue
        m = self.macros[t.text]
        if m.name == "__LINE__":
            out.append(t.copy(kind="num", text=str(line)))
            changed = True
            continue
        if m.name == "__FILE__":
            # an included string's path (ARB_shading_language_include) is a quoted string
            out.append(t.copy(kind="num", text=str(self.src_no)) if isinstance(self.src_no, int)
                       else t.copy(kind="str", text=f'"{self.src_no}"'))
            changed = True
            continue
        if m.name == "__VERSION__":
            out.append(t.copy(kind="num", text=str(self.version.number)))
            changed = True
            continue
        if m.params is None:
            body = _substitute(self, m, {}, t)
            if body is None:
                return out + work, True
            work[:0] = [b.copy(hide=b.hide | t.hide | {m.name}) for b in body]
            changed = True
            continue
        # function-like: needs '(' next
        if not work or work[0].text != "(":
            out.append(t)
            continue
        args, consumed = _collect_args(work)
        if args is None:
            self.error(f"Macro {m.name} call has unbalanced parentheses", t.column or None)
            return out + [t] + work, True
        if len(args) == 1 and not args[0] and not m.params:
            args = []
        if len(args) != len(m.params):
            self.error(f"Error: macro {m.name} invoked with {len(args)} arguments "
                       f"(expected {len(m.params)})", t.column or None)
            return out + work[consumed:], True
        del work[:consumed]
        body = _substitute(self, m, dict(zip(m.params, args)), t, line)
        if body is None:
            return out + work, True
        work[:0] = [b.copy(hide=b.hide | t.hide | {m.name}) for b in body]
        changed = True
    return out, changed



def _collect_args(work: list[PPToken]):
    """Split `( a , (b, c) )` into argument token lists; returns (args, tokens consumed)."""
    depth = 0
    args: list[list[PPToken]] = [[]]
    for idx, t in enumerate(work):
        if t.text == "(":
            depth += 1
            if depth == 1:
                continue
        elif t.text == ")":
            depth -= 1
            if depth == 0:
                return args, idx + 1
        elif t.text == "," and depth == 1:
            args.append([])
            continue
        args[-1].append(t)
    return None, 0


def _substitute(self: Preprocessor, m: Macro, args: dict, call: PPToken, line: int = 0):
    """Replace parameters (expanded unless next to ##), then paste ## operands."""
    body = m.body
    result: list[PPToken] = []
    for idx, b in enumerate(body):
        if b.kind == "id" and b.text in args:
            near_paste = (idx > 0 and body[idx - 1].text == "##") or \
                         (idx + 1 < len(body) and body[idx + 1].text == "##")
            arg = args[b.text]
            repl = [a.copy() for a in arg] if near_paste else _expand(self, [a.copy() for a in arg], line)[0]
            if repl:
                repl[0] = repl[0].copy(ws=b.ws)
            elif near_paste:
                repl = [PPToken("placemarker", "", 0, b.ws)]
            result.extend(repl)
        else:
            result.append(b.copy())
    # pasting
    pasted: list[PPToken] = []
    i = 0
    while i < len(result):
        t = result[i]
        if t.text == "##" and t.kind == "punct" and pasted and i + 1 < len(result):
            left = pasted.pop()
            right = result[i + 1]
            text = left.text + right.text
            if left.kind == "placemarker":
                new = right.copy(ws=left.ws)
            elif right.kind == "placemarker":
                new = left
            else:
                toks = tokenize_line(text)
                if len(toks) != 1:
                    self.error(f'Pasting "{left.text}" and "{right.text}" does not give a valid '
                               f"preprocessing token.", call.column or None)
                    return None
                new = toks[0].copy(ws=left.ws, column=0)
            pasted.append(new)
            i += 2
            continue
        pasted.append(t)
        i += 1
    pasted = [t for t in pasted if t.kind != "placemarker"]
    if pasted:
        pasted[0] = pasted[0].copy(ws=call.ws)
    for t in pasted:
        t.column = 0
    return pasted


def preprocess_full(source: str, log: InfoLog | None = None, stage: str | None = None,
                    compat_context: bool | None = None,
                    available: Collection[str] | None = None,
                    includes: Includes | None = None) -> PreprocessResult:
    """Run the preprocessor; messages go to `log` (a new one if None).

    `stage` only words messages ("unsupported in fragment shader").
    `compat_context`: whether the GL context is a compatibility one (see
    `versions.parse_version`); None when unknown. `available`: the extensions
    with a shading-language part that the GL context advertises (None: every
    one the compiler implements); only these may be enabled and get a macro.
    `includes`: the named strings `#include` may name and the search paths
    (ARB_shading_language_include; None: no string can be included).
    """
    return Preprocessor(source, log, stage, compat_context, available, includes).run()


__all__ = ["PreprocessResult", "Preprocessor", "preprocess_full", "Extension"]
