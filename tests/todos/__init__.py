"""To-do tests."""
