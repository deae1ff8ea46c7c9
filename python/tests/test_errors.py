"""Bad input raises AnalysisError with the CLI's one-line message, never crashes Python."""
import pytest

import tflite_analyze as tfa
from conftest import cli

PREFIX = "tflite-analyze: error: "


def cli_message(*args):
    code, _, err = cli(*args, check=False)
    assert code == 2
    return err.strip().removeprefix(PREFIX)


def test_missing_file(tmp_path):
    missing = tmp_path / "missing.tflite"
    with pytest.raises(tfa.AnalysisError) as raised:
        tfa.analyze(missing)
    assert str(raised.value) == cli_message("report", missing, "--json")


def test_file_that_is_no_model(tmp_path):
    garbage = tmp_path / "garbage.tflite"
    garbage.write_bytes(b"\x10\x00\x00\x00TFL3" + bytes(range(256)) * 4)
    with pytest.raises(tfa.AnalysisError) as raised:
        tfa.analyze(garbage)
    assert str(raised.value) == cli_message("report", garbage, "--json")
    with pytest.raises(tfa.AnalysisError):
        tfa.run(garbage)


def test_unknown_delegate(small_model):
    with pytest.raises(tfa.AnalysisError, match="no such profile file"):
        tfa.analyze(small_model, delegates=["warp-drive"])


def test_impossible_input_shape(small_model):
    with pytest.raises(tfa.AnalysisError) as raised:
        tfa.analyze(small_model, input_shapes={"no_such_input": [1]})
    assert str(raised.value) == cli_message("report", small_model, "--json", "--input-shape",
                                            "no_such_input=1")


def test_input_array_of_the_wrong_shape(small_model):
    numpy = pytest.importorskip("numpy")
    with pytest.raises(tfa.AnalysisError, match="input"):
        tfa.run(small_model, inputs={0: numpy.zeros((3, 3), numpy.float32)})
