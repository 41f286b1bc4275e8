"""Project feature flags (the Unleash-style API: strategies, scopes) and their user lists."""
