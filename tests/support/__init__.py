"""Helpers shared by the test areas: tracked services stamped from per-process templates
(:mod:`.services`) and in-process requests (:mod:`.calls`).

``tests/`` is on ``sys.path`` while the suite runs (each area is a package below it), so
test modules and conftests import these as ``support.services`` and ``support.calls``.
"""
