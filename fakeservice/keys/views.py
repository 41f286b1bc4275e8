"""JSON shapes of SSH keys, GPG keys and emails."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.keys.models import Email, GPGKey, SSHKey


def ssh_key_view(key: SSHKey) -> dict[str, Any]:
    return {
        "id": key.id,
        "title": key.title,
        "created_at": iso(key.created_at),
        "expires_at": iso(key.expires_at),
        "last_used_at": iso(key.last_used_at),
        "key": key.key,
        "usage_type": key.usage_type,
    }


def gpg_key_view(key: GPGKey) -> dict[str, Any]:
    return {"id": key.id, "key": key.key, "created_at": iso(key.created_at)}


def email_view(email: Email) -> dict[str, Any]:
    return {"id": email.id, "email": email.email, "confirmed_at": iso(email.confirmed_at)}
