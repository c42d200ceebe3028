"""The several-word bitboard kernel family (covers of 65 to 256 items): `kernel` (the
compiled search, each mask an array of words) and `driver` (`WideDriver`: its records,
`WideTables` and `WideStack`, built; the kernel run in slices)."""
