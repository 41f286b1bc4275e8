"""Notes on every noteable (seed 001 §2.4, §4.4, §6): one module, one registration per noteable."""
