"""The exact-cover kernel family for any matrix: Knuth's Algorithm C (dancing links with
secondary items and colours): `kernel` (the compiled search) and `driver` (`ExactDriver`:
its links built, the kernel run in slices)."""
