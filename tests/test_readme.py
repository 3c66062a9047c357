"""The README's usage example must run as printed."""

import re
from pathlib import Path


def test_readme_usage_example_runs():
    """Catches an API rename that leaves the README's example broken."""
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    code = re.search(r"## Usage\n\n```python\n(.*?)```", readme, re.S).group(1)
    namespace: dict = {}
    exec(compile(code.replace("print(exp)", "str(exp)"), "README.md", "exec"), namespace)
    assert namespace["exp"].best
