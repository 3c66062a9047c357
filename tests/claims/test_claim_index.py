"""Registration is discovery (issue 39): every claim module is registered once, the families are the folders, the
report's order is stated once, and no claim imports another."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import grimp

from proofs_checks.claim_index import CLAIMS, FAMILIES, MODULES

ROOT = Path(__file__).resolve().parents[2]
CLAIMS_DIR = ROOT / "proofs_checks" / "claims"


def _declared() -> dict[str, str]:
    """Claim id -> module path, read from the source (``CLAIM = Claim("...")`` at module level), not by importing."""
    out = {}
    for path in sorted(CLAIMS_DIR.rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if (isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["CLAIM"]
                    and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "Claim"):
                claim_id = node.value.args[0].value
                assert claim_id not in out, f"{claim_id} declared in {out[claim_id]} and {path}"
                out[claim_id] = str(path.relative_to(ROOT))
    return out


def test_every_claim_module_is_registered_once_from_its_family_folder():
    """Catches a claim module the discovery misses (a folder outside FAMILIES, a CLAIM that is a plain string), a
    claim declared twice, and a registered claim whose module is not in a family folder."""
    declared = _declared()
    assert sorted(declared) == sorted(CLAIMS)
    for claim_id, module in MODULES.items():
        family = module.__name__.split(".")[-2]
        assert family in FAMILIES and declared[claim_id] == f"proofs_checks/claims/{family}/" \
            f"{module.__name__.split('.')[-1]}.py", claim_id


def test_the_families_are_the_folders():
    """Catches a family folder left out of FAMILIES (its claims would silently vanish from the report) or a family
    named there that has no folder."""
    folders = {p.parent.name for p in CLAIMS_DIR.glob("*/__init__.py")}
    assert sorted(FAMILIES) == sorted(folders)


def test_the_report_order_is_the_index_order_and_stated_once():
    """Catches a second list of claim ids in the checking side (an order or a registry kept by hand beside the
    discovery): no tuple or list literal in proofs_checks names three claim ids or more (a set, such as the claims
    a planted modification breaks, states no order); the report follows CLAIMS."""
    ids = set(CLAIMS)
    for path in (ROOT / "proofs_checks").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Tuple, ast.List)):  # a set states no order
                named = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in ids]
                assert len(named) < 3, f"{path.relative_to(ROOT)}:{node.lineno} lists claims {named}"
    committed = json.loads((ROOT / "proofs_checks" / "REPORT.json").read_text())
    assert [c["id"] for c in committed["claims"]] == list(CLAIMS)


def test_no_claim_imports_another_claim():
    """Catches a claim module importing another claim module of its own family (the families' independence is an
    import-linter contract; within a family this test is the guard): helpers are shared, claims are not."""
    graph = grimp.build_graph("proofs_checks", cache_dir=None)
    names = {m.__name__ for m in MODULES.values()}
    for name in names:
        imported = graph.find_modules_directly_imported_by(name)
        assert not (imported & names), (name, sorted(imported & names))
