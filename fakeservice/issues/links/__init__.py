"""Issue links: two-way relations between issues (``relates_to``, ``blocks``)."""
