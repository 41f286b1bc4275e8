"""Instance clusters (seed 000 §4.6, deprecated certificate-based): records, views, routes."""
