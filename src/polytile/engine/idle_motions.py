"""Drop the motions of the board that never map a solution to a solution.

The board's group G acts on the options; the leaves (engine/leaf.classify) try every
motion g of G on each solution, and one outside H (the motions that map the solution set
onto itself, see core.symmetry) counts only when the image happens to be a solution. For
some puzzles no image under g ever is: when some piece that every solution uses (minimum
>= 1) has no placement whose image under g is the placement of any piece. The Bedlam cube
is one: the board has 48 motions, its pieces turn in space only (H: the 24 rotations),
and the mirror image of its skew tetracube is no piece. Such a motion changes nothing a
leaf computes, so the kernels' tables leave it out: the leaves test fewer images, and
when every motion left is in H, all leaves below a placement of the fixed pieces without
symmetry count alike (bitboard.memo_table.memo_weights) and the bitboard kernel may reuse
the counts of sub-problems (its memo), which it could not before.
"""

from __future__ import annotations

import numpy as np


def idle_motions(
    label_img: np.ndarray,
    opt_label: np.ndarray,
    label_piece: np.ndarray,
    h_mask: int,
    opt_piece: np.ndarray,
    piece_min: np.ndarray,
) -> np.ndarray:
    """(|G|,) bool: g is outside H and maps no solution to a solution, because some piece
    with a minimum >= 1 and placements has no placement whose image under g is the
    placement of a piece."""
    n_g = label_img.shape[0]
    in_h = (np.uint64(h_mask) >> np.arange(n_g, dtype=np.uint64)) & np.uint64(1) == 1
    outside = np.nonzero(~in_h)[0]
    idle = np.zeros(n_g, dtype=bool)
    if len(outside) == 0 or len(opt_piece) == 0:
        return idle
    n_pieces = len(piece_min)
    needed = (piece_min >= 1) & (np.bincount(opt_piece, minlength=n_pieces) > 0)
    is_piece = label_piece[label_img[outside][:, opt_label]] >= 0  # (outside, n_opt)
    n_g_out = len(outside)
    flat = (np.arange(n_g_out)[:, None] * n_pieces + opt_piece[None, :]).ravel()
    hits = np.bincount(flat, weights=is_piece.ravel(), minlength=n_g_out * n_pieces)
    idle[outside] = ((hits.reshape(n_g_out, n_pieces) == 0) & needed[None, :]).any(axis=1)
    return idle


def compress_bits(words: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """uint64 words with bit j of the result = bit keep[j] of the word (keep ascending,
    at most 64 entries)."""
    bits = np.unpackbits(words.astype(np.uint64).view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    out = np.zeros((len(words), 64), dtype=np.uint8)
    out[:, : len(keep)] = bits[:, keep]
    packed: np.ndarray = np.packbits(out, axis=1, bitorder="little").view(np.uint64).ravel()
    return packed


def without_idle(
    label_img: np.ndarray,
    opt_label: np.ndarray,
    label_piece: np.ndarray,
    h_mask: int,
    opt_stab: np.ndarray,
    opt_piece: np.ndarray,
    piece_min: np.ndarray,
) -> tuple[np.ndarray, int, np.ndarray]:
    """(label_img, h_mask, opt_stab) with the idle motions' rows and bits left out (the
    same arrays when there is none): what the leaves and the memo read."""
    n_g = label_img.shape[0]
    if bin(int(h_mask)).count("1") == n_g:  # H is G: nothing to drop (the common case)
        return label_img, h_mask, opt_stab
    idle = idle_motions(label_img, opt_label, label_piece, h_mask, opt_piece, piece_min)
    if not idle.any():
        return label_img, h_mask, opt_stab
    keep = np.nonzero(~idle)[0]
    mask = np.array([int(h_mask)], dtype=np.uint64)
    new_mask = int(compress_bits(mask, keep)[0])
    return np.ascontiguousarray(label_img[keep]), new_mask, compress_bits(opt_stab, keep)
