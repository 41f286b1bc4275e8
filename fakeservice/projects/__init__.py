"""Projects: records, listing filters (offset and keyset), views and routes."""
