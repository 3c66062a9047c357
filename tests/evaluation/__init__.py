"""Tests of the experiments (fred.evaluation): metrics, datasets, runner."""
