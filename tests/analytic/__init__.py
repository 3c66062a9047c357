"""Tests of the closed forms and the exact referee (the ``analytic`` package), one module per analytic module."""
