"""A stand-in for Model Explorer's extension API (pip package ai-edge-model-explorer, not in
Debian), transcribed from google-ai-edge/model-explorer src/server/package/src/model_explorer/
node_data_provider.py: the classes and fields tflite_analyze.main uses, so its tests run here."""
from dataclasses import dataclass
from typing import Union

from .config_editor import ConfigEditor
from .node_data_builder import GraphNodeData


@dataclass
class NodeDataProviderMetadata:
    id: str = ""
    name: str = ""
    description: str = ""
    icon: str = "extension"
    filter: Union[object, None] = None


@dataclass
class NodeDataProviderResult:
    result: Union[GraphNodeData, None] = None
    error: str = ""


@dataclass
class GetConfigEditorsResult:
    configEditors: Union[list[ConfigEditor], None] = None
    error: str = ""


class NodeDataProvider:
    metadata: Union[NodeDataProviderMetadata, list[NodeDataProviderMetadata]] = \
        NodeDataProviderMetadata()
