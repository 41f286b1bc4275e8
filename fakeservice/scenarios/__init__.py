"""Scenario files: the YAML schema, the loader that seeds a service, and replays."""
