"""The package's functions. Each runs a tflite-analyze command in process (the native module
`_tflite_analyze`), so its figures, messages and exit conventions are the CLI's own
(docs/cli.md); results come back typed (`_report`)."""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from . import _tflite_analyze
from ._report import GateResult, Report, RunResult, TflmReport

_EXIT_OK = 0
_EXIT_GATE_FAILED = 1


class AnalysisError(Exception):
    """A bad model, file or argument: carries the CLI's one-line message (without its
    "tflite-analyze: error: " prefix)."""


@dataclass(frozen=True)
class Delegate:
    """A `--delegate` and the options that follow it on the command line.

    `spec`: gpu, xnnpack, nnapi, add-sub, sin, ops=A,B, nodes=i,j or a profile JSON file."""
    spec: str
    max_partitions: Optional[int] = None
    min_nodes_per_partition: Optional[int] = None
    greedy: bool = True
    options: Mapping[str, Any] = field(default_factory=dict)

    def args(self) -> list[str]:
        out = ["--delegate", self.spec]
        if self.max_partitions is not None:
            out += ["--max-partitions", str(self.max_partitions)]
        if self.min_nodes_per_partition is not None:
            out += ["--min-nodes-per-partition", str(self.min_nodes_per_partition)]
        if not self.greedy:
            out.append("--no-greedy")
        for key, value in self.options.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            out += ["--delegate-option", f"{key}={value}"]
        return out


DelegateLike = Union[str, Delegate]


def _delegate_args(delegates: Optional[Iterable[DelegateLike]]) -> list[str]:
    out: list[str] = []
    for d in delegates or ():
        out += (d if isinstance(d, Delegate) else Delegate(str(d))).args()
    return out


def _input_shape_args(input_shapes: Optional[Mapping[Union[str, int], Sequence[int]]]) -> list[str]:
    out: list[str] = []
    for name, dims in (input_shapes or {}).items():
        out += ["--input-shape", f"{name}=" + ",".join(str(int(d)) for d in dims)]
    return out


def _invoke(args: list[str], allowed_exits: tuple[int, ...] = (_EXIT_OK,)) -> tuple[int, bytes]:
    """Runs the command; raises AnalysisError with its message unless it exits as allowed."""
    try:
        code, out, err = _tflite_analyze.invoke([str(a) for a in args])
    except Exception as e:  # a C++ exception the command did not turn into an exit code
        raise AnalysisError(str(e)) from None
    if code not in allowed_exits:
        lines = [line for line in err.splitlines() if line.strip()]
        message = lines[-1] if lines else f"tflite-analyze exited with code {code}"
        raise AnalysisError(message.removeprefix("tflite-analyze: error: "))
    return code, out


def _path(path: Union[str, os.PathLike]) -> str:
    return os.fspath(path)


def analyze(path: Union[str, os.PathLike], delegates: Optional[Iterable[DelegateLike]] = None,
            input_shapes: Optional[Mapping[Union[str, int], Sequence[int]]] = None, *,
            platform: Optional[str] = None, num_threads: Optional[int] = None,
            signature: Optional[str] = None, advise: bool = False, target: Optional[str] = None,
            abi: Optional[str] = None, cpu: Optional[str] = None, static_memory: bool = False,
            recording_allocator: bool = False,
            arena_budget: Optional[Union[int, str]] = None) -> Union[Report, TflmReport]:
    """Predicts delegate partitions, boundary copies and the arena of one model, as
    `tflite-analyze report --json` does. `delegates` apply in order; `input_shapes` maps an
    input to its new shape: its name (tensor name or signature key), its position (an int), or
    "#T" for tensor T, as `--input-shape` names it (docs/cli.md, "Naming an input").

    `target="tflm"`, `"tflm-32"` or `"tflm-cmsis-nn"` answers for TFLite Micro instead (`report
    --target`, docs/tflm.md) and returns a `TflmReport`; `abi`, `cpu` (the Cortex-M core of a
    CMSIS-NN build, whose figures are predicted), `static_memory`, `recording_allocator` and
    `arena_budget` (bytes, or "256K") are its build flags. A budget the model does not fit is
    `TflmReport.fits == False`, not an exception."""
    args = ["report", _path(path), "--json", *_delegate_args(delegates),
            *_input_shape_args(input_shapes)]
    if platform is not None:
        args += ["--platform", platform]
    if num_threads is not None:
        args += ["--num-threads", str(num_threads)]
    if signature is not None:
        args += ["--signature", signature]
    if advise:
        args.append("--advise")
    if target is not None:
        args += ["--target", target]
    if abi is not None:
        args += ["--abi", abi]
    if cpu is not None:
        args += ["--cpu", cpu]
    if static_memory:
        args.append("--static-memory")
    if recording_allocator:
        args.append("--recording-allocator")
    if arena_budget is not None:
        args += ["--arena-budget", str(arena_budget)]
    # Exit 1 is a budget the model does not fit; the JSON says so.
    allowed = (_EXIT_OK, _EXIT_GATE_FAILED) if arena_budget is not None else (_EXIT_OK,)
    _, out = _invoke(args, allowed_exits=allowed)
    d = json.loads(out)
    return TflmReport.from_dict(d) if "tflm" in d else Report.from_dict(d)


def model_explorer_overlays(path: Union[str, os.PathLike],
                            delegates: Optional[Iterable[DelegateLike]] = None,
                            input_shapes: Optional[Mapping[Union[str, int], Sequence[int]]] = None
                            ) -> dict[str, dict]:
    """Model Explorer node data for the model, as `report --model-explorer DIR` writes it: file
    name (`delegate.json`, `copy_bytes.json`, `arena_offset.json`, `arena_size.json`,
    `live_arena.json`) -> its ModelNodeData ({graph id: {"results": {node id: ...}, ...}};
    docs/model-explorer.md)."""
    with tempfile.TemporaryDirectory(prefix="tflite_analyze_") as work:
        _invoke(["report", _path(path), "--json", "--model-explorer", work,
                 *_delegate_args(delegates), *_input_shape_args(input_shapes)])
        overlays = {}
        for name in sorted(os.listdir(work)):
            with open(os.path.join(work, name), encoding="utf-8") as f:
                overlays[name] = json.load(f)
    return overlays


def info(path: Union[str, os.PathLike]) -> dict:
    """The model's subgraphs, inputs, outputs, op histogram and metadata (`info --json`)."""
    _, out = _invoke(["info", _path(path), "--json"])
    return json.loads(out)


def run(path: Union[str, os.PathLike], inputs: Optional[Mapping[Union[str, int], Any]] = None,
        delegates: Optional[Iterable[DelegateLike]] = None, *, validate: bool = False,
        input_seed: int = 1, input_shapes: Optional[Mapping[Union[str, int], Sequence[int]]] = None,
        threads: int = 1, memory_limit: Optional[str] = None,
        tolerance: Optional[float] = None, accept_drift: bool = False,
        reference: Optional[Union[str, os.PathLike]] = None,
        upstream_outputs: Optional[Union[str, os.PathLike]] = None) -> RunResult:
    """Runs the model once on the project's runtime, as `tflite-analyze run` does, and returns
    its outputs (numpy arrays keyed by output tensor name) and the measured figures.

    `inputs` maps an input to an array, the input named as in `analyze(input_shapes=...)`: its
    name, its position (an int) or "#T" for tensor T; inputs not given are generated from
    `input_seed`. With `validate=True`, the prediction is checked against the run and
    `RunResult.validated` says whether it held (a failed check is a result, not an error), and
    `RunResult.verdict` which part failed: the prediction, or the outputs (drift beyond the
    tolerance passes only with `accept_drift=True`). `reference` (with `validate=True`) judges the
    outputs against that model, the float model a quantized one was made from, instead of a
    CPU-only run (`run --reference`). `upstream_outputs` (with `validate=True`) is upstream
    TFLite's own results file for the model (the oracle's `NAME.CONFIG.json`, config `none` or the
    run's delegate): the outputs must match upstream's, and drift from the CPU that upstream's own
    delegate shows passes as upstream's (`run --upstream-outputs`; `RunResult.verdict["upstream"]`)."""
    import numpy as np

    with tempfile.TemporaryDirectory(prefix="tflite_analyze_") as work:
        args = ["run", _path(path), "--json", "--output-dir", os.path.join(work, "out"),
                "--input-seed", str(input_seed), "--threads", str(threads),
                *_delegate_args(delegates), *_input_shape_args(input_shapes)]
        for i, (name, value) in enumerate((inputs or {}).items()):
            file = os.path.join(work, f"input_{i}.npy")
            np.save(file, np.asarray(value), allow_pickle=False)
            args += ["--input", f"{name}={file}"]
        if validate:
            args.append("--validate")
            if accept_drift:
                args.append("--accept-drift")
            if reference is not None:
                args += ["--reference", _path(reference)]
            if upstream_outputs is not None:
                args += ["--upstream-outputs", _path(upstream_outputs)]
        if memory_limit is not None:
            args += ["--memory-limit", memory_limit]
        if tolerance is not None:
            args += ["--tolerance", repr(tolerance)]
        code, out = _invoke(args, allowed_exits=(_EXIT_OK, _EXIT_GATE_FAILED))
        result = json.loads(out)
        if code == _EXIT_GATE_FAILED and not validate:
            raise AnalysisError("run failed")
        names = _output_names(_path(path), result)
        outputs = {name: np.load(file, allow_pickle=False)
                   for name, file in zip(names, result.get("output_files", []))}
    return RunResult(outputs, result.get("measured", {}), result.get("latency_ms", 0.0),
                     result.get("validated") if validate else None,
                     result.get("verdict") if validate else None, result)


def _output_names(path: str, result: dict) -> list[str]:
    """Output file names are TENSOR_NAME.npy (runtime/tensor_files.h); the model's own output
    list gives each its unsanitised name, in the same order."""
    outputs = info(path)["subgraphs"][0]["outputs"]
    files = result.get("output_files", [])
    by_tensor = {o["index"]: o["name"] or str(o["index"]) for o in outputs}
    names = []
    for file in files:
        tensor = int(os.path.basename(file).split("_", 1)[0])
        names.append(by_tensor.get(tensor, str(tensor)))
    return names


def gate(paths: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]],
         baseline: Union[str, os.PathLike], delegates: Optional[Iterable[DelegateLike]] = None, *,
         update_baseline: bool = False, max_arena_growth: Optional[str] = None,
         max_persistent_growth: Optional[str] = None,
         max_copy_bytes_growth: Optional[str] = None, fail_on_shrink: bool = False) -> GateResult:
    """Checks models against a baseline as `tflite-analyze gate` does (docs/ci-gating.md). A
    regression is `GateResult.passed == False`, not an exception; `update_baseline=True` writes
    the baseline instead."""
    models = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    args = ["gate", *[_path(m) for m in models], "--baseline", _path(baseline),
            *_delegate_args(delegates)]
    for flag, value in (("--max-arena-growth", max_arena_growth),
                        ("--max-persistent-growth", max_persistent_growth),
                        ("--max-copy-bytes-growth", max_copy_bytes_growth)):
        if value is not None:
            args += [flag, value]
    if fail_on_shrink:
        args.append("--fail-on-shrink")
    if update_baseline:
        args.append("--update-baseline")
        _invoke(args)
        return GateResult(True, {"baseline": _path(baseline), "updated": True})
    code, out = _invoke(args + ["--json"], allowed_exits=(_EXIT_OK, _EXIT_GATE_FAILED))
    return GateResult(code == _EXIT_OK, json.loads(out))
