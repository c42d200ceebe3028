"""The one-word bitboard kernel family (covers of up to 64 items): `kernel` (the compiled
search), `driver` (`BitboardDriver`: its tables and stack built, the kernel run in slices),
`records` (the kernel records it takes), `tables` (its tables built in compiled code) and
`memo_table` (when and where the kernel keeps counts of sub-problems to reuse them)."""
