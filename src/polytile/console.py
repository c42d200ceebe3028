"""The `polytile` script's first step: Ctrl-C before the command line is read (while Python
imports it) ends the program quietly, as Ctrl-C later does (`polytile: interrupted`, exit
status 130), not with a traceback from the middle of an import. `cli.main` puts Python's own
handler back before it runs a command. Only the script and `python -m polytile` import this
module: a program that imports polytile keeps its own Ctrl-C, and a script started with
Ctrl-C ignored (a shell's background job) keeps it ignored."""

import os

import _signal  # the C module: `signal` would import enum first, 20 ms more of the window


def _interrupted(signum: int, frame: object) -> None:
    os.write(2, b"polytile: interrupted\n")
    os._exit(130)


if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:  # not where Ctrl-C is ignored
    _signal.signal(_signal.SIGINT, _interrupted)


def entry() -> None:
    """The console script (`[project.scripts]`): the command line, with Ctrl-C caught from here on."""
    from .cli import entry as run

    run()
