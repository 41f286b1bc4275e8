"""Helpers shared by the test areas: tracked services stamped from per-process templates
(:mod:`.services`), in-process requests (:mod:`.calls`) and scenario records
(:mod:`.records`).

``tests/`` is on ``sys.path`` while the suite runs (each area is a package below it), so
test modules and conftests import them as ``support.<module>``.
"""
