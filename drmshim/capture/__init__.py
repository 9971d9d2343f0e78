"""drmshim.capture: Freedreno's debugging tools for our stack.

Command-stream capture at SUBMIT time (``SHIMGL_CAPTURE=FILE`` with
``SHIMGL_CAPTURE_OPTS`` in FD_RD_DUMP's style), GPU core dumps on faults
(``SHIMGL_DUMP_DIR``), the forgiving decoder (``shimgl decode``), the crash
decoder (``shimgl crashdec``), replay on a fresh kernel (``shimgl replay``, with
PNGs of the render targets) and ``SHIMGL_DEBUG=trace`` ioctl logging. The file
format is documented in README.md.

May import uapi and layout (and the rest of drmshim); never driver or compiler.
The kernel calls in only through :mod:`.hooks` (two calls in
``drmshim/kernel/kernel.py``). Replay is in :mod:`.replay` (imported on use: it
creates kernels).
"""

from .capture import CaptureOptions, CaptureState, each_path
from .coredump import CoreDumper, Estimate, dump_dir, estimate_location
from .fileformat import MAGIC, VERSION, CaptureFile, Record, Writer, read_bytes, read_file
from .memimage import MappingInfo, MemoryImage, NotCaptured, RecordingMemory
from .streams import CmdEntry, CommandDecode, decode_command, hexdump, parse_cmdbuf, struct_items
from .trace import describe_request, traced

__all__ = ["CaptureOptions", "CaptureState", "each_path", "CoreDumper", "Estimate", "dump_dir",
           "estimate_location", "MAGIC", "VERSION", "CaptureFile", "Record", "Writer", "read_bytes", "read_file",
           "MappingInfo", "MemoryImage", "NotCaptured", "RecordingMemory", "CmdEntry", "CommandDecode",
           "decode_command", "hexdump", "parse_cmdbuf", "struct_items", "describe_request", "traced"]
