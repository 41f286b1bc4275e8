"""Topics: the instance's project topics, fed by project ``topics`` and managed by administrators."""
