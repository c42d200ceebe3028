"""The verbs on tiling puzzles (count, solve) and the puzzle families built on them: Katamino,
boxing, BurrTools' assemblies, calendars."""
