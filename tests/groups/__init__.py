"""Tests of the groups endpoints."""
