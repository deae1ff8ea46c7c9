"""Model Explorer extension: `model-explorer --extensions=tflite_analyze` loads this module
(Model Explorer imports an extension package's `main`) and lists "tflite-analyze" among its node
data providers. Run on the model being viewed, it colours the graph with one of the overlays of
`report --model-explorer` (docs/model-explorer.md), for the delegates the user names.

The extension API is Model Explorer's (google-ai-edge/model-explorer,
src/server/package/src/model_explorer/node_data_provider.py and node_data_builder.py): a
NodeDataProvider subclass with metadata, get_config_editors and run, whose result is one graph's
GraphNodeData.
"""
from model_explorer import (GetConfigEditorsResult, NodeDataProvider, NodeDataProviderMetadata,
                            NodeDataProviderResult)
from model_explorer.config_editor import DropDownConfigEditor, OptionItem, TextInputConfigEditor
from model_explorer.node_data_builder import GradientItem, GraphNodeData, NodeDataResult

from ._api import AnalysisError, model_explorer_overlays

EXTENSION_ID = "tflite-analyze"
OVERLAYS = {
    "delegate.json": "Delegate (or CPU fallback reason)",
    "copy_bytes.json": "Bytes copied at delegate boundaries",
    "arena_offset.json": "Output offset in the arena",
    "arena_size.json": "Output bytes in the arena",
    "live_arena.json": "Live arena bytes at each step",
}


class TfliteAnalyzeNodeData(NodeDataProvider):
    """Predicted delegation and memory of a .tflite, per node."""

    metadata = [
        NodeDataProviderMetadata(
            id=EXTENSION_ID,
            name="tflite-analyze",
            description="Which delegate takes each node, copies at its boundaries, and the "
                        "tensor arena, as TFLite plans them",
            icon="memory",
        )
    ]

    def get_config_editors(self, extension_id: str) -> GetConfigEditorsResult:
        if extension_id != EXTENSION_ID:
            return GetConfigEditorsResult(error=f"unknown extension {extension_id}")
        return GetConfigEditorsResult(configEditors=[
            TextInputConfigEditor(id="delegates", label="Delegates (comma-separated)",
                                  defaultValue="gpu"),
            DropDownConfigEditor(id="overlay", label="Figure", defaultValue="delegate.json",
                                 options=[OptionItem(label=label, value=name)
                                          for name, label in OVERLAYS.items()]),
        ])

    def run(self, extension_id: str, model_path: str, config_values: dict) -> NodeDataProviderResult:
        delegates = [d.strip() for d in str(config_values.get("delegates", "")).split(",")
                     if d.strip()]
        overlay = config_values.get("overlay", "delegate.json")
        if overlay not in OVERLAYS:
            return NodeDataProviderResult(error=f"unknown figure {overlay}")
        try:
            graphs = model_explorer_overlays(model_path, delegates=delegates)[overlay]
        except AnalysisError as e:
            return NodeDataProviderResult(error=str(e))
        if not graphs:
            return NodeDataProviderResult(error=f"{model_path}: no graph to colour")
        # The provider colours the graph the adapter shows first: subgraph 0.
        return NodeDataProviderResult(result=graph_node_data(next(iter(graphs.values()))))


def graph_node_data(graph: dict) -> GraphNodeData:
    """One graph of an overlay file as Model Explorer's GraphNodeData."""
    return GraphNodeData(
        results={node: NodeDataResult(value=entry["value"], bgColor=entry.get("bgColor"))
                 for node, entry in graph.get("results", {}).items()},
        gradient=[GradientItem(stop=g["stop"], bgColor=g.get("bgColor"))
                  for g in graph.get("gradient", [])],
        showExpandedSummaryOnGroupNode=graph.get("showExpandedSummaryOnGroupNode", False),
        showLabelCountColumnsInChildrenStatsTable=graph.get(
            "showLabelCountColumnsInChildrenStatsTable", False),
    )
