"""The model: shapes and grids, puzzles, their reduction to exact cover, symmetry and results.
No search and no file formats: every other layer builds on these types."""
