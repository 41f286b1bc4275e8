"""Instance metadata: ``/version`` and ``/metadata``."""
