"""Reading an OpenSSH public key line (``<type> <base64 blob> [comment]``): the blob must
decode and name the same type; fingerprints are the MD5 (colon hex) and SHA256 (unpadded
base64) digests of the blob, as ``ssh-keygen -l`` prints them."""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct

import attrs

TYPES = frozenset(
    {
        "ssh-rsa",
        "ssh-dss",
        "ssh-ed25519",
        "ecdsa-sha2-nistp256",
        "ecdsa-sha2-nistp384",
        "ecdsa-sha2-nistp521",
        "sk-ecdsa-sha2-nistp256@openssh.com",
        "sk-ssh-ed25519@openssh.com",
    }
)


@attrs.frozen
class PublicKey:
    type: str
    blob: bytes

    @property
    def fingerprint(self) -> str:
        digest = hashlib.md5(self.blob, usedforsecurity=False).hexdigest()
        return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))

    @property
    def fingerprint_sha256(self) -> str:
        return "SHA256:" + base64.b64encode(hashlib.sha256(self.blob).digest()).decode().rstrip("=")


def parse(text: str) -> PublicKey | None:
    """The key of an OpenSSH public key line, or None when it is not one."""
    parts = text.strip().split()
    if len(parts) < 2 or parts[0] not in TYPES:
        return None
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(blob) < 4:
        return None
    (length,) = struct.unpack(">I", blob[:4])
    if blob[4 : 4 + length] != parts[0].encode():
        return None
    return PublicKey(parts[0], blob)
