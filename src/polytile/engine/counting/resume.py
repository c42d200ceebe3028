"""A frontier count's checkpoint: the layer a sweep has reached, saved atomically, so that a
count stopped (time limit, Ctrl-C, a crash) goes on from there to the same answer.

One NumPy .npz file (read with allow_pickle=False: arrays only, nothing executed), made for
one sweep plan (a digest of its arrays): per pass (`tag`), either the layer reached (its
item, keys, residues, floats, transitions, widest layer) or the pass's result.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...atomic import write_bytes

if TYPE_CHECKING:
    import numpy as np


class CheckpointError(ValueError):
    """A checkpoint file that is not this count's (or not a checkpoint at all)."""


def fingerprint(arrays: tuple[np.ndarray, ...], text: str) -> str:
    """A digest of a sweep's data: a checkpoint resumes only the count it was made for."""
    digest = hashlib.sha256()
    for a in arrays:
        digest.update(a.tobytes() + b"\0")
    digest.update(text.encode())
    return digest.hexdigest()


class Checkpoint:
    """The file `path` for the sweep whose data has the digest `digest` (CheckpointError
    when it holds another count's)."""

    def __init__(self, path: str | Path, digest: str):
        import numpy as np

        self.path, self.digest = Path(path), digest
        self.arrays: dict[str, Any] = {}
        if self.path.exists() and self.path.stat().st_size:
            try:
                with np.load(self.path, allow_pickle=False) as found:
                    self.arrays = {k: found[k] for k in found.files}
            except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
                raise CheckpointError(f"not a frontier checkpoint ({type(e).__name__})") from None
            if str(self.arrays.pop("digest", np.array(""))) != self.digest:
                raise CheckpointError("a checkpoint of another count")

    def layer(self, tag: str) -> tuple[int, Any, Any, Any, int, int] | None:
        """(item, keys, residues, floats, transitions, widest) of the pass's layer, or None."""
        a = self.arrays
        if f"{tag}_p" not in a:
            return None
        return (
            int(a[f"{tag}_p"]),
            a[f"{tag}_keys"],
            a[f"{tag}_res"],
            a[f"{tag}_approx"],
            int(a[f"{tag}_moved"]),
            int(a[f"{tag}_wide"]),
        )

    def result(self, tag: str) -> tuple[list[int], float, int, int] | None:
        """(residues, float total, transitions, widest) of a finished pass, or None."""
        a = self.arrays
        if f"{tag}_total" not in a:
            return None
        return (
            [int(x) for x in a[f"{tag}_total"].tolist()],
            float(a[f"{tag}_sum"]),
            int(a[f"{tag}_moved"]),
            int(a[f"{tag}_wide"]),
        )

    def save_layer(self, tag: str, p: int, keys: Any, res: Any, approx: Any, moved: int, wide: int) -> None:
        """The layer before item p."""
        self.arrays.update(
            {
                f"{tag}_p": p,
                f"{tag}_keys": keys,
                f"{tag}_res": res,
                f"{tag}_approx": approx,
                f"{tag}_moved": moved,
                f"{tag}_wide": wide,
            }
        )
        self._write()

    def save_result(self, tag: str, total: list[int], approx: float, moved: int, wide: int) -> None:
        """A pass done: its result, its layer dropped."""
        import numpy as np

        for k in ("p", "keys", "res", "approx"):
            self.arrays.pop(f"{tag}_{k}", None)
        self.arrays.update(
            {
                f"{tag}_total": np.array([str(t) for t in total]),
                f"{tag}_sum": approx,
                f"{tag}_moved": moved,
                f"{tag}_wide": wide,
            }
        )
        self._write()

    def _write(self) -> None:
        import numpy as np

        buffer = io.BytesIO()
        np.savez(buffer, **{"digest": np.array(self.digest), **self.arrays})
        write_bytes(self.path, buffer.getvalue())
