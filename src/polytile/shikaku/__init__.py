"""Shikaku: a grid cut into rectangles, each holding one number, its area. Its own reduction to
exact cover and counters (propagation, memoised parts, Kasteleyn's Pfaffian), generator,
formats and pictures."""
