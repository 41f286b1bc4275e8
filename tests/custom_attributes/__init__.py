"""Tests of the custom attributes endpoints."""
