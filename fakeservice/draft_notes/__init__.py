"""Merge request draft notes: review comments kept private to their author until published
as notes and threads (``/projects/:id/merge_requests/:iid/draft_notes``)."""
