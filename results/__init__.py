"""The committed per-document results of ``python -m fred.evaluation``, shipped as the data package
``fred_results``.

pyproject.toml maps this directory (the checkout's ``results/``, the only copy) to the package, so an installed
wheel carries the files the experiment claims read; :func:`fred.evaluation.config.results_dir` resolves it with
importlib.resources, and the evaluation writes there by default. README.md here describes the runs.
"""
