"""The compiled geometry of the set-up: the whole model of a plain puzzle in one call
(modelling, with congruence), the placements (placing), the pieces' orientations and the
board's group (turning), the symmetry analysis (orbits, orbit_masks) and symmetry
breaking's choices (breaking); each *_driver module hands its kernel to core in the form
core takes (core's numpy is the reference every one is compared with)."""
