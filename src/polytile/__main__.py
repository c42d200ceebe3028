"""`python -m polytile`: the same entry point as the `polytile` script."""

from .cli import entry

entry()
