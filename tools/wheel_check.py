"""A plain install runs everything that needs no data: build the wheel, install it alone, compare its report.

    python tools/wheel_check.py [--keep]

1. Builds the wheel from a copy of what the build reads (pyproject.toml, README.md, the four packages and
   ``results/``), so the checkout gets no ``build/``; ``pip wheel --no-deps``, without build isolation when this
   interpreter has setuptools.
2. Checks that the wheel carries every committed result file (``results/*`` as the data package ``fred_results``).
3. Creates a clean venv in a temporary directory and installs the wheel with its core dependencies only (no
   extras; pip's cache and configured indexes are reused).
4. Runs ``python -m proofs_checks --json --markdown FILE`` there, from an empty folder outside the checkout, with
   the variables that point at data the package does not ship unset (:data:`NOT_SHIPPED_ENV`).
5. Compares each claim's row of the summary table (verdict, other readings, corrected statement's verdict) with
   ``proofs_checks/REPORT.md``: the same renderer writes both, so equal rows mean equal verdicts. A claim may
   differ only when one of its steps says an input that does not ship is absent (its note names the variable that
   sets the input's path); the claims of :data:`NEEDS_UNSHIPPED` must say so whatever their verdict.

Prints a table and the time of each stage; exits 0 when every claim passes, 1 otherwise, 2 on a usage error.
``.ci/run`` runs it after the README's two commands.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

from fred.command_line import OneLineParser
from fred.markdown_tables import markdown_table
from proofs_checks.claims.pos.restaurants import POS_EXTRA
from proofs_checks.paper.baselines import EVAL_EXTRA

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "proofs_checks" / "REPORT.md"


def _build_inputs() -> tuple[str, ...]:
    """What the build reads, from pyproject.toml's [tool.setuptools]: the file itself, the README (the long
    description), the top-level packages, the top-level modules and the directories mapped to packages."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = setuptools.get("package-dir", {})
    packages = dict.fromkeys(name.split(".")[0] for name in setuptools["packages"] if name not in mapped)
    return ("pyproject.toml", "README.md", *packages, *(f"{m}.py" for m in setuptools.get("py-modules", ())),
            *mapped.values())


#: What the build reads (derived, so a new top-level package or module is copied without editing this tool).
BUILD_INPUTS = _build_inputs()
#: Inputs the package does not ship, by the environment variable that sets their path: unset for the run, and the
#: words a claim's note must contain to say that the input is absent.
NOT_SHIPPED_ENV = {"FRED_DATA_DIR": "the review datasets restaurants.tsv and yelp.csv",
                   "FRED_PAPER": "the paper's LaTeX source fred-paper.tex",
                   "FRED_AUTHORS_CHECKOUT": "the authors' released code"}
#: Packages of an extra the wheel's core install lacks, by the install command a step's note gives when it could not
#: run them (such a step is inconclusive: it saw no sample).
NOT_INSTALLED = {EVAL_EXTRA: "lime, shap and anchor-exp, the evaluation's baselines (extra eval)",
                 POS_EXTRA: "spaCy's tagger and VADER's lexicon, the POS sampler's (extra pos)"}
#: Claims whose every check reads an input that does not ship (REPORT.md was made with it): they must say so.
NEEDS_UNSHIPPED = {"minilm-lemma1": "FRED_DATA_DIR", "minilm-selection": "FRED_DATA_DIR"}
#: The columns of the summary table compared (the evidence column lists kinds of steps, not verdicts).
COMPARED = ("verdict", "other readings", "corrected or precise statement")
_CELL = re.compile(r"(?<!\\)\|")


@dataclass(frozen=True)
class Outcome:
    """One claim: its row in REPORT.md and in the installed run, whether it passes, and why."""

    claim: str
    expected: dict[str, str] | None
    found: dict[str, str] | None
    ok: bool
    why: str

    def to_dict(self) -> dict:
        return {"claim": self.claim, "expected": self.expected, "found": self.found, "ok": self.ok, "why": self.why}


def summary_rows(markdown: str) -> dict[str, dict[str, str]]:
    """The summary table of a claim report in Markdown: claim id -> the :data:`COMPARED` cells.

    >>> header = "| claim | kind | verdict | other readings | corrected or precise statement | evidence |"
    >>> text = header + "\\n|---|---|---|---|---|---|\\n| [a](#a) | statement | **holds** | x\\\\|y | – | x |"
    >>> summary_rows(text)["a"]["other readings"]
    'x\\\\|y'
    """
    lines = markdown.splitlines()
    start = next((k for k, line in enumerate(lines) if line.startswith("| claim | kind | verdict |")), None)
    if start is None:
        raise ValueError("no summary table (a line starting '| claim | kind | verdict |') in the report")
    header = [c.strip() for c in _CELL.split(lines[start].strip().strip("|"))]
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = dict(zip(header, (c.strip() for c in _CELL.split(line.strip()[1:-1]))))
        claim = re.fullmatch(r"\[([^\]]+)\]\(#[^)]*\)", cells["claim"])
        rows[claim.group(1) if claim else cells["claim"]] = {k: cells[k] for k in COMPARED}
    return rows


def absent_inputs(claim: dict) -> list[str]:
    """The :data:`NOT_SHIPPED_ENV` variables that a step of ``claim`` (its ``--json`` record) names in an argued
    note, and the :data:`NOT_INSTALLED` commands an inconclusive step names: the inputs and packages the claim
    says it could not read or run."""
    argued = " ".join(s["note"] for s in claim["steps"] if s["evidence"] == "argument")
    inconclusive = " ".join(s["note"] for s in claim["steps"] if s.get("status") == "inconclusive")
    return ([var for var in NOT_SHIPPED_ENV if var in argued]
            + [command for command in NOT_INSTALLED if command in inconclusive])


def compare(expected: dict[str, dict[str, str]], found: dict[str, dict[str, str]],
            claims: dict[str, dict]) -> list[Outcome]:
    """Each claim of REPORT.md (``expected``) against the installed run (``found`` rows, ``claims`` its ``--json``
    records by id): module docstring, step 5."""
    outcomes = []
    for claim in [*expected, *(c for c in found if c not in expected)]:
        e, f = expected.get(claim), found.get(claim)
        absent = absent_inputs(claims[claim]) if claim in claims else []
        needs = NEEDS_UNSHIPPED.get(claim)
        if e is None or f is None:
            ok, why = False, "missing from " + ("REPORT.md" if e is None else "the installed run")
        elif needs is not None and needs not in absent:
            ok, why = False, f"reads an input that does not ship but no step says so (expected a note naming ${needs})"
        elif e == f:
            ok, why = True, "same" + (f" (says its input is absent: {', '.join(absent)})" if absent else "")
        elif absent:
            ok, why = True, f"differs: says its input is absent ({', '.join(absent)})"
        else:
            ok, why = False, "differs, and no step says an input is absent"
        outcomes.append(Outcome(claim, e, f, ok, why))
    return outcomes


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(args, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return done


def build_wheel(work: Path) -> Path:
    """The wheel built from a copy of :data:`BUILD_INPUTS` (module docstring, step 1)."""
    source, dist = work / "source", work / "dist"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "*.egg-info")
    source.mkdir()
    for name in BUILD_INPUTS:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    # Without isolation the build uses this interpreter's setuptools instead of installing one into a fresh env.
    isolation = ["--no-build-isolation"] if importlib.util.find_spec("setuptools") else []
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", *isolation, "-w", str(dist), str(source)])
    (wheel,) = dist.glob("fred_theory-*.whl")
    return wheel


def missing_results(wheel: Path) -> list[str]:
    """The committed ``results/`` files the wheel lacks (as ``fred_results/<name>``)."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    return [f"fred_results/{p.name}" for p in sorted((ROOT / "results").iterdir())
            if p.is_file() and f"fred_results/{p.name}" not in names]


def install(wheel: Path, work: Path) -> Path:
    """A clean venv under ``work`` with ``wheel`` and its core dependencies; its python."""
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    # No byte-compiling of every dependency's modules (sympy's alone take many seconds): the run compiles what it
    # imports.
    _run([str(python), "-m", "pip", "install", "-q", "--no-compile", str(wheel)])
    return python


def installed_report(python: Path, work: Path) -> tuple[dict, str]:
    """The installed package's ``--json`` report and its Markdown, run from an empty folder (step 4)."""
    empty = work / "empty"
    empty.mkdir()
    markdown = work / "REPORT.md"
    drop = {*NOT_SHIPPED_ENV, "FRED_STATISTICAL_SEED", "PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    done = _run([str(python), "-m", "proofs_checks", "--json", "--markdown", str(markdown)], cwd=empty, env=env)
    return json.loads(done.stdout), markdown.read_text(encoding="utf-8")


def _verdicts(row: dict[str, str] | None) -> str:
    if row is None:
        return "–"
    text = row["verdict"].strip("*")
    return text + (f"; corrected: {row['corrected or precise statement']}"
                   if row["corrected or precise statement"] != "–" else "")


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python tools/wheel_check.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (its path is printed)")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="fred-wheel-check-"))
    seconds: dict[str, float] = {}
    try:
        start = time.perf_counter()
        wheel = build_wheel(work)
        seconds["build"] = time.perf_counter() - start
        missing = missing_results(wheel)
        start = time.perf_counter()
        python = install(wheel, work)
        seconds["venv and install"] = time.perf_counter() - start
        start = time.perf_counter()
        report, markdown = installed_report(python, work)
        seconds["report"] = time.perf_counter() - start
    except RuntimeError as error:
        print(f"wheel check: {error}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    expected_text = REPORT.read_text(encoding="utf-8")
    outcomes = compare(summary_rows(expected_text), summary_rows(markdown), {c["id"]: c for c in report["claims"]})
    print(markdown_table(["claim", "REPORT.md", "installed wheel", "outcome"],
                         [[o.claim, _verdicts(o.expected), _verdicts(o.found), ("ok: " if o.ok else "FAIL: ") + o.why]
                          for o in outcomes]))
    steps = re.search(r"(\d+) machine-checked", expected_text)
    print(f"\nwheel {wheel.name}: {'every committed result file ships' if not missing else f'MISSING {missing}'}; "
          f"machine-checked steps: {report['summary']['steps_machine_checked']} installed, "
          f"{steps.group(1) if steps else '?'} in REPORT.md; not shipped, unset for the run: "
          + "; ".join(f"${k} ({v})" for k, v in NOT_SHIPPED_ENV.items()))
    print("seconds: " + ", ".join(f"{k} {v:.1f}" for k, v in seconds.items()))
    ok = not missing and all(o.ok for o in outcomes)
    print("wheel check: " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
