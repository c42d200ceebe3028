"""Search engine over an exact cover. Knows nothing about geometry."""
