"""The CI/CD area, one sub-package per concept.

- :mod:`.config`: the CI file engine (parse, expand, validate, plan) and the lint endpoints;
- :mod:`.pipelines`: creating pipelines (CI file, bridges, pushes), lists, operations,
  the pipeline endpoints;
- :mod:`.jobs`: operations on jobs and job tokens, the job endpoints;
- :mod:`.artifacts`: archives, logs, JUnit reports, default artifacts, test reports, the
  artifact endpoints;
- :mod:`.runner`: the simulated runner (settings, outcomes, timing, simulation,
  ``service.runner``) and its ``/_fake/ci`` endpoints.

Shared by them, here: :mod:`.models` (records and tables), :mod:`.machines` (job and
pipeline state machines), :mod:`.flow` (the one place statuses change), :mod:`.access`,
:mod:`.views`, :mod:`.repo` (what CI reads from repositories), :mod:`.route_common` and
:mod:`.router`; :mod:`.area` registers it all, :mod:`.scenario` and :mod:`.lifecycle`
are its parts of scenarios and of other areas' events.
"""
