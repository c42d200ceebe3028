"""The option parsing the subcommands share: argparse (a few milliseconds to import), an
error that becomes one line on stderr with exit status 2, help that shows the defaults,
and number types with bounds."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from typing import Any, Callable, NoReturn, Union

from ...errors import PuzzleError


class UsageError(Exception):
    """A command line the parser refuses: printed as one line, exit status 2."""


class Exit(Exception):
    """Leave the command with this exit status (1: no solution, 124: time limit, 130: interrupted)."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it (COLUMNS when a positive
    number, else the terminal's, else 80), without importing shutil and the compression
    modules it loads: argparse makes a formatter for every option declared, and asked shutil
    each time, ~2 ms of every command's start."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class HelpFormatter(argparse.HelpFormatter):
    """Options' help with `[default: X]` when the default says something."""

    def __init__(self, prog: str, **kwargs: Any) -> None:
        if kwargs.get("width") is None:
            kwargs["width"] = _columns() - 2  # as argparse does, without shutil
        super().__init__(prog, **kwargs)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        quiet = action.default is None or action.default is False or action.default in ("", argparse.SUPPRESS)
        if not quiet and action.option_strings and "%(default)" not in text:
            text += " [default: %(default)s]"
        return text


# where options are declared: a parser, or a group of one (mutually exclusive options)
Options = Union[argparse.ArgumentParser, "argparse._ArgumentGroup"]


def did_you_mean(word: str, candidates: list[str]) -> str:
    """` (did you mean X?)` for the candidate closest to a misspelt `word`, else '' (options
    compared without their dashes: `--bogus` is not close to `--jobs`)."""
    import difflib

    bare = {c.lstrip("-"): c for c in candidates}
    close = difflib.get_close_matches(word.lstrip("-"), list(bare), n=1, cutoff=0.6)
    return f" (did you mean {bare[close[0]]}?)" if close else ""


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of printing the usage and exiting, takes no
    abbreviation of an option (`--uniq` is not `--unique`: a later option could make it
    ambiguous, and a typo would pass unseen), and suggests the option a misspelt one meant."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """argparse prints usage and exits 2 itself; the command line wants one line on stderr,
        so a usage error becomes an exception `main` reports."""
        raise UsageError(f"{self.prog}: {message}")

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """argparse's, an unknown option named with the known one closest to it."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            first = next((e for e in extras if e.startswith("-") and len(e) > 1 and not e[1:2].isdigit()), "")
            name = first.split("=")[0]
            hint = did_you_mean(name, self.option_names()) if name else ""
            if hint:
                self.error(f"unrecognized option {name!r}{hint}")
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def option_names(self) -> list[str]:
        """Every option string of this parser and of its sub-commands' parsers."""
        names = list(self._option_string_actions)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    names += sub.option_names() if isinstance(sub, Parser) else list(sub._option_string_actions)
        return names

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """argparse's check of a choice, a misspelt one answered with the closest choice."""
        choices = action.choices
        if choices is not None and value not in choices:
            shown = ", ".join(map(repr, choices))
            hint = did_you_mean(str(value), [str(c) for c in choices])
            raise argparse.ArgumentError(action, f"invalid choice: {value!r}{hint} (choose from {shown})")


def bounded(kind: Callable[[str], Any], low: float | None = None, high: float | None = None) -> Callable[[str], Any]:
    """A type for add_argument: `kind` (int or float) within low..high (None: unbounded)."""

    def convert(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a valid {kind.__name__}") from None
        if kind is float and not math.isfinite(value):  # nan passes every comparison; inf is no bound
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a finite number")
        if (low is not None and value < low) or (high is not None and value > high):
            span = (
                f"{low}<=x<={high}"
                if low is not None and high is not None
                else f"x>={low}"
                if low is not None
                else f"x<={high}"
            )
            raise argparse.ArgumentTypeError(f"{value} is not in the range {span}")
        return value

    convert.__name__ = kind.__name__
    return convert


def memory_size(text: str) -> int:
    """A type for --max-memory: `512M`, `2G` (see polytile.budget)."""
    from ...budget import parse_bytes

    try:
        return parse_bytes(text)
    except PuzzleError as e:
        raise argparse.ArgumentTypeError(e.message) from None


def max_memory(p: argparse.ArgumentParser) -> None:
    """`--max-memory SIZE`: the budget of what a command builds and keeps."""
    p.add_argument(
        "--max-memory",
        type=memory_size,
        default="1G",
        metavar="SIZE",
        help="Refuse work that needs more memory than this (e.g. 512M, 4G).",
    )


def flag(p: Options, name: str, help: str, dest: str | None = None) -> None:
    """An on/off option, off by default."""
    p.add_argument(name, dest=dest, action="store_true", help=help)


def parse_size(text: str, option: str, most_cells: int, what: str = "board") -> tuple[int, int]:
    """`WxH` (blanks and a capital X allowed) as (width, height), of 1..most_cells cells."""
    m = re.fullmatch(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*", text)
    if not m:
        raise PuzzleError(f"size {text!r} is not WxH (e.g. 10x6)", option)
    w, h = int(m.group(1)), int(m.group(2))
    if w < 1 or h < 1 or w * h > most_cells:
        raise PuzzleError(f"a {w} x {h} {what} is out of range (1..{most_cells} cells)", option)
    return w, h


def no_reflect(p: argparse.ArgumentParser, *old_spellings: str, dest: str = "no_reflect") -> None:
    """`--no-reflect`, the one spelling of "rotate only" in every command; older spellings
    still work and are hidden from --help."""
    flag(p, "--no-reflect", "Pieces may be rotated but not flipped.", dest=dest)
    for spelling in old_spellings:
        p.add_argument(spelling, dest=dest, action="store_true", help=argparse.SUPPRESS)
