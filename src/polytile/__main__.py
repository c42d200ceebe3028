"""`python -m polytile`: the same entry point as the `polytile` script."""

from .console import entry

entry()
