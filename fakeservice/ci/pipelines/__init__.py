"""CI pipelines: creating them (from the CI file, bridges, pushes), listing, operating on
them, and the pipeline endpoints."""
