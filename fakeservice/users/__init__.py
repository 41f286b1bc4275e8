"""Users: records, the list filters, the normal/admin/current-user views and their routes."""
