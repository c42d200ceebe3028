"""The `polytile` command. Bad input: one line on stderr, exit 2.

Start-up is most of what a small puzzle waits for, so this module imports only argparse:
the command named on the line is the only one whose module is imported, and numpy, numba,
rich and the rest are imported inside a command when it needs them. `--help` and errors
in the command line or the input answer before any of them."""

from __future__ import annotations

import os
import sys
from importlib import import_module
from typing import TYPE_CHECKING

from ..errors import PuzzleError

if TYPE_CHECKING:
    from .commands.args import Parser

PROG = "polytile"
SUMMARY = "Solve tiling puzzles fast and exactly."
# name: (module in polytile.cli.commands, its function that declares the arguments)
COMMANDS = {
    "count": ("tiling", "count_arguments"),
    "solve": ("tiling", "solve_arguments"),
    "pieces": ("pieces", "arguments"),
    "katamino": ("katamino", "arguments"),
    "stats": ("stats", "arguments"),
    "hint": ("hint", "arguments"),
    "box": ("box", "arguments"),
    "shikaku": ("shikaku", "arguments"),
    "serve": ("serve", "arguments"),
    "survey": ("survey", "arguments"),
    "convert": ("convert", "arguments"),
    "mesh": ("mesh", "arguments"),
    "cover": ("cover", "arguments"),
    "calendar": ("calendar", "arguments"),
    "design": ("design", "arguments"),
}


def _err(msg: str) -> None:
    print(msg, file=sys.stderr)


def command_parser(name: str) -> Parser:
    """The parser of one command, its function set as the default `run`."""
    from .commands.args import Parser

    module, declare = COMMANDS[name]
    parser = Parser(prog=f"{PROG} {name}")
    getattr(import_module(f".commands.{module}", __package__), declare)(parser)
    parser.description = parser.get_default("run").__doc__
    return parser


def overview() -> str:
    """The top-level help: usage, then every command with the first line of its help."""
    lines = [f"usage: {PROG} [--help] [--version] COMMAND [ARGS]...", "", SUMMARY, "", "commands:"]
    for name in COMMANDS:
        doc = (command_parser(name).description or "").strip().splitlines()
        lines.append(f"  {name:<10}{doc[0] if doc else ''}")
    lines += ["", f"`{PROG} COMMAND --help` shows the options of a command."]
    return "\n".join(lines) + "\n"


def version() -> str:
    """The installed distribution's version, else the package's own (a source checkout)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(PROG)
    except PackageNotFoundError:
        from .. import __version__

        return __version__


def run(argv: list[str]) -> int:
    """Parse and run; exceptions carry the errors to main()."""
    from .commands.args import UsageError, did_you_mean

    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(overview())
        return 0 if argv else 2
    if argv[0] in ("-V", "--version"):
        print(f"{PROG} {version()}")
        return 0
    if argv[0] not in COMMANDS:
        option = argv[0].startswith("-")
        hint = did_you_mean(argv[0], ["--help", "--version"] if option else list(COMMANDS))
        raise UsageError(
            f"{PROG}: no such {'option' if option else 'command'} {argv[0]!r}{hint} (commands: {', '.join(COMMANDS)})"
        )
    options = vars(command_parser(argv[0]).parse_args(argv[1:]))
    status = options.pop("run")(**options)
    return status if isinstance(status, int) else 0


def _python_ctrl_c() -> None:
    """Python's KeyboardInterrupt again where the script's start (polytile/console.py) had
    Ctrl-C end the program at once: the commands catch it and report what they found."""
    import signal

    handler = signal.getsignal(signal.SIGINT)
    if getattr(handler, "__module__", None) == "polytile.console":
        signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit status. Errors of any kind become one line on stderr."""
    from .commands.args import Exit, UsageError

    _python_ctrl_c()
    # numpy's OpenBLAS starts a thread per core when it loads, ~50 ms of a small command; the
    # commands do no linear algebra worth threads, and their parallel counts use their own
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        return run(sys.argv[1:] if argv is None else list(argv))
    except PuzzleError as e:
        _err(f"{PROG}: {e}")
        return 2
    except UsageError as e:
        _err(" ".join(str(e).split()))
        return 2
    except Exit as e:
        return e.code
    except SystemExit as e:  # argparse's --help of a command
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt:
        _err(f"{PROG}: interrupted")
        return 130
    except BrokenPipeError:
        return 0


def entry() -> None:
    """The console script: run `main`, flush (a closed pipe is no error), and exit without the
    interpreter teardown numba makes slow."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    os._exit(code)  # skip interpreter teardown (numba/llvm): ~0.1 s of a short run
