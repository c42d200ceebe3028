"""Subcommands, one module each: a function that declares its arguments on an argparse parser
(setting `run`, the function that carries the command out). cli.COMMANDS lists them."""
