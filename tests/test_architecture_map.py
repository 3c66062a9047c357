"""docs/architecture.md stays true (issue 27): every module of the packages is listed there once, under its layer,
every path it lists exists, and the layers it lists for proofs_checks are those the import-linter contract
enforces."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("fred_constants", "fred", "analytic", "proofs_checks")
PATH = re.compile(r"`((?:fred_constants|fred|analytic|proofs_checks)/[A-Za-z0-9_/]+\.py)`")


def _listed() -> dict[str, list[str]]:
    """Module path -> the headings of the layer sections (``### ...``) that list it in a table row."""
    out: dict[str, list[str]] = {}
    heading = None
    for line in DOC.read_text().splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
        elif line.startswith("|") and heading is not None:
            cells = line.split("|")
            for path in PATH.findall(cells[1] if len(cells) > 1 else ""):
                out.setdefault(path, []).append(heading)
    return out


def _modules() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_every_module_is_listed_once_under_a_layer():
    """Catches a new module missing from the map, a module listed under two layers, and a listed path that was
    moved or deleted (the map would describe code that is not there)."""
    listed, modules = _listed(), _modules()
    missing = [m for m in modules if m not in listed]
    twice = {m: h for m, h in listed.items() if len(h) > 1}
    gone = [m for m in listed if not (ROOT / m).is_file()]
    assert (missing, twice, gone) == ([], {}, []), f"missing {missing}, listed twice {twice}, gone {gone}"


def test_proofs_checks_layers_of_the_map_are_the_contracts():
    """Catches the map placing a proofs_checks module in another layer than the import-linter contract of
    pyproject.toml does: each layer heading names its contract layer as `layer N`, and the modules listed under it
    are the contract layer's (numbered from the bottom; a package stands for its modules)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    layers = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")["layers"]
    contract = {}
    for number, layer in enumerate(reversed(layers), start=1):  # numbered from the bottom, as the map is
        for name in re.split(r"\s*[|:]\s*", layer):
            contract[name] = number
    for path, (heading,) in _listed().items():
        if not path.startswith("proofs_checks/"):
            continue
        dotted = path[:-3].replace("/", ".").removesuffix(".__init__")
        owner = next((n for n in sorted(contract, key=len, reverse=True)
                      if dotted == n or dotted.startswith(n + ".")), None)
        if owner is None:  # the package face proofs_checks/__init__.py is in no layer
            assert dotted == "proofs_checks", path
            continue
        number = re.search(r"layer (\d+)", heading)
        assert number and int(number.group(1)) == contract[owner], (path, heading, contract[owner])
