"""Pictures, terminal drawings and 3D meshes of pieces and solutions: what people see. It takes
placed pieces (core.results) and knows nothing of search."""
