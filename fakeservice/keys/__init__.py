"""Users' SSH keys, GPG keys and secondary emails."""
