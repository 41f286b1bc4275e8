"""Protected environments (seed 000 §4.5): records, views, routes and the scenario key."""
