"""The dancing-links kernel family (tiling covers of any size): `kernel` (Knuth's
Algorithm X on links, compiled) and `driver` (`DlxDriver`: its records, `DlxTables`,
`Links` and `DlxStack`, built; the kernel run in slices)."""
