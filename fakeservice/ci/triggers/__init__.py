"""Pipeline trigger tokens: their records, endpoints, scenario key and pipeline triggering."""
