"""Counting the solutions of a cover without listing them, by the method that suits it."""
