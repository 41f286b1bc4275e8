"""Tests of the foundation: conventions, authentication, pagination, users, tokens, projects."""
