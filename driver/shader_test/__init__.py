"""driver.shader_test: an in-process runner of piglit's shader_test format.

    from driver.shader_test import parse_file, run
    result = run(parse_file("t.shader_test"))      # Result(status, messages, api, time_s)
    print(result.piglit_line); sys.exit(result.exit_code)

`parser` turns the text into a `ShaderTest` (requirements, sections, [test]
commands with their line numbers), `executor` runs it over the GL API of a
`driver.Context` (or any context with the same Python GL calling convention),
`probes` holds piglit's tolerances, `textures` the images of piglit's texture
commands. Imports no drmshim: it reaches the GPU only through driver.Context.
See README.md."""

from .executor import Result, choose_api, run, run_file
from .parser import Command, Requirement, Section, ShaderTest, parse, parse_file

__all__ = ["Command", "Requirement", "Result", "Section", "ShaderTest", "choose_api", "parse",
           "parse_file", "run", "run_file"]
