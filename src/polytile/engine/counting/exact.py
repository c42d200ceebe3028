"""Exact integers from counts kept modulo primes: the primes, and the Chinese remainder theorem.

The sweeps count modulo primes just below 2**61 (a sum of two residues stays below 2**62,
never wrapping a uint64). A count is known exactly once the product of the primes passes an
upper bound on it; the primes are found by a deterministic Miller-Rabin test (the bases
2..37 decide every n < 3.3 * 10**24, so every n < 2**62).
"""

from __future__ import annotations

from functools import lru_cache

TOP = 1 << 61
_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)


def is_prime(n: int) -> bool:
    """Deterministic for n < 3.3 * 10**24."""
    if n < 2:
        return False
    for b in _BASES:
        if n % b == 0:
            return n == b
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for b in _BASES:
        x = pow(b, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@lru_cache(maxsize=None)
def primes(k: int) -> tuple[int, ...]:
    """The k largest primes below 2**61."""
    if k == 0:
        return ()
    found = list(primes(k - 1))
    n = (found[-1] if found else TOP) - 1
    while not is_prime(n):
        n -= 1
    return (*found, n)


def needed(bound: int) -> int:
    """How many of `primes` make a product above `bound` (a count <= bound is then exact)."""
    k, product = 0, 1
    while product <= bound:
        k += 1
        product *= primes(k)[-1]
    return max(k, 1)


def crt(residues: list[int], moduli: tuple[int, ...]) -> int:
    """The integer in [0, prod(moduli)) with these residues."""
    x, m = 0, 1
    for r, p in zip(residues, moduli):
        t = (r - x) * pow(m, -1, p) % p
        x += m * t
        m *= p
    return x
