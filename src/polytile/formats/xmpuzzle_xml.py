"""The defensive XML layer of the BurrTools reader (formats/xmpuzzle.py): the bytes of a
file (gzip or plain) within a size limit, parsed by defusedxml into a tree that holds only
the elements the reader reads, where every voxel string's position is kept for messages,
and attributes read as plain ASCII numbers.

- gzip is unpacked in chunks and refused past MAX_XML bytes (a gzip bomb);
- defusedxml refuses entities and external references; an encoding Python cannot read
  (unknown, or multi-byte: expat takes single-byte encodings only) is one line;
- elements the reader never reads (stored solutions, comments...) are not built, and the
  tree is refused past MAX_ELEMENTS elements: a small file of millions of empty elements
  would otherwise take gigabytes;
- a number is ASCII digits only (Python's int() also reads '١٢' and '1_000'), of at most
  MAX_DIGITS digits, under the bound its use sets."""

from __future__ import annotations

import gzip
import io
import re
import zlib
from typing import TYPE_CHECKING

from ..errors import PuzzleError
from .common import clip

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

MAX_XML = 32 << 20  # bytes of XML after decompression
MAX_ELEMENTS = 1 << 18  # elements kept in the tree
MAX_DIGITS = 9  # digits of a number (leading zeros aside)
GZIP_MAGIC = b"\x1f\x8b"
NUMBER = re.compile(r"-?[0-9]+")  # ASCII digits only: no Unicode digits, no `_`, no `+`
# the paths (tags from the root's children down) of the elements the reader reads
KEEP = {
    ("gridType",),
    ("colors",),
    ("colors", "color"),
    ("shapes",),
    ("shapes", "voxel"),
    ("problems",),
    ("problems", "problem"),
    ("problems", "problem", "shapes"),
    ("problems", "problem", "shapes", "shape"),
    ("problems", "problem", "shapes", "shape", "group"),
    ("problems", "problem", "result"),
    ("problems", "problem", "bitmap"),
    ("problems", "problem", "bitmap", "pair"),
}


def unpack(raw: bytes, name: str, limit: int = MAX_XML) -> bytes:
    """The XML of a file's bytes (gzip or plain; the page's uploads come this way, with a
    lower `limit`): gunzipped in chunks, refused past `limit` bytes."""
    if not raw.startswith(GZIP_MAGIC):
        if len(raw) > limit:
            raise PuzzleError(f"more than {limit >> 20} MB of XML", name)
        return raw
    out = bytearray()
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
            while chunk := stream.read(1 << 20):
                out += chunk
                if len(out) > limit:
                    raise PuzzleError(f"decompresses to more than {limit >> 20} MB of XML (a gzip bomb?)", name)
    except (OSError, EOFError, zlib.error) as e:
        raise PuzzleError(f"broken gzip data: {clip(str(e))}", name) from None
    return bytes(out)


class _Keeper:
    """An ElementTree parser target that builds the elements in KEEP (and the root) and
    skips every other subtree, counting what it builds."""

    def __init__(self, name: str):
        from xml.etree.ElementTree import TreeBuilder

        self.name = name
        self.builder = TreeBuilder()
        self.path: list[str] = []  # tags of the open kept elements below the root
        self.depth = 0  # open kept elements, the root included
        self.skip = 0  # open elements inside a skipped one
        self.kept = 0
        self.expat: object | None = None  # the expat parser, for positions
        self.positions: dict[Element, tuple[int, int]] = {}  # where each voxel's text starts
        self.text_of: Element | None = None  # a voxel whose text has not started

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        if self.skip or (self.depth and tuple(self.path + [tag]) not in KEEP):
            self.skip += 1
            return
        self.kept += 1
        if self.kept > MAX_ELEMENTS:
            raise PuzzleError(f"more than {MAX_ELEMENTS} elements to read (shapes, problems, colours)", self.name)
        if self.depth:
            self.path.append(tag)
        self.depth += 1
        element = self.builder.start(tag, attrs)
        self.text_of = element if tag == "voxel" else None

    def end(self, tag: str) -> None:
        if self.skip:
            self.skip -= 1
            return
        if self.path:
            self.path.pop()
        self.depth -= 1
        self.text_of = None
        self.builder.end(tag)

    def data(self, text: str) -> None:
        if self.skip:
            return
        if self.text_of is not None:
            where = (getattr(self.expat, "CurrentLineNumber", 0), getattr(self.expat, "CurrentColumnNumber", -1) + 1)
            self.positions[self.text_of] = where
            self.text_of = None
        self.builder.data(text)

    def close(self) -> Element:
        root: Element = self.builder.close()
        return root


def parse_xml(data: bytes, name: str) -> tuple[Element, dict[Element, tuple[int, int]]]:
    """The XML's root element (only what the reader reads) and the voxel strings' positions;
    entities, DTD tricks, unreadable encodings and syntax errors refused in one line."""
    from xml.etree.ElementTree import ParseError

    import defusedxml
    from defusedxml.ElementTree import DefusedXMLParser

    try:
        data.decode("utf-8")
    except UnicodeDecodeError:  # BurrTools writes its comments' bytes as they came
        if b"encoding=" not in data[:100]:
            data = data.decode("latin-1").encode("utf-8")
    keeper = _Keeper(name)
    try:
        parser = DefusedXMLParser(target=keeper, forbid_dtd=False, forbid_entities=True, forbid_external=True)
        keeper.expat = parser.parser
        parser.parser.buffer_text = False  # a text's first chunk arrives where it starts (its position)
        parser.feed(data)
        root = parser.close()
    except ParseError as e:
        line, col = getattr(e, "position", (None, None))
        msg = str(e).split(":")[0]
        raise PuzzleError(f"malformed XML: {msg}", name, line, None if col is None else col + 1) from None
    except defusedxml.DefusedXmlException as e:
        raise PuzzleError(
            f"refused XML: {type(e).__name__} (entities and external references are not read)", name
        ) from None
    except (LookupError, ValueError) as e:  # unknown encoding; expat: "multi-byte encodings are not supported"
        raise PuzzleError(f"the XML declares an encoding polytile cannot read ({clip(str(e))})", name, 1) from None
    return root, keeper.positions


def number(element: Element, attr: str, name: str, where: str, default: int | None = None, most: int = 0) -> int:
    """A non-negative integer attribute in ASCII digits, at most `most` (0: MAX_DIGITS digits)."""
    text = element.get(attr)
    if text is None:
        if default is None:
            raise PuzzleError(f"{where}: missing attribute {attr!r}", name)
        return default
    stripped = text.strip()
    if NUMBER.fullmatch(stripped) is None:
        raise PuzzleError(f"{where}: attribute {attr}={clip(text, 20)!r} is not an integer", name)
    digits = stripped.lstrip("-").lstrip("0")
    if len(digits) > MAX_DIGITS:
        limit = f"over the limit of {most}" if most else "too large"
        raise PuzzleError(f"{where}: attribute {attr}={clip(stripped, 20)!r} is {limit}", name)
    value = int(digits or "0")
    if stripped.startswith("-") and value:
        raise PuzzleError(f"{where}: attribute {attr}=-{value} is negative", name)
    if most and value > most:
        raise PuzzleError(f"{where}: attribute {attr}={value} is over the limit of {most}", name)
    return value
