"""Resource groups: their records, the one-job-at-a-time rule on their jobs, and their endpoints."""
