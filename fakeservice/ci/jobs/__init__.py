"""CI jobs: operations on jobs (cancel, retry, play, job tokens) and the job endpoints."""
