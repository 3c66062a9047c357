"""docs/architecture.md stays true (issues 27, 39): every package, and every top-level module of proofs_checks, is
listed there once, in the layer the import-linter contracts give it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


def _listed() -> dict[str, list[int]]:
    """Dotted name -> the layer numbers of the rows of the layers table that list it."""
    text = DOC.read_text()
    table = text[text.index("## The layers"):text.index("\n## ", text.index("## The layers") + 1)]
    out: dict[str, list[int]] = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].isdigit():
            continue
        for name in re.findall(r"`([a-z_][a-z0-9_.]*)`", cells[1]):
            out.setdefault(name, []).append(int(cells[0]))
    return out


def _expected() -> set[str]:
    """The packages fred_constants, fred and its subpackages, analytic; proofs_checks' subpackages and top-level
    modules (its face, __init__, is in no layer)."""
    names = {"fred_constants", "analytic", "fred"}
    names |= {f"fred.{p.parent.name}" for p in (ROOT / "fred").glob("*/__init__.py")}
    pc = ROOT / "proofs_checks"
    names |= {f"proofs_checks.{p.parent.name}" for p in pc.glob("*/__init__.py")}
    names |= {f"proofs_checks.{p.stem}" for p in pc.glob("*.py") if p.stem != "__init__"}
    return names


def test_every_package_is_listed_once_under_a_layer():
    """Catches a new package or top-level module missing from the map, one listed twice, and a listed name that
    was moved or deleted (the map would describe code that is not there)."""
    listed, expected = _listed(), _expected()
    missing = sorted(expected - set(listed))
    twice = {m: n for m, n in listed.items() if len(n) > 1}
    gone = sorted(set(listed) - expected)
    assert (missing, twice, gone) == ([], {}, []), f"missing {missing}, listed twice {twice}, gone {gone}"


def test_layers_of_the_map_are_the_contracts():
    """Catches the map placing a package in another layer than the import-linter contract of pyproject.toml does
    (layers numbered from the bottom, as the map is)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    layers = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")["layers"]
    contract = {name: number for number, layer in enumerate(reversed(layers), start=1)
                for name in re.split(r"\s*[|:]\s*", layer.strip())}
    for name, (number,) in _listed().items():
        owner = next((n for n in sorted(contract, key=len, reverse=True) if name == n or name.startswith(n + ".")))
        assert number == contract[owner], (name, number, owner, contract[owner])


def test_the_contracts_name_packages_not_lists_of_modules():
    """Catches a contract layer that lists modules one by one again (the map and the contracts would drift)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    layers = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")["layers"]
    names = [n for layer in layers for n in re.split(r"\s*[|:]\s*", layer.strip())]
    assert len(names) <= 20 and all(n.count(".") <= 1 for n in names), names
