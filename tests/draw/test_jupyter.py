"""A solution shows as a picture in Jupyter: `import polytile` teaches a running IPython's SVG
formatter the Solution type by name (the model in core/ never imports the drawing layer).
IPython is not a dependency: a stand-in with the parts of IPython that polytile and matplotlib
look at (get_ipython, version_info, the formatter) records the call."""

import sys
import types

import numpy as np

import polytile
from polytile.core.results import Placement, Solution


class _Formatter:
    def __init__(self):
        self.by_name = {}

    def for_type_by_name(self, module, name, func):
        self.by_name[(module, name)] = func


def test_outside_ipython_nothing_is_registered(monkeypatch):
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    assert polytile.show_in_jupyter() is False
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: None, version_info=(9, 0)))
    assert polytile.show_in_jupyter() is False


def test_a_notebook_draws_a_solution_as_svg(monkeypatch):
    svg = _Formatter()
    shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace(formatters={"image/svg+xml": svg}))
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell, version_info=(9, 0)))
    assert polytile.show_in_jupyter() is True
    draw = svg.by_name[(Solution.__module__, Solution.__name__)]
    # a 2x2 board covered by two dominoes, placed by hand
    top = Placement("A", "A", np.array([[0, 0], [0, 1]]))
    bottom = Placement("B", "B", np.array([[1, 0], [1, 1]]))
    text = draw(Solution([top, bottom]))
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert 'id="piece-0-0-A"' in text and 'id="piece-0-1-B"' in text
