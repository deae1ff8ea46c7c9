"""analyze() is `report --json`, typed."""
import pytest

import tflite_analyze as tfa
from conftest import cli_json, corpus_models

DELEGATE_SETUPS = [[], ["gpu"], ["xnnpack"]]


@pytest.mark.parametrize("model", corpus_models(), ids=lambda p: p.stem)
@pytest.mark.parametrize("delegates", DELEGATE_SETUPS, ids=lambda d: "+".join(d) or "cpu")
def test_analyze_equals_report_json_on_every_corpus_model(model, delegates):
    flags = [arg for d in delegates for arg in ("--delegate", d)]
    assert tfa.analyze(model, delegates=delegates).to_dict() == cli_json(
        "report", model, "--json", *flags)


def test_typed_attributes_are_the_json_figures(default_model):
    report = tfa.analyze(default_model, delegates=["gpu"])
    raw = report.to_dict()["subgraphs"][0]
    subgraph = report.subgraphs[0]
    assert subgraph.node_count == raw["nodes"] == 164
    assert [p.nodes for p in subgraph.partitions] == [p["nodes"] for p in raw["partitions"]]
    assert subgraph.delegated_partitions[0].delegate == "gpu"
    assert subgraph.bytes_to_delegates == raw["copy"]["bytes_to_delegate"] == 196608
    assert report.arena.size == raw["arena"]["size"] == 257536
    assert report.subgraphs[0].arena_cpu_only.size == 1818624
    assert [(a.tensor, a.offset, a.size) for a in report.allocations] == [
        (a["tensor"], a["offset"], a["size"]) for a in raw["arena"]["allocs"]]
    assert report.min_runtime_version == "1.14.0"
    assert report.resident_bytes == report.to_dict()["interpreter"]["resident_bytes"]


def test_rejected_nodes_carry_the_delegates_reasons():
    model = "face_mesh__face_landmark_with_attention.tflite"
    report = tfa.analyze(next(p for p in corpus_models() if p.name == model), delegates=["gpu"])
    assert report.rejected_nodes
    assert all(n.delegate == "gpu" and n.reason for n in report.rejected_nodes)
    assert {n.node for n in report.rejected_nodes} == {
        n["node"] for n in report.to_dict()["subgraphs"][0]["unsupported_nodes"]}


def test_delegate_options_are_the_cli_flags(default_model):
    delegate = tfa.Delegate("gpu", max_partitions=1, min_nodes_per_partition=2,
                            options={"allow_quant_ops": False})
    assert tfa.analyze(default_model, delegates=[delegate]).to_dict() == cli_json(
        "report", default_model, "--json", "--delegate", "gpu", "--max-partitions", 1,
        "--min-nodes-per-partition", 2, "--delegate-option", "allow_quant_ops=false")


def test_input_shapes_resize_before_planning(dynamic_batch_model):
    report = tfa.analyze(dynamic_batch_model, input_shapes={"input": [4, 16]})
    assert report.to_dict() == cli_json("report", dynamic_batch_model, "--json", "--input-shape",
                                        "input=4,16")
    assert report.arena.size == 896  # README's --input-shape example
    assert report.arena.size > tfa.analyze(dynamic_batch_model).arena.size


def test_input_shapes_by_position_are_the_same_input(dynamic_batch_model):
    assert tfa.analyze(dynamic_batch_model, input_shapes={0: [4, 16]}).to_dict() == \
        tfa.analyze(dynamic_batch_model, input_shapes={"input": [4, 16]}).to_dict()


def test_info_is_info_json(small_model):
    assert tfa.info(small_model) == cli_json("info", small_model, "--json")
