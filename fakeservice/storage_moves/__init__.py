"""Repository storage moves of projects, snippets and groups (seed 001 §2.9, §4.11)."""
