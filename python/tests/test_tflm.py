"""analyze(target="tflm"...) is `report --json --target ...`, typed (docs/tflm.md)."""
import os
import pathlib

import pytest

import tflite_analyze as tfa
from conftest import cli_json

ORACLE = pathlib.Path(os.environ.get("TFA_ORACLE_DIR", "build/tests/oracle"))
CONV_MODEL = ORACLE / "external/tflite-micro__tensorflow_lite_micro_testing_test_conv_model.tflite"


@pytest.mark.parametrize("flags", [
    {"target": "tflm"},
    {"target": "tflm-32", "abi": "i386", "recording_allocator": True},
    {"target": "tflm-32", "static_memory": True},
    {"target": "tflm-cmsis-nn", "cpu": "cortex-m4"},
], ids=["tflm", "tflm-32-i386-recording", "tflm-32-static", "tflm-cmsis-nn-m4"])
def test_analyze_tflm_equals_report_json(flags):
    cli_flags = ["--target", flags["target"]]
    if "abi" in flags:
        cli_flags += ["--abi", flags["abi"]]
    if "cpu" in flags:
        cli_flags += ["--cpu", flags["cpu"]]
    if flags.get("static_memory"):
        cli_flags.append("--static-memory")
    if flags.get("recording_allocator"):
        cli_flags.append("--recording-allocator")
    report = tfa.analyze(CONV_MODEL, **flags)
    assert isinstance(report, tfa.TflmReport)
    assert report.to_dict() == cli_json("report", CONV_MODEL, "--json", *cli_flags)


def test_tflm_figures_are_upstreams():
    # memory_arena_threshold_test.cc's test_conv_model on a 64-bit host.
    report = tfa.analyze(CONV_MODEL, target="tflm")
    assert (report.target, report.head, report.tail) == ("tflm", 7744, 2088)
    assert report.arena_used_bytes == report.head + report.tail + report.allocator_objects
    assert len(report.resolver) == 6
    assert report.fits is None


def test_arena_budget_that_does_not_fit_is_a_result():
    needed = tfa.analyze(CONV_MODEL, target="tflm").recommended_arena_size
    assert tfa.analyze(CONV_MODEL, target="tflm", arena_budget=needed).fits is True
    short = tfa.analyze(CONV_MODEL, target="tflm", arena_budget=needed - 1)
    assert short.fits is False
    assert short.to_dict()["tflm"]["arena_budget"]["spare"] == -1


def test_tflm_refuses_what_it_has_no_answer_for():
    with pytest.raises(tfa.AnalysisError, match="--delegate"):
        tfa.analyze(CONV_MODEL, delegates=["gpu"], target="tflm")
    with pytest.raises(tfa.AnalysisError, match="--abi"):
        tfa.analyze(CONV_MODEL, target="tflm", abi="i386")
