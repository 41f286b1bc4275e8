"""Project repositories: real git objects kept in memory, file commits, reads and smart HTTP."""
