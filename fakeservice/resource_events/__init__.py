"""Resource events: the label, state and milestone history of issues and merge requests
(``resource_label_events``, ``resource_state_events``, ``resource_milestone_events``),
recorded from the issues' and merge requests' announcements."""
