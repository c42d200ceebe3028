"""Subcommands beyond solve/count, one module each; each has register(app)."""
