"""Figures and help for people, built on the verbs: a puzzle's statistics, hints, hand play and
hole surveys. Above tiling/ and shikaku/, so it may use every layer below: the verbs, and the
engine where a figure needs the search itself (tree estimates, a survey's grouped tally)."""
