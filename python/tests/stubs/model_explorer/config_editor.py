"""Model Explorer's config editors (config_editor.py), the fields tflite_analyze.main uses."""
from dataclasses import dataclass, field


@dataclass
class ConfigEditor:
    id: str
    label: str


@dataclass
class OptionItem:
    label: str
    value: str


@dataclass
class TextInputConfigEditor(ConfigEditor):
    defaultValue: str = ""


@dataclass
class DropDownConfigEditor(ConfigEditor):
    options: list[OptionItem] = field(default_factory=list)
    defaultValue: str = ""
