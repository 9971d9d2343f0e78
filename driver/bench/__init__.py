"""driver.bench: the project's GL benchmark workloads (``glbench.py``, a standalone
PyOpenGL EGL script run by ``shimgl bench`` on shimgl and on Mesa's drivers)."""
