"""To-do items: the caller's list, marking done, and to-dos made on issues."""
