"""Project and personal snippets (seed 001 §2.5, §4.5), each backed by its own git repository."""
