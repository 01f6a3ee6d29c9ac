"""`errgen init`: a small registry a new project starts from, not errgen's own example.

The starter names only files it writes: the registry and, beside it, a copy of the registry-format
schema that its first line points editors at by a relative path, so the hint works in every clone
(an absolute path into one machine's errgen install would not).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from pathlib import Path
from string import Template

from errgen.registry.lint.names import LOWER_SNAKE
from errgen.resources import registry_schema_path

SCHEMA_NAME = "registry.schema.json"
FALLBACK_NAME = "my_service"


@dataclass(frozen=True)
class Starter:
    files: dict[Path, str]

    def existing(self) -> list[Path]:
        return [path for path in self.files if path.exists()]

    def write(self) -> None:
        for path, text in self.files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


def project_name(folder: Path) -> str:
    """The registry `name` (it names the packages) from the project folder: 'Billing-API' -> 'billing_api'."""
    name = re.sub(r"[^a-z0-9]+", "_", folder.name.lower()).strip("_")
    return name if LOWER_SNAKE.fullmatch(name) else FALLBACK_NAME


def starter(registry: Path, name: str, today: datetime.date) -> Starter:
    template = Template((Path(__file__).parent / "starter" / "errors.yaml").read_text(encoding="utf-8"))
    text = template.substitute(name=name, date=today.isoformat())
    return Starter({registry: text, registry.parent / SCHEMA_NAME: registry_schema_path().read_text(encoding="utf-8")})
