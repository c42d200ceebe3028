"""A count on several cores or machines: the entry point (counts), the threads backend and
its work stealing, fixed tasks dealt for checkpoints, Dask and surveys, one task's run, the
SQLite checkpoint, the Dask backend with its scheduler probe, and the progress gauge."""
