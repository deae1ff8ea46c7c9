"""The Model Explorer overlays from Python, and the node data provider extension (run against a
transcription of Model Explorer's extension API, tests/stubs)."""
import dataclasses
import json
import os
import sys

import tflite_analyze as tfa
from conftest import cli

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "stubs"))
from tflite_analyze import main as extension  # noqa: E402  (needs the stub on the path)


def test_overlays_equal_the_files_report_writes(default_model, tmp_path):
    cli("report", default_model, "--delegate", "gpu", "--model-explorer", tmp_path)
    files = {name: json.loads((tmp_path / name).read_text()) for name in os.listdir(tmp_path)}
    assert tfa.model_explorer_overlays(default_model, delegates=["gpu"]) == files
    assert {"delegate.json", "copy_bytes.json", "live_arena.json"} <= set(files)


def test_the_extension_serves_the_delegate_overlay_of_subgraph_0(default_model):
    provider = extension.TfliteAnalyzeNodeData()
    editors = provider.get_config_editors(extension.EXTENSION_ID)
    assert [e.id for e in editors.configEditors] == ["delegates", "overlay"]
    result = provider.run(extension.EXTENSION_ID, str(default_model),
                          {"delegates": "gpu", "overlay": "delegate.json"})
    assert result.error == ""
    graph = next(iter(tfa.model_explorer_overlays(default_model, ["gpu"])["delegate.json"].values()))
    assert {node: r.value for node, r in result.result.results.items()} == {
        node: entry["value"] for node, entry in graph["results"].items()}
    # Model Explorer's runner sends the result through dataclasses.asdict and JSON.
    json.dumps(dataclasses.asdict(result))


def test_the_extension_reports_a_bad_model_as_an_error(tmp_path):
    provider = extension.TfliteAnalyzeNodeData()
    result = provider.run(extension.EXTENSION_ID, str(tmp_path / "missing.tflite"),
                          {"delegates": "gpu", "overlay": "live_arena.json"})
    assert result.result is None and "missing.tflite" in result.error
