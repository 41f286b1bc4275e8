"""The simulated CI runner: its settings and scripted outcomes, its timing, the work it
does on jobs, ``service.runner`` and its ``/_fake/ci`` control endpoints."""
