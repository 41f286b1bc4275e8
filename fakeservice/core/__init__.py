"""The service's core: the in-memory store, the clock, state machines and domain errors.

Nothing in this package knows about HTTP; the web layer renders what it raises.
"""
