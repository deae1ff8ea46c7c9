"""gate(): a baseline round trip, and a regression as a failed verdict rather than an error."""
import json

import tflite_analyze as tfa


def test_gate_passes_on_its_own_baseline_and_fails_on_growth(small_model, tmp_path):
    baseline = tmp_path / "baseline.json"
    assert tfa.gate(small_model, baseline, delegates=["gpu"], update_baseline=True)
    verdict = tfa.gate([small_model], baseline, delegates=["gpu"])
    assert verdict.passed and verdict.verdict["failures"] == 0

    recorded = json.loads(baseline.read_text())
    shrunk = json.dumps(recorded).replace(
        str(tfa.analyze(small_model, delegates=["gpu"]).arena.size), "1000")
    baseline.write_text(shrunk)
    verdict = tfa.gate(small_model, baseline, delegates=["gpu"])
    assert not verdict.passed
    assert verdict.verdict["failures"] >= 1


def test_gate_without_a_baseline_raises(small_model, tmp_path):
    try:
        tfa.gate(small_model, tmp_path / "absent.json")
    except tfa.AnalysisError as e:
        assert "absent.json" in str(e)
    else:
        raise AssertionError("expected AnalysisError")
