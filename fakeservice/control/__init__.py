"""The test control plane under ``/_fake/``: reset, snapshots, clock, journal, faults."""
