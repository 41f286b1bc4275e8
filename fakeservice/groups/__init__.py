"""Groups and namespaces: records, hierarchy, listing filters, views and routes."""
