"""Control plane endpoints under ``/_fake/``."""
