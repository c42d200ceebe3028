"""The bit-set kernel family: Algorithm X on bit sets of options, for `polytile cover`'s
matrices of up to some thousands of options: `kernel` (the compiled search), `driver`
(`BitsetDriver` on shared `Tables`) and `parallel` (the kernel on several threads)."""
