"""driver.piglit: runs of the real piglit (Debian's install) against shimgl, with reports.

`tests` picks a tier's tests and the binary for each (piglit's rules,
re-implemented), `runner` runs them in parallel processes with timeouts and a
progress bar (shimgl through the C ABI's EGL vendor, or Mesa's llvmpipe as the
reference), `report` writes results.json / results.csv and summary.md.
The command is `shimgl piglit` (driver/piglit_cli.py). See README.md."""

from .report import summarise, write_results, write_summary
from .runner import Outcome, classify, driver_environment, run_tests
from .profiles import load_list
from .tests import TIERS, PiglitTest, find_piglit, sample, command_for, tier_tests

__all__ = ["TIERS", "Outcome", "PiglitTest", "classify", "driver_environment", "find_piglit", "load_list",
           "run_tests", "sample", "summarise", "command_for", "tier_tests", "write_results", "write_summary"]
