"""The firmware queues execute the barrier rules: observed with a gated test GPU."""

from __future__ import annotations

import re
import threading
import time

import pytest

import uapi
from drmshim.firmware import Counters, Firmware, FirmwareCommand, FirmwareJob, NullExecutor
from tests.drmshim.kernel.helpers import NONE, GateExecutor, compute, render


@pytest.fixture
def gpu(open_private):
    executor = GateExecutor()
    kernel, d = open_private(gpu=executor)
    vm = d.vm()
    return executor, kernel, d, d.queue(vm)


def _run(d, queue, cmdbuf):
    out = d.syncobj()
    d.submit(queue, cmdbuf, out_syncs=[out])
    return out


def test_vertex_runs_ahead_of_earlier_fragment_work(gpu):
    executor, _, d, queue = gpu
    gate = executor.gates[("fragment", 1)] = threading.Event()
    out = _run(d, queue, render(vdm_ctrl_stream_base=1) + render(vdm_ctrl_stream_base=2))
    with pytest.raises(OSError):
        d.wait([out], timeout_s=0.1)
    assert ("vertex done", 2) in executor.log  # R2v ran while R1f is still blocked
    assert ("fragment", 2) not in executor.log  # the fragment queue is in order
    gate.set()
    d.wait([out])


def test_a_render_barrier_stops_the_run_ahead(gpu):
    executor, _, d, queue = gpu
    gate = executor.gates[("fragment", 1)] = threading.Event()
    out = _run(d, queue, render(vdm_ctrl_stream_base=1) + render(vdm=1, vdm_ctrl_stream_base=2))
    with pytest.raises(OSError):
        d.wait([out], timeout_s=0.1)
    assert ("vertex", 2) not in executor.log
    gate.set()
    d.wait([out])
    assert executor.log.index(("fragment done", 1)) < executor.log.index(("vertex", 2))


def test_render_and_compute_of_one_queue_run_concurrently(gpu):
    executor, _, d, queue = gpu
    gate = executor.gates[("compute", 1)] = threading.Event()
    out = _run(d, queue, compute(cdm_ctrl_stream_base=1) + render(vdm_ctrl_stream_base=2))
    with pytest.raises(OSError):
        d.wait([out], timeout_s=0.1)
    assert ("fragment done", 2) in executor.log  # the render finished while compute is blocked
    gate.set()
    d.wait([out])


def test_a_compute_barrier_on_a_render_waits_for_compute(gpu):
    executor, _, d, queue = gpu
    gate = executor.gates[("compute", 1)] = threading.Event()
    out = _run(d, queue, compute(cdm_ctrl_stream_base=1) + render(cdm=1, vdm_ctrl_stream_base=2))
    with pytest.raises(OSError):
        d.wait([out], timeout_s=0.1)
    assert ("vertex", 2) not in executor.log
    gate.set()
    d.wait([out])


def test_boundary_zero_waits_for_earlier_jobs(gpu):
    executor, _, d, queue = gpu
    gate = executor.gates[("compute", 1)] = threading.Event()
    first = _run(d, queue, compute(cdm_ctrl_stream_base=1))
    second = _run(d, queue, render(cdm=0, vdm_ctrl_stream_base=2))  # C0: all earlier compute work
    with pytest.raises(OSError):
        d.wait([second], timeout_s=0.1)
    assert ("vertex", 2) not in executor.log
    gate.set()
    d.wait([first, second], flags=uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL)


def test_without_barriers_a_later_job_overtakes_in_another_firmware_queue(gpu):
    executor, _, d, queue = gpu
    gate = executor.gates[("compute", 1)] = threading.Event()
    first = _run(d, queue, compute(cdm_ctrl_stream_base=1))
    second = _run(d, queue, render(vdm_ctrl_stream_base=2))
    d.wait([second])  # done while the first job's compute is still blocked
    assert not d.signaled(first)
    gate.set()
    d.wait([first])


def _command(kind, name, vdm=NONE, cdm=NONE):
    return FirmwareCommand(kind=kind, index=0, name=name, cmd=None, memory=None, vm=None, usc_exec_base=0,
                           config=None, counters=Counters(), vdm_barrier=vdm, cdm_barrier=cdm)


def test_waits_are_numbered_within_each_job_and_not_repeated_across_jobs():
    events = []
    fw = Firmware("q", NullExecutor(), None, [lambda e: events.append((e.job, e.queue, str(e)))])
    done = threading.Event()
    fw.submit(FirmwareJob([_command("render", "R1", cdm=0)], on_complete=lambda e: None))
    fw.submit(FirmwareJob([_command("compute", "C1"), _command("render", "R1", cdm=0)],
                          on_complete=lambda e: done.set()))
    assert done.wait(5)
    fw.stop()
    vertex = [(job, text) for job, queue, text in events if queue == "Vertex"]
    # Job 2's C0 means "after job 1's compute work": already waited in job 1, so implied.
    assert vertex == [(1, "WAIT C0"), (1, "RUN R1v"), (2, "RUN R1v")]


def test_a_firmware_thread_is_woken_only_for_work_it_can_start():
    """The fragment thread is not woken when a render command is queued (its first
    op is a WAIT for the vertex half) but once, when the vertex half is done; the
    vertex thread once per command. (It used to be woken for the WAIT too.)"""
    vertex_gate, vertex_started = threading.Event(), threading.Event()

    class Gated(NullExecutor):
        def run_vertex(self, command):
            vertex_started.set()
            assert vertex_gate.wait(10)

    done = threading.Event()
    fw = Firmware("q", Gated(), None, [])
    fw.submit(FirmwareJob([_command("compute", "C1")], on_complete=lambda e: None))   # starts the threads
    assert fw.drain(5)
    deadline = time.monotonic() + 5
    while not all(ring.idle for ring in fw.rings.values()):     # every thread asleep
        assert time.monotonic() < deadline
        time.sleep(0.001)
    base = {name: ring.wakeups for name, ring in fw.rings.items()}
    fw.submit(FirmwareJob([_command("render", "R1")], on_complete=lambda e: done.set()))
    assert vertex_started.wait(5)
    assert fw.rings["Fragment"].wakeups == base["Fragment"]       # not woken for its WAIT
    vertex_gate.set()
    assert done.wait(5)
    woken = {name: ring.wakeups - base[name] for name, ring in fw.rings.items()}
    fw.stop()
    assert woken == {"Compute": 0, "Vertex": 1, "Fragment": 1}


def test_fw_debug_logs_every_event(open_private, monkeypatch, capsys):
    monkeypatch.setenv("SHIMGL_DEBUG", "sync,fw")
    _, d = open_private()
    queue = d.queue(d.vm())
    d.wait([_run(d, queue, compute() + render(cdm=1))])
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("shimgl fw:")]
    assert all(re.match(r"shimgl fw: file\d+/queue1 job 1 \w+: ", line) for line in lines)
    assert sorted([line.split(": ")[1].split()[-1], line.split(": ")[2]] for line in lines) == sorted([
        ["Compute", "RUN C1"], ["Vertex", "WAIT C1"], ["Vertex", "RUN R1v"],
        ["Fragment", "WAIT R1v"], ["Fragment", "RUN R1f"]])
