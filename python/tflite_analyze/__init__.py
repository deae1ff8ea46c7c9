"""tflite-analyze from Python: predict what TensorFlow Lite does with a model (delegate
partitions, boundary copies, the tensor arena) and check it with the project's runtime.

    import tflite_analyze as tfa
    report = tfa.analyze("model.tflite", delegates=["gpu"])
    report.subgraphs[0].partitions, report.arena.size, report.to_dict()
    result = tfa.run("model.tflite", inputs={"input": array}, validate=True)

`model-explorer --extensions=tflite_analyze` adds a node data provider that colours the model in
Model Explorer by delegate, copies or arena use (tflite_analyze/main.py).

Every function runs the same code as the tflite-analyze command (docs/cli.md) and raises
`AnalysisError` with its one-line message on bad input.
"""
from ._api import AnalysisError, Delegate, analyze, gate, info, model_explorer_overlays, run
from ._report import (Allocation, Arena, GateResult, Partition, RejectedNode, Report, RunResult,
                      Subgraph, TflmReport)
from ._tflite_analyze import __version__

__all__ = ["AnalysisError", "Allocation", "Arena", "Delegate", "GateResult", "Partition",
           "RejectedNode", "Report", "RunResult", "Subgraph", "TflmReport", "analyze", "gate", "info",
           "model_explorer_overlays", "run",
           "__version__"]
