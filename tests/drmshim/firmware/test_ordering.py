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


def _idle_firmware(executor, listeners=()):
    """Firmware whose three threads run and are all asleep, with nothing queued."""
    fw = Firmware("q", executor, None, list(listeners))
    fw.submit(FirmwareJob([_command("compute", "C1")], on_complete=lambda e: None))   # starts the threads
    assert fw.drain(5)
    deadline = time.monotonic() + 5
    while not all(ring.idle for ring in fw.rings.values()):     # every thread asleep
        assert time.monotonic() < deadline
        time.sleep(0.001)
    return fw


def test_idle_firmware_runs_a_render_in_the_fragment_thread_alone():
    """A render command given to idle firmware wakes the fragment thread once, which
    runs the vertex half and then the fragment half; the vertex thread sleeps on.
    The events are still those of the two firmware queues. (Before, the vertex
    thread was woken for the vertex half and then woke the fragment thread.)"""
    threads = []

    class Recording(NullExecutor):
        def run_vertex(self, command):
            threads.append(("vertex", threading.current_thread().name))

        def run_fragment(self, command):
            threads.append(("fragment", threading.current_thread().name))

    events, done = [], threading.Event()
    fw = _idle_firmware(Recording(), [lambda e: events.append((e.queue, str(e)))])
    events.clear()
    base = {name: ring.wakeups for name, ring in fw.rings.items()}
    fw.submit(FirmwareJob([_command("render", "R1")], on_complete=lambda e: done.set()))
    assert done.wait(5)
    woken = {name: ring.wakeups - base[name] for name, ring in fw.rings.items()}
    fw.stop()
    assert woken == {"Compute": 0, "Vertex": 0, "Fragment": 1}
    assert [half for half, _ in threads] == ["vertex", "fragment"]
    assert all(name.endswith("-Fragment") for _, name in threads)
    assert events == [("Vertex", "RUN R1v"), ("Fragment", "WAIT R1v"), ("Fragment", "RUN R1f")]


def test_idle_firmware_runs_the_vertex_queues_barrier_waits_in_the_fragment_thread():
    """The GL driver's render command waits for all earlier render work (vdm barrier
    0): on idle firmware that WAIT, already met, goes with the vertex half to the
    fragment thread, still as the vertex queue's event."""
    events, done = [], threading.Event()
    fw = _idle_firmware(NullExecutor(), [lambda e: events.append((e.queue, str(e)))])
    events.clear()
    base = {name: ring.wakeups for name, ring in fw.rings.items()}
    fw.submit(FirmwareJob([_command("render", "R1", vdm=0)], on_complete=lambda e: done.set()))
    assert done.wait(5)
    woken = {name: ring.wakeups - base[name] for name, ring in fw.rings.items()}
    fw.stop()
    assert woken == {"Compute": 0, "Vertex": 0, "Fragment": 1}
    assert events == [("Vertex", "WAIT R0f"), ("Vertex", "RUN R1v"), ("Fragment", "WAIT R1v"), ("Fragment", "RUN R1f")]


def test_a_vertex_half_queued_behind_one_the_fragment_thread_runs_waits_for_it():
    """R1 goes to idle firmware (the fragment thread runs R1v); R2, submitted while
    R1v runs, goes to the vertex thread, which must not start R2v before R1v ends."""
    vertex_gate, vertex_started = threading.Event(), threading.Event()
    log = []

    class Gated(NullExecutor):
        def run_vertex(self, command):
            log.append(("vertex", command.name))
            if command.name == "R1":
                vertex_started.set()
                assert vertex_gate.wait(10)
            log.append(("vertex done", command.name))

    done = threading.Event()
    fw = _idle_firmware(Gated())
    fw.submit(FirmwareJob([_command("render", "R1")], on_complete=lambda e: None))
    assert vertex_started.wait(5)
    fw.submit(FirmwareJob([_command("render", "R2")], on_complete=lambda e: done.set()))
    time.sleep(0.1)
    assert ("vertex", "R2") not in log
    vertex_gate.set()
    assert done.wait(5)
    fw.stop()
    assert log == [("vertex", "R1"), ("vertex done", "R1"), ("vertex", "R2"), ("vertex done", "R2")]


def test_a_firmware_thread_is_woken_only_for_work_it_can_start():
    """With the fragment queue busy, a render command's vertex half goes to the vertex
    thread (it runs ahead): the fragment thread is not woken for the WAIT on it but
    once, when the vertex half is done; the vertex thread once per command."""
    fragment_gate, fragment_started = threading.Event(), threading.Event()
    vertex_gate, vertex_started = threading.Event(), threading.Event()

    class Gated(NullExecutor):
        def run_vertex(self, command):
            if command.name == "R2":
                vertex_started.set()
                assert vertex_gate.wait(10)

        def run_fragment(self, command):
            if command.name == "R1":
                fragment_started.set()
                assert fragment_gate.wait(10)

    done = threading.Event()
    fw = _idle_firmware(Gated())
    fw.submit(FirmwareJob([_command("render", "R1")], on_complete=lambda e: None))
    assert fragment_started.wait(5)
    fw.submit(FirmwareJob([_command("render", "R2")], on_complete=lambda e: done.set()))
    assert vertex_started.wait(5)
    base = {name: ring.wakeups for name, ring in fw.rings.items()}
    fragment_gate.set()
    deadline = time.monotonic() + 5
    while not fw.rings["Fragment"].idle:          # R1f done, asleep on the WAIT for R2v
        assert time.monotonic() < deadline
        time.sleep(0.001)
    assert fw.rings["Fragment"].wakeups == base["Fragment"]       # not woken for its WAIT
    vertex_gate.set()
    assert done.wait(5)
    woken = {name: ring.wakeups - base[name] for name, ring in fw.rings.items()}
    fw.stop()
    assert woken == {"Compute": 0, "Vertex": 0, "Fragment": 1}


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
