"""The command line: `main` parses and runs, the commands live in `commands/`."""

from .main import entry, main

__all__ = ["entry", "main"]
