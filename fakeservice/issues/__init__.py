"""Issues (the noteable seed 001 §4.4 relies on; the real issues endpoints) and the pieces
every issuable (issue, merge request) shares: filters and common JSON fields."""
