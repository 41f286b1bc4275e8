"""File templates (``/templates/...``, ``/projects/:id/templates/...``): a small built-in
set of ``.gitignore`` files, CI configurations, Dockerfiles and licences, and a project's
own issue and merge request templates."""
