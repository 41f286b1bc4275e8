"""Commit statuses: external systems report on a commit (``POST /projects/:id/statuses/:sha``)
as jobs of the ``external`` stage of a pipeline for that commit, which feed its status."""
