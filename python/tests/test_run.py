"""run() is `run --output-dir`: the same outputs, as numpy arrays, and the same figures."""
import os
import pathlib

import numpy
import pytest

import tflite_analyze as tfa
from conftest import cli, cli_json

MODELS = ["face_detection__face_detection_short_range.tflite", "hands__hand_landmark_lite.tflite"]


def cli_outputs(model, out_dir, *flags):
    result = cli_json("run", model, "--json", "--output-dir", out_dir, *flags)
    return result, [numpy.load(f) for f in result["output_files"]]


@pytest.mark.parametrize("name", MODELS)
def test_outputs_equal_the_cli_outputs(name, tmp_path):
    from conftest import CORPUS
    model = CORPUS / name
    result = tfa.run(model, input_seed=3)
    expected_json, expected = cli_outputs(model, tmp_path, "--input-seed", 3)
    assert len(result.outputs) == len(expected)
    for got, want in zip(result.outputs.values(), expected):
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_array_equal(got, want)
    # The resident memory is each process's own: this Python process's, the CLI's.
    assert {k: v for k, v in result.measured.items() if k != "rss"} == \
        {k: v for k, v in expected_json["measured"].items() if k != "rss"}
    assert set(result.measured["rss"]) == {"before_model", "peak", "peak_above_baseline"}
    assert result.validated is None


def test_given_inputs_are_used(default_model, tmp_path):
    array = numpy.linspace(-1, 1, 128 * 128 * 3, dtype=numpy.float32).reshape(1, 128, 128, 3)
    result = tfa.run(default_model, inputs={"input": array})
    numpy.save(tmp_path / "input.npy", array)
    _, expected = cli_outputs(default_model, tmp_path / "out", "--input", f"input={tmp_path}/input.npy")
    numpy.testing.assert_array_equal(result.outputs["regressors"], expected[0])
    assert set(result.outputs) == {"regressors", "classificators"}


def test_an_input_by_position_or_tensor_index_is_the_same_input(default_model):
    # One meaning everywhere (docs/cli.md, "Naming an input"): an int is the input's position, as
    # analyze(input_shapes=...) takes it; "#T" is tensor T.
    array = numpy.linspace(-1, 1, 128 * 128 * 3, dtype=numpy.float32).reshape(1, 128, 128, 3)
    by_name = tfa.run(default_model, inputs={"input": array}).outputs
    tensor = tfa.info(default_model)["subgraphs"][0]["inputs"][0]["index"]
    for key in (0, f"#{tensor}"):
        outputs = tfa.run(default_model, inputs={key: array}).outputs
        for name, want in by_name.items():
            numpy.testing.assert_array_equal(outputs[name], want)


def test_validate_reports_the_verdict(default_model):
    result = tfa.run(default_model, delegates=["gpu"], validate=True)
    assert result.validated is True
    assert result.measured["delegated_partitions"] == 1
    assert all(check["ok"] for check in result.to_dict()["checks"])
    assert result.verdict["prediction"]["ok"] is True
    assert result.verdict["outputs"]["state"] == "matched"


def test_run_of_an_unrunnable_model_raises_the_cli_message(tmp_path):
    code, _, err = cli("run", tmp_path / "none.tflite", check=False)
    with pytest.raises(tfa.AnalysisError) as raised:
        tfa.run(tmp_path / "none.tflite")
    assert code == 2 and str(raised.value) == err.strip().removeprefix("tflite-analyze: error: ")


def test_upstream_outputs_judge_the_run_against_upstreams_own():
    oracle = pathlib.Path(os.environ.get("TFA_ORACLE_DIR", "build/tests/oracle")) / "external"
    name = "LiteRT__tflite_testdata_multi_add"
    result = tfa.run(oracle / f"{name}.tflite", delegates=["xnnpack"], validate=True,
                     upstream_outputs=oracle / f"{name}.xnnpack.json")
    assert result.validated is True
    upstream = result.verdict["upstream"]
    assert upstream["ok"] is True and upstream["config"] == "xnnpack"
    assert upstream["compared"] == "this run" and upstream["bit_identical_outputs"] == 2
