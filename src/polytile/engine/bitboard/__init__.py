"""The one-word bitboard kernel family (covers of up to 64 items): `kernel` (the compiled
search), `driver` (`BitboardDriver`: its tables and stack built, the kernel run in slices),
`records` (the kernel records it takes), `tables` (its tables built in compiled code),
`memo_table` (when and where the kernel keeps counts of sub-problems to reuse them), and
`dynamic` / `dynamic_driver` (`DynamicDriver`: the kernel for wide frontiers, the 3D boxes,
that fills the empty item the fewest live placements cover)."""
