"""Instance feature flags (``/features``): the administrators' flag gates, read by the
fake's own flag-gated behaviour."""
