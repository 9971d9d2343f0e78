"""``shimgl fwtrace``: the firmware queue view, recorded from the firmware code."""

from __future__ import annotations

import json

import pytest

from driver.cli import main
from drmshim.fwtrace_cli import format_trace, trace

WORKED_EXAMPLE = {"commands": [
    {"type": "render", "barrier": {"render": None, "compute": 0}},
    {"type": "compute", "barrier": {"render": None, "compute": None}},
    {"type": "compute", "barrier": {"render": None, "compute": None}},
    {"type": "render", "barrier": {"render": 1, "compute": 2}},
    {"type": "render", "barrier": {"render": None, "compute": None}},
    {"type": "render", "barrier": {"render": 3, "compute": None}},
]}

WORKED_EXAMPLE_OUTPUT = """\
Compute: RUN C1; RUN C2
Vertex: WAIT C0; RUN R1v; WAIT R1f; WAIT C2; RUN R2v; RUN R3v; WAIT R3f; RUN R4v
Fragment: WAIT R1v; RUN R1f; WAIT R2v; RUN R2f; WAIT R3v; RUN R3f; WAIT R4v; RUN R4f
"""


def _run_cli(tmp_path, description, capsys) -> tuple[int, str, str]:
    path = tmp_path / "submission.json"
    path.write_text(json.dumps(description))
    status = main(["fwtrace", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def test_worked_example_of_the_uapi_notes_exactly(tmp_path, capsys):
    status, out, _ = _run_cli(tmp_path, WORKED_EXAMPLE, capsys)
    assert status == 0
    assert out == WORKED_EXAMPLE_OUTPUT


def test_compute_commands_with_render_barriers_wait_in_the_compute_queue():
    events = trace({"commands": [
        {"type": "render", "barrier": {"render": None, "compute": None}},
        {"type": "compute", "barrier": {"render": 1, "compute": None}},
        {"type": "render", "barrier": {"render": None, "compute": None}},
        {"type": "compute", "barrier": {"render": 1, "compute": 1}},  # both implied: R1f waited, C1 ran before
        {"type": "compute", "barrier": {"render": 2, "compute": None}},
    ]})
    assert events == {
        "Compute": ["WAIT R1f", "RUN C1", "RUN C2", "WAIT R2f", "RUN C3"],
        "Vertex": ["RUN R1v", "RUN R2v"],
        "Fragment": ["WAIT R1v", "RUN R1f", "WAIT R2v", "RUN R2f"],
    }


def test_barriers_on_boundary_zero_wait_for_earlier_work():
    events = trace({"commands": [
        {"type": "compute", "barrier": {"render": 0, "compute": 0}},
        {"type": "render", "barrier": {"render": 0, "compute": 0}},
        {"type": "render", "barrier": {"render": 0, "compute": 0}},  # implied by the waits of R1
    ]})
    # The compute queue's own order implies C0; the vertex queue waits once per kind.
    assert events == {
        "Compute": ["WAIT R0f", "RUN C1"],
        "Vertex": ["WAIT R0f", "WAIT C0", "RUN R1v", "RUN R2v"],
        "Fragment": ["WAIT R1v", "RUN R1f", "WAIT R2v", "RUN R2f"],
    }


def test_blits_wait_and_run_in_the_fragment_queue():
    events = trace({"commands": [
        {"type": "compute", "barrier": {"render": None, "compute": None}},
        {"type": "blit", "barrier": {"render": 0, "compute": 1}},
        {"type": "render", "barrier": {"render": None, "compute": None}},
    ]})
    assert events == {
        "Compute": ["RUN C1"],
        "Vertex": ["RUN R2v"],
        "Fragment": ["WAIT C1", "RUN R1f", "WAIT R2v", "RUN R2f"],
    }


def test_format_names_every_queue_even_when_empty():
    assert format_trace({"Compute": [], "Vertex": ["RUN R1v"], "Fragment": ["WAIT R1v", "RUN R1f"]}) == \
        "Compute:\nVertex: RUN R1v\nFragment: WAIT R1v; RUN R1f"


@pytest.mark.parametrize("barrier", [{"render": 2, "compute": None}, {"render": None, "compute": 1}])
def test_illegal_future_boundary_exits_2_with_the_errno(tmp_path, capsys, barrier):
    description = {"commands": [
        {"type": "render", "barrier": {"render": None, "compute": None}},
        {"type": "render", "barrier": barrier},  # boundary 2 while 1 render, or 1 while 0 compute
    ]}
    status, out, err = _run_cli(tmp_path, description, capsys)
    assert status == 2
    assert "EINVAL" in err
    assert out == ""


def test_a_command_may_not_wait_on_its_own_boundary(tmp_path, capsys):
    status, _, err = _run_cli(tmp_path, {"commands": [{"type": "compute", "barrier": {"compute": 1}}]}, capsys)
    assert status == 2 and "EINVAL" in err


def test_malformed_description_exits_1(tmp_path, capsys):
    status, _, err = _run_cli(tmp_path, {"commands": [{"type": "draw"}]}, capsys)
    assert status == 1 and "type" in err
