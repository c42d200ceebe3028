"""The exact determinant of a sparse integer matrix, up to sign (what a Pfaffian count needs).

Why modular: fraction-free (Bareiss) elimination must rescale every row at every step, which
destroys the sparsity that keeps a banded matrix cheap; elimination modulo a prime keeps the
rows sparse (a row changes only where the pivot row reaches). Exactness comes from Hadamard's
bound: |det M| <= prod_i ||row_i||_2 = H, so det M mod P, read as the residue in
(-P/2, P/2), is det M itself once P > 2H. The primes are Mersenne primes (proven prime);
when one is not enough, several are combined by the Chinese remainder theorem.

Rows are dicts {column: value}. The pivot of each column is the live row with the fewest
entries that holds the column (fill stays in the band of a matrix whose columns are taken
in band order). The sign of the row permutation is not tracked: callers take |det|.
"""

from __future__ import annotations

from typing import Callable

# Exponents p of Mersenne primes 2**p - 1 (all proven prime).
MERSENNE = (
    61,
    89,
    107,
    127,
    521,
    607,
    1279,
    2203,
    2281,
    3217,
    4253,
    4423,
    9689,
    9941,
    11213,
    19937,
    21701,
    23209,
    44497,
    86243,
    110503,
    132049,
    216091,
)


def hadamard_square(rows: list[dict[int, int]]) -> int:
    """H**2 = prod_i sum_j M[i][j]**2: an exact integer, so no rounding enters the bound."""
    out = 1
    for row in rows:
        out *= sum(v * v for v in row.values())
    return out


def moduli(h_square: int) -> list[int]:
    """Mersenne primes whose product P satisfies P > 2H, i.e. P**2 > 4 H**2: the largest
    first, as few as it takes."""
    chosen: list[int] = []
    product = 1
    for p in MERSENNE:
        if (1 << (2 * p)) > 4 * h_square:
            return [(1 << p) - 1]
    for p in reversed(MERSENNE):
        chosen.append((1 << p) - 1)
        product *= chosen[-1]
        if product * product > 4 * h_square:
            return chosen
    raise ValueError("matrix too large for an exact determinant")


def det_mod(rows: list[dict[int, int]], n_cols: int, prime: int, tick: Callable[[int], None] | None = None) -> int:
    """det M mod `prime`, up to sign (sparse elimination, pivots chosen for low fill).
    `tick(column)` is called every 64 columns (a deadline check may raise from it)."""
    live = [{c: v % prime for c, v in row.items() if v % prime} for row in rows]
    holders: list[set[int]] = [set() for _ in range(n_cols)]
    for r, row in enumerate(live):
        for c in row:
            holders[c].add(r)
    det = 1
    for col in range(n_cols):
        if tick is not None and not col % 64:
            tick(col)
        rows_here = holders[col]
        if not rows_here:
            return 0
        piv = min(rows_here, key=lambda r: (len(live[r]), r))
        prow = live[piv]
        for c in prow:
            holders[c].discard(piv)
        pv = prow.pop(col)
        det = det * pv % prime
        inv = pow(pv, -1, prime)
        for r in list(rows_here):
            _eliminate(live[r], r, prow, col, live[r].pop(col) * inv % prime, prime, holders)
        rows_here.clear()
        live[piv] = {}  # done with: only the rows still live keep their fill
    return det


def _eliminate(
    row: dict[int, int], r: int, prow: dict[int, int], col: int, factor: int, prime: int, holders: list[set[int]]
) -> None:
    """row -= factor * pivot row (the pivot column already taken out of both)."""
    for c, v in prow.items():
        x = (row.get(c, 0) - factor * v) % prime
        if x:
            if c not in row:
                holders[c].add(r)
            row[c] = x
        elif c in row:
            del row[c]
            holders[c].discard(r)


def crt(residues: list[int], primes: list[int]) -> int:
    """The x mod prod(primes) with x = residues[k] mod primes[k]."""
    x, m = 0, 1
    for a, p in zip(residues, primes):
        t = (a - x) * pow(m, -1, p) % p
        x, m = x + m * t, m * p
    return x


def abs_det(rows: list[dict[int, int]], n_cols: int, tick: Callable[[int], None] | None = None) -> int:
    """|det M| of a square integer matrix, exactly."""
    if len(rows) != n_cols:
        raise ValueError("the matrix is not square")
    if n_cols == 0:
        return 1
    primes = moduli(hadamard_square(rows))
    residues = [det_mod(rows, n_cols, p, tick) for p in primes]
    m = 1
    for p in primes:
        m *= p
    x = crt(residues, primes)
    return min(x, m - x)
