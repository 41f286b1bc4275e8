"""Tests of downstream."""
