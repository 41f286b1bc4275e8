"""Runners: the records of the runners that run CI jobs (instance, group and project
runners), their registration and authentication tokens, the runners API, and the choice
of the runner that picks each build up in the simulation."""
