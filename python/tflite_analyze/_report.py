"""Typed views of the JSON that `tflite-analyze report --json` and `run --json` print.

Each class keeps the dictionary it was made from: `to_dict()` returns exactly the command's JSON
(docs/report-json.md), and the attributes name the parts users reach for most.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass(frozen=True)
class Allocation:
    """One tensor (or kernel temporary) the arena planner placed."""
    tensor: int
    offset: int
    size: int
    first_node: int
    last_node: int
    temporary_of: Optional[dict] = None
    persistent: bool = False

    @classmethod
    def from_dict(cls, d: dict) -> "Allocation":
        return cls(d["tensor"], d["offset"], d["size"], d["first_node"], d["last_node"],
                   d.get("temporary_of"), d.get("persistent", False))


@dataclass(frozen=True)
class Arena:
    """An ArenaPlanner result: sizes in bytes and the placements of its last plan."""
    size: int
    persistent_size: int
    lower_bound: int
    peak_step: Optional[int]
    allocations: list[Allocation]

    @classmethod
    def from_dict(cls, d: dict) -> "Arena":
        return cls(d["size"], d["persistent_size"], d["lower_bound"], d.get("peak_step"),
                   [Allocation.from_dict(a) for a in d.get("allocs", [])])


@dataclass(frozen=True)
class Partition:
    """A run of nodes that one delegate kernel (or the CPU) executes."""
    kind: str  # "delegate" or "cpu"
    delegate: Optional[str]
    nodes: list[int]
    inputs: list[int]
    outputs: list[int]
    bytes_to_delegate: int
    bytes_from_delegate: int

    @classmethod
    def from_dict(cls, d: dict) -> "Partition":
        return cls(d["kind"], d.get("delegate"), d["nodes"], d.get("inputs", []),
                   d.get("outputs", []), d.get("bytes_to_delegate", 0),
                   d.get("bytes_from_delegate", 0))


@dataclass(frozen=True)
class RejectedNode:
    """A node a delegate declined, with the delegate's reason."""
    node: int
    op: str
    delegate: str
    reason: str

    @classmethod
    def from_dict(cls, d: dict) -> "RejectedNode":
        return cls(d["node"], d["op"], d["delegate"], d["reason"])


@dataclass(frozen=True)
class Subgraph:
    """One subgraph's partitions, copies and arenas."""
    index: int
    node_count: int
    partitions: list[Partition]
    rejected_nodes: list[RejectedNode]
    arena: Arena
    arena_cpu_only: Optional[Arena]
    bytes_to_delegates: int
    bytes_from_delegates: int

    @property
    def delegated_partitions(self) -> list[Partition]:
        return [p for p in self.partitions if p.kind == "delegate"]

    @classmethod
    def from_dict(cls, d: dict) -> "Subgraph":
        copy = d.get("copy", {})
        cpu_only = d.get("arena_cpu_only")
        return cls(d["index"], d["nodes"], [Partition.from_dict(p) for p in d["partitions"]],
                   [RejectedNode.from_dict(n) for n in d.get("unsupported_nodes", [])],
                   Arena.from_dict(d["arena"]),
                   Arena.from_dict(cpu_only) if cpu_only else None,
                   copy.get("bytes_to_delegate", 0), copy.get("bytes_from_delegate", 0))


@dataclass(frozen=True)
class Report:
    """What `tflite-analyze report --json` says about one model."""
    model: str
    delegates: list[str]
    subgraphs: list[Subgraph]
    min_runtime_version: Optional[str]
    resident_bytes: Optional[int]
    _json: dict = field(repr=False, compare=False)

    @property
    def partitions(self) -> list[Partition]:
        """Every subgraph's partitions, in subgraph order."""
        return [p for s in self.subgraphs for p in s.partitions]

    @property
    def rejected_nodes(self) -> list[RejectedNode]:
        return [n for s in self.subgraphs for n in s.rejected_nodes]

    @property
    def arena(self) -> Arena:
        """The arena of subgraph 0 (the entry subgraph), as `report` shows it first."""
        return self.subgraphs[0].arena

    @property
    def allocations(self) -> list[Allocation]:
        return self.arena.allocations

    def to_dict(self) -> dict:
        """The report as `report --json` prints it (docs/report-json.md)."""
        return self._json

    @classmethod
    def from_dict(cls, d: dict) -> "Report":
        version = d.get("min_runtime_version") or {}
        return cls(d["model"], list(d.get("delegates", [])),
                   [Subgraph.from_dict(s) for s in d["subgraphs"]], version.get("minimum"),
                   (d.get("interpreter") or {}).get("resident_bytes"), d)


@dataclass(frozen=True)
class RunResult:
    """One `tflite-analyze run`: the outputs of the first Invoke and what it measured."""
    outputs: dict[str, Any]  # output name -> numpy.ndarray
    measured: dict[str, Any]  # figures in bytes or counts; "rss": the process's resident memory
    latency_ms: float
    validated: Optional[bool]  # None unless validate=True
    # With validate=True: {"prediction": {"ok", ...}, "outputs": {"ok", "state", ...}, "ok"}
    # (`run --json`'s "verdict", docs/cli.md); None otherwise.
    verdict: Optional[dict] = field(default=None, compare=False)
    _json: dict = field(default_factory=dict, repr=False, compare=False)

    def to_dict(self) -> dict:
        """The run as `run --json` prints it."""
        return self._json


@dataclass(frozen=True)
class GateResult:
    """A `tflite-analyze gate` verdict: `passed` is False where the command exits 1."""
    passed: bool
    verdict: dict = field(repr=False)

    def __bool__(self) -> bool:
        return self.passed


@dataclass(frozen=True)
class TflmReport:
    """What `tflite-analyze report --json --target tflm` says about one model: TFLite Micro's
    tensor arena (docs/tflm.md). `fits` is None without an arena budget."""
    model: str
    target: str
    head: int
    tail: int
    allocator_objects: int
    arena_used_bytes: int
    allocate_tensors_peak: int
    recommended_arena_size: int
    resolver: list[str]
    fits: Optional[bool] = None
    _json: dict = field(default_factory=dict, repr=False, compare=False)

    def to_dict(self) -> dict:
        """The report as `report --json --target ...` prints it (docs/report-json.md)."""
        return self._json

    @classmethod
    def from_dict(cls, d: dict) -> "TflmReport":
        t = d["tflm"]
        budget = t.get("arena_budget")
        return cls(d["model"], t["target"], t["head"], t["tail"], t["allocator_objects"],
                   t["arena_used_bytes"], t["allocate_tensors_peak"],
                   t["recommended_arena_size"], [r["op"] for r in t.get("resolver", [])],
                   budget["fits"] if budget else None, d)
