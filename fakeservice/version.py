"""The package's version (its own module, so that layers can read it without the root)."""

__version__ = "0.1.0"
