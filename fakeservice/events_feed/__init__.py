"""The events feed: contribution events (``/events``, ``/users/:id/events``,
``/projects/:id/events``) recorded from the other areas' announcements."""
