"""The disassembly kernel family: `kernel`, one breadth-first search for the first
separation of a set of pieces by translations (BurrTools' disassembler_0 order); the
recursion over the parts and the plans are tiling/disassembly.py's."""
