"""Search engine over an exact cover, and the compiled steps of the set-up (placements,
orientations, the model of a plain square or cubic puzzle, the symmetry analysis), whose numpy
references are in core."""
