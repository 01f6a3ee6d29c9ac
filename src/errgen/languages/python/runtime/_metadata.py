"""`REGISTRY_VERSION`, read from the package's metadata: pyproject.toml is the only file that
names the version, so a release changes that file alone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from ._contract import DISTRIBUTION

# What REGISTRY_VERSION is when no metadata names this copy's version (a valid PEP 440 version,
# so comparisons still work; the local part says why).
UNKNOWN_VERSION = "0+unknown"

_PACKAGE = Path(__file__).resolve().parent
_PROJECT = re.compile(r"^\[project\]$(.*?)(?=^\[|\Z)", re.M | re.S)
_LINE = re.compile(r'^(name|version) = "([^"\\]+)"$', re.M)


def package_version() -> str:
    """The version of this very copy of the package: the one in the pyproject.toml beside the
    package folder (a checkout, an editable install, `PYTHONPATH`), else the installed
    distribution's when the package was imported from it (a wheel or sdist install), else
    UNKNOWN_VERSION. Another copy installed elsewhere in the environment is never taken for this
    one. (The pyproject.toml first: a checkout then never pays for importing importlib.metadata.)"""
    return _pyproject_version() or _installed_version() or UNKNOWN_VERSION


def _installed_version() -> Optional[str]:
    from importlib import metadata

    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    located = Path(str(dist.locate_file(f"{_PACKAGE.name}/__init__.py")))
    try:
        same = located.resolve() == _PACKAGE / "__init__.py"
    except OSError:
        return None
    return dist.version if same else None


def _pyproject_version() -> Optional[str]:
    try:
        text = (_PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    # errgen writes `name = "..."` and `version = "..."` under [project]; a pyproject.toml of some
    # other project (the package vendored into it) names another distribution.
    project = _PROJECT.search(text)
    found = dict(_LINE.findall(project.group(1))) if project else {}
    return found.get("version") if found.get("name") == DISTRIBUTION else None
