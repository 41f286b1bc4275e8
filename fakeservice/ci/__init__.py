"""CI/CD engine: configuration and planning, job/pipeline machines, JUnit reports, archives."""
