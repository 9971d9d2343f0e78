"""The C host's start pauses the cyclic garbage collector and resumes it
(driver/abi/__init__.py): after the start, collection runs again and what the
start made is in the permanent generation; a Python host's collector is not
touched."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_c_host_start_pauses_then_freezes_and_resumes_collection():
    got = _run("""
        import gc, sys
        sys.argv = [""]                     # what an interpreter our library started has
        import driver.abi as abi
        print(gc.isenabled(), gc.get_freeze_count() == 0)
        import driver.abi.runtime         # (install's imports)
        abi.resume_gc()
        print(gc.isenabled(), gc.get_freeze_count() > 10000)
        abi.resume_gc()                     # once only
        print(gc.isenabled())
        class Cycle:
            pass
        a = Cycle(); a.self = a; del a
        print(gc.collect() >= 1)            # collection works again on what comes after
    """)
    assert got == ["False", "True", "True", "True", "True", "True"]


def test_python_host_collector_is_left_alone():
    got = _run("""
        import gc
        import driver.abi as abi
        enabled = gc.isenabled()
        abi.resume_gc()
        print(enabled, gc.isenabled(), gc.get_freeze_count())
    """)
    assert got == ["True", "True", "0"]
