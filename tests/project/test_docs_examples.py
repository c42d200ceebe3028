"""Every command the documentation shows is run, and the output shown after it is what it prints.

Scope: README.md and docs/**/*.md, except docs/history/ (work logs, kept as they were written).
In a fenced code block (``` or ~~~), a *command* is a line that starts with `polytile` or `curl`,
with or without the prompt `$ ` (a trailing backslash continues it on the next line).

Conventions for writing the docs:

- Output. In a block whose commands carry the prompt `$ `, the lines after a command, up to the
  next `$ ` line or the end of the block, are its output, compared with what it prints (stdout,
  then stderr; trailing blanks aside). A command with no output shown must succeed (exit 0), and
  so must one whose shown output is no error line (`polytile: ...`, or a command's own
  `polytile COMMAND: ...`, as a misspelt option gets). A block without prompts shows
  commands only: they are run and must succeed.
- `~` before a number (`seconds: ~0.031`, `"nodes": ~331`) marks a figure that varies from run to
  run (times, nodes of a parallel count): any number matches it.
- `...` or `…` stands for any text within a line; alone on a line, for any number of lines
  (an abridged output).
- `<!-- not run: REASON -->` on the line before a block excuses its commands (counted, with the
  reason); `<!-- not run "TEXT": REASON -->` excuses only the command lines containing TEXT.
- `<!-- slow: REASON -->` on the line before a block: its commands take seconds, so they run
  only where slow tests run (pytest marker `slow`, left out of `make test-fast`).
- `$ NAME=...` (a shell assignment) and `$ until ...` (a loop that waits for a state) lines are
  run with bash; NAME is set for the later commands of the block (`$ID` in a URL).
- Other prompted lines (`$ dlx1 < 3x20.dlx`, `$ python ...`, `$ head FILE`) show programs outside
  polytile: they are not run, and neither is their output compared.

How they run: each block in a fresh temporary directory holding a copy of examples/ and a link to
tests/, so the files commands write (`-o`, `convert`) never land in the repository. `polytile ...`
runs in this process through `polytile.cli.main` (tests/cli_helpers.call_cli, no interpreter start
per command); a pipe after it (`| head -3`) runs in bash on its output, and `< FILE`, `> FILE` are
done here. `curl` runs against a `polytile serve` started on 127.0.0.1 at a free port, which
replaces the docs' 8765; a command naming any other address fails the test. The session's summary
(`docs examples: N commands run, ...`) is printed at the end (tests/conftest.py)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from cli_helpers import call_cli
from paths import DOCS, EXAMPLES, ROOT, TESTS

PORT_IN_DOCS = "8765"
PROMPT = "$ "
COMMAND = re.compile(r"(polytile|curl)\b")
SETUP = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=|until\b")
NOT_RUN = re.compile(r'<!--\s*not run(?:\s+"([^"]+)")?:\s*(.+?)\s*-->')
SLOW = re.compile(r"<!--\s*slow:\s*(.+?)\s*-->")
FENCE = re.compile(r"\s*(```|~~~)")
NUMBER = r"~\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?"
ERROR_LINE = re.compile(r"polytile(?: [a-z]+)?: ")  # `polytile: FILE: ...`, `polytile count: ...`
HOSTS = re.compile(r"(?:https?://)?(?:127\.0\.0\.1|localhost):" + PORT_IN_DOCS)


def documents() -> list[Path]:
    """README.md and docs/**/*.md, without docs/history/."""
    docs = sorted(p for p in DOCS.rglob("*.md") if "history" not in p.relative_to(DOCS).parts)
    return [ROOT / "README.md", *docs]


@dataclass
class Command:
    line: int  # 1-based, in its file
    text: str  # the command as bash would read it (continuations joined)
    shown: list[str] | None  # the output shown after it (None: none is shown)
    excused: str | None = None  # why it is not run
    setup: bool = False  # an assignment or a wait, not counted as a command


@dataclass
class Block:
    path: Path
    line: int
    commands: list[Command] = field(default_factory=list)
    slow: str | None = None

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    def runnable(self) -> list[Command]:
        return [c for c in self.commands if c.excused is None]


def _marks(lines: list[str], fence: int) -> list[str]:
    """The HTML comments on the lines just above a fence (blank lines between allowed)."""
    out, i = [], fence - 1
    while i >= 0 and (not lines[i].strip() or lines[i].strip().startswith("<!--")):
        if lines[i].strip():
            out.append(lines[i].strip())
        i -= 1
    return out


def _block(path: Path, lines: list[str], start: int, body: list[tuple[int, str]]) -> Block:
    """One fenced block's commands, their shown outputs and the marks above it."""
    block = Block(path, start + 1)
    excuses = [NOT_RUN.search(m) for m in _marks(lines, start)]
    for mark in _marks(lines, start):
        if slow := SLOW.search(mark):
            block.slow = slow.group(1)
    prompted = any(text.lstrip().startswith(PROMPT) for _, text in body)
    current: Command | None = None
    i = 0
    while i < len(body):
        number, text = body[i]
        stripped = text.strip()
        while stripped.endswith("\\") and i + 1 < len(body):  # a continued command
            i += 1
            stripped = stripped[:-1].rstrip() + " " + body[i][1].strip()
        i += 1
        bare = stripped[len(PROMPT) :] if stripped.startswith(PROMPT) else stripped
        if prompted and not stripped.startswith(PROMPT):
            if current is not None and current.shown is not None:
                current.shown.append(text.rstrip())
            continue
        current = None
        if COMMAND.match(bare) or SETUP.match(bare):
            current = Command(number, bare, [] if prompted else None, setup=not COMMAND.match(bare))
            for excuse in excuses:
                if excuse and (excuse.group(1) is None or excuse.group(1) in bare):
                    current.excused = excuse.group(2)
            block.commands.append(current)
        elif prompted:  # a program outside polytile: shown, not run, output not compared
            current = Command(number, bare, None, excused="not polytile", setup=True)
            block.commands.append(current)
    return block


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file that hold commands."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        start, body = i, []
        indent = len(lines[i]) - len(lines[i].lstrip())  # a block inside a list item
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence.group(1)):
            line = lines[i]
            body.append((i + 1, line[min(indent, len(line) - len(line.lstrip())) :]))
            i += 1
        i += 1
        block = _block(path, lines, start, body)
        if any(not c.setup for c in block.commands):
            out.append(block)
    return out


ALL = [b for path in documents() for b in blocks(path)]
TALLY = {"run": 0, "failed": 0}


def counted() -> dict[str, int]:
    """Commands in the docs: all, excused, in slow blocks (assignments and waits not counted)."""
    commands = [(b, c) for b in ALL for c in b.commands if not c.setup]
    return {
        "commands": len(commands),
        "excused": sum(c.excused is not None for _, c in commands),
        "slow": sum(c.excused is None and b.slow is not None for b, c in commands),
    }


def summary() -> str:
    """The line tests/conftest.py prints at the end of a session that ran these tests."""
    n = counted()
    return (
        f"docs examples: {TALLY['run']} commands run this session ({TALLY['failed']} failed); in the docs "
        f"{n['commands']} commands, {n['excused']} excused (<!-- not run -->), {n['slow']} slow"
    )


# ---- comparing outputs


def pattern(shown: list[str]) -> re.Pattern[str]:
    """The regular expression a shown output stands for (see the module's conventions)."""
    parts = []
    for line in shown:
        if line.strip() in ("...", "…"):
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pieces = re.split(r"(\.\.\.|…|" + NUMBER + ")", line.rstrip())
        out = []
        for k, piece in enumerate(pieces):
            if k % 2 == 0:
                out.append(re.escape(piece))
            elif piece in ("...", "…"):
                out.append(r"[^\n]*?")
            else:
                out.append(r"-?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?")
        parts.append("".join(out) + r"\n")
    return re.compile("".join(parts))


def normal(text: str) -> str:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "".join(line + "\n" for line in lines)


def test_the_conventions_match_what_they_say():
    assert pattern(["seconds: ~0.1031", "nodes: 331"]).fullmatch("seconds: 0.0072\nnodes: 331\n")
    assert not pattern(["nodes: 331"]).fullmatch("nodes: 332\n")
    assert pattern(["A", "...", "Z"]).fullmatch("A\nB\nC\nZ\n")
    assert pattern(["A", "...", "Z"]).fullmatch("A\nZ\n")
    assert pattern(['{"id": "...", "n": ~3}']).fullmatch('{"id": "x-1", "n": 12,345}\n')
    assert ERROR_LINE.match("polytile: x.txt: no such file") and ERROR_LINE.match("polytile count: unrecognized")
    assert not ERROR_LINE.match("polytile 0.1.0") and not ERROR_LINE.match("polytile count x.txt")
    text = (
        "```\n$ polytile count x\nsolutions: 1\n$ head x\n1\n```\n\n<!-- not run: why -->\n```\npolytile serve\n```\n"
    )
    lines = text.splitlines()
    first = _block(Path("x.md"), lines, 0, [(2, lines[1]), (3, lines[2]), (4, lines[3]), (5, lines[4])])
    assert [(c.text, c.shown, c.excused) for c in first.commands] == [
        ("polytile count x", ["solutions: 1"], None),
        ("head x", None, "not polytile"),
    ]
    assert _block(Path("x.md"), lines, 8, [(10, lines[9])]).commands[0].excused == "why"


# ---- running them


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory):
    """`polytile serve` on 127.0.0.1 at a free port, up when /api/info answers."""
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    port = _free_port()
    cmd = [sys.executable, "-m", "polytile", "serve", "--port", str(port)]
    log = tmp_path_factory.mktemp("serve") / "log.txt"
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log.open("w"))
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=5).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"polytile serve did not come up: {log.read_text()[-2000:]}")
            time.sleep(0.05)  # polling for the state "listening", not a fixed wait
    yield port
    proc.terminate()
    proc.wait(timeout=30)


def _workdir(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    (tmp_path / "tests").symlink_to(TESTS, target_is_directory=True)
    return tmp_path


def _bash(text: str, cwd: Path, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-c", text],
        cwd=cwd,
        env={**os.environ, **env},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _polytile(text: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """`polytile ARGS [< IN] [> OUT] [| PIPELINE]`: the command in this process, the pipe in bash."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars="|<>&;")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    tokens = list(lexer)
    assert not {"&", "&&", ";", ";;", ">>", "||"} & set(tokens), f"shell syntax the runner does not do: {text}"
    assert "$" not in text, f"a variable in a polytile command: {text}"
    rest = ""
    if "|" in tokens:
        cut = tokens.index("|")
        rest = text.split("|", 1)[1].split(" #", 1)[0]
        tokens = tokens[:cut]
    stdin, out_file = "", None
    if "<" in tokens:
        k = tokens.index("<")
        stdin = (cwd / tokens[k + 1]).read_text(encoding="utf-8")
        del tokens[k : k + 2]
    if ">" in tokens:
        k = tokens.index(">")
        out_file = cwd / tokens[k + 1]
        del tokens[k : k + 2]
    p = call_cli(*tokens[1:], cwd=cwd, input=stdin)
    if out_file is not None:
        out_file.write_text(p.stdout, encoding="utf-8")
        p = subprocess.CompletedProcess(p.args, p.returncode, "", p.stderr)
    if rest:
        piped = _bash(rest, cwd, env, stdin=p.stdout)
        p = subprocess.CompletedProcess(p.args, p.returncode, piped.stdout, p.stderr + piped.stderr)
    return p


def _curl(text: str, cwd: Path, env: dict[str, str], port: int) -> subprocess.CompletedProcess:
    local = HOSTS.sub(lambda m: m.group(0).replace(PORT_IN_DOCS, str(port)), text)
    for url in re.findall(r"(?:https?://)?[\w.-]+:\d+", local):
        assert re.fullmatch(r"(?:https?://)?(?:127\.0\.0\.1|localhost):" + str(port), url), f"not this server: {url}"
    return _bash(local, cwd, env)


def _setup(command: Command, cwd: Path, env: dict[str, str], port: int | None) -> None:
    """Run an assignment (keeping its value for the block) or a wait."""
    text = command.text
    if port is not None:
        text = HOSTS.sub(lambda m: m.group(0).replace(PORT_IN_DOCS, str(port)), text)
    if command.text.startswith("until"):
        p = _bash(f"timeout 120 bash -c {shlex.quote(text)}", cwd, env)
        assert p.returncode == 0, f"line {command.line}: the wait did not end: {p.stderr}"
        return
    name = text.split("=", 1)[0]
    p = _bash(f'{text}\nprintf %s "${name}"', cwd, env)
    assert p.returncode == 0 and p.stdout, f"line {command.line}: {text}: {p.stderr}"
    env[name] = p.stdout


def _check(block: Block, command: Command, p: subprocess.CompletedProcess) -> None:
    where = f"{block.path.relative_to(ROOT)}:{command.line}: {command.text}"
    printed = normal(p.stdout + p.stderr)
    assert "Traceback" not in printed, f"{where}\n{printed}"
    shown = command.shown or []
    if not any(ERROR_LINE.match(line) for line in shown):
        assert p.returncode == 0, f"{where}: exit status {p.returncode}\n{printed}"
    if command.shown:
        expected = normal("\n".join(command.shown))
        assert pattern(expected.splitlines()).fullmatch(printed), f"{where}\nshown:\n{expected}\nprinted:\n{printed}"


def _params() -> list:
    out = []
    for block in ALL:
        if block.runnable():
            marks = [pytest.mark.slow] if block.slow else []
            out.append(pytest.param(block, id=block.id, marks=marks))
    return out


@pytest.mark.parametrize("block", _params())
def test_the_block_runs_as_shown(
    block: Block, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # rich's tables (stats) as a pipe gets them, whatever the terminal
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    cwd = _workdir(tmp_path)
    curl = any(c.text.startswith("curl") or "curl " in c.text for c in block.runnable())
    port = request.getfixturevalue("server") if curl else None
    env: dict[str, str] = {}
    for command in block.runnable():
        if command.setup:
            _setup(command, cwd, env, port)
            continue
        TALLY["run"] += 1
        TALLY["failed"] += 1  # until it has passed
        if command.text.startswith("curl"):
            assert port is not None
            p = _curl(command.text, cwd, env, port)
        else:
            p = _polytile(command.text, cwd, env)
        _check(block, command, p)
        TALLY["failed"] -= 1


def test_every_command_in_the_docs_is_run_or_says_why_not():
    n = counted()
    assert n["commands"] >= 60, n  # the parser found the docs' commands
    print(summary())
    for block in ALL:
        for c in block.commands:
            if c.excused is not None and not c.setup:
                assert len(c.excused) > 3, f"{block.id}: line {c.line}: a reason, please"


def test_no_command_hides_in_an_indented_block():
    """Indented code blocks are not run: a command there must move into a fenced block."""
    for path in documents():
        inside = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FENCE.match(line):
                inside = not inside
            elif not inside and re.match(r" {4,}(\$ )?(polytile|curl) ", line):
                pytest.fail(f"{path.relative_to(ROOT)}:{number}: a command outside a fenced block")
