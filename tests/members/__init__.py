"""Tests of the members endpoints."""
