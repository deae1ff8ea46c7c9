"""Model Explorer's node data classes (node_data_builder.py), the fields tflite_analyze.main
uses."""
from dataclasses import dataclass, field
from typing import Union

Num = Union[float, int]


@dataclass
class NodeDataResult:
    value: Union[Num, str]
    bgColor: Union[str, None] = None
    textColor: Union[str, None] = None


@dataclass
class GradientItem:
    stop: Num
    bgColor: Union[str, None] = None
    textColor: Union[str, None] = None


@dataclass
class GraphNodeData:
    results: dict[str, NodeDataResult]
    thresholds: list = field(default_factory=list)
    gradient: list[GradientItem] = field(default_factory=list)
    showExpandedSummaryOnGroupNode: bool = False
    showLabelCountColumnsInChildrenStatsTable: bool = False
