"""Refs: the default branch, branches, tags and resolving a ref name to a commit."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from dulwich.objects import Commit
from dulwich.objects import Tag as TagObject

from fakeservice.core.errors import ApiError, Conflict, NotFound, or_404
from fakeservice.repository.engine.constants import (
    BRANCH_EXISTS,
    BRANCH_INVALID,
    DEFAULT_BRANCH_DELETE,
    HEAD,
    HEADS,
    SYMREF,
    TAG_INVALID,
    TAGS,
    TYPE_COMMIT,
    TYPE_TAG,
)
from fakeservice.repository.engine.paths import (
    bad,
    enc,
    is_hex,
    valid_branch_name,
    valid_tag_name,
)
from fakeservice.repository.engine.reader import ObjectReader
from fakeservice.repository.engine.records import Branch, Tag
from fakeservice.repository.engine.text import at_time, ident, parse_ident


class Refs(ObjectReader):
    """Branches, tags and ref resolution (git's rules and the real service's errors)."""

    @property
    def default_branch(self) -> str:
        return self._default_branch

    @default_branch.setter
    def default_branch(self, name: str) -> None:
        self._default_branch = name
        self._refs[HEAD] = SYMREF + HEADS + enc(name)

    @property
    def is_empty(self) -> bool:
        return not any(name.startswith(HEADS) for name in self._refs)

    def adopt_default_branch(self, candidates: Iterable[str]) -> None:
        """Make the first existing candidate the default branch if the default is missing."""
        if self.branch(self._default_branch) is not None:
            return
        for name in candidates:
            if self.branch(name) is not None:
                self.default_branch = name
                return

    # -- refs ----------------------------------------------------------------------------
    def refs(self) -> dict[str, str]:
        """Every ref (full name) and the sha it points at; symbolic refs are left out."""
        return {
            name.decode(): value.decode()
            for name, value in self._refs.items()
            if not value.startswith(SYMREF)
        }

    def branches(self) -> list[Branch]:
        found = [
            Branch(name[len(HEADS) :].decode(), sha.decode())
            for name, sha in self._refs.items()
            if name.startswith(HEADS)
        ]
        return sorted(found, key=lambda b: b.name)

    def branch(self, name: str) -> Branch | None:
        sha = self._refs.get(HEADS + enc(name))
        return Branch(name, sha.decode()) if sha is not None else None

    def create_branch(self, name: str, ref: str) -> Branch:
        """Create ``name`` at ``ref``. 400 for a bad name, an existing branch or a bad ref."""
        if not valid_branch_name(name):
            raise bad(BRANCH_INVALID)
        if self.branch(name) is not None:
            raise bad(BRANCH_EXISTS)
        sha = self.resolve(ref)
        if sha is None:
            raise bad(f"Invalid reference name: {ref}")
        self._refs[HEADS + enc(name)] = sha.encode()
        self.adopt_default_branch([name])
        return Branch(name, sha)

    def set_branch(self, name: str, commit_id: str) -> None:
        """Point a branch at a commit unconditionally (force update), creating it if needed."""
        if self._commit(enc(commit_id)) is None:
            raise NotFound("Commit")
        self._refs[HEADS + enc(name)] = enc(commit_id)
        self.adopt_default_branch([name])

    def delete_branch(self, name: str) -> None:
        """404 ``Branch Not Found``; 405 for the default branch."""
        key = HEADS + enc(name)
        if key not in self._refs:
            raise NotFound("Branch")
        if name == self._default_branch:
            raise ApiError({"message": DEFAULT_BRANCH_DELETE}, status=405)
        del self._refs[key]

    def tags(self) -> list[Tag]:
        names = sorted(n[len(TAGS) :].decode() for n in self._refs if n.startswith(TAGS))
        return [tag for tag in (self.tag(name) for name in names) if tag is not None]

    def tag(self, name: str) -> Tag | None:
        target = self._refs.get(TAGS + enc(name))
        if target is None:
            return None
        commit = self._peel(target)
        if self._store.raw.kind(target) != TYPE_TAG:
            return Tag(name, target.decode(), (commit or target).decode())
        obj = self._store[target]
        assert isinstance(obj, TagObject)
        tagger_name, tagger_email = parse_ident(obj.tagger or b"")
        return Tag(
            name=name,
            target=target.decode(),
            commit_id=(commit or target).decode(),
            message=obj.message.decode("utf-8", "replace").rstrip("\n"),
            tagger_name=tagger_name,
            tagger_email=tagger_email,
            created_at=at_time(obj.tag_time, obj.tag_timezone),
        )

    def create_tag(
        self,
        name: str,
        ref: str,
        message: str | None = None,
        *,
        tagger_name: str = "",
        tagger_email: str = "",
        when: dt.datetime,
    ) -> Tag:
        """Lightweight tag, or annotated (tagger, ``when``) when ``message`` is non-empty.

        400 ``Tag name invalid``; 409 ``Tag <name> already exists``; 400
        ``Target <ref> is invalid``.
        """
        if not valid_tag_name(name):
            raise bad(TAG_INVALID)
        if self.tag(name) is not None:
            raise Conflict(f"Tag {name} already exists")
        sha = self.resolve(ref)
        if sha is None:
            raise bad(f"Target {ref} is invalid")
        target = sha.encode()
        if message:
            target = self._write_tag_object(name, target, message, tagger_name, tagger_email, when)
        self._refs[TAGS + enc(name)] = target
        tag = self.tag(name)
        assert tag is not None
        return tag

    def _write_tag_object(
        self,
        name: str,
        target: bytes,
        message: str,
        tagger_name: str,
        tagger_email: str,
        when: dt.datetime,
    ) -> bytes:
        obj = TagObject()
        obj.object = (Commit, target)
        obj.name = enc(name)
        obj.tagger = ident(tagger_name, tagger_email)
        obj.tag_time = int(when.timestamp())
        obj.tag_timezone = 0
        obj.message = enc(message)
        self._store.add_object(obj)
        return obj.id

    def delete_tag(self, name: str) -> None:
        """404 ``Tag Not Found``."""
        key = TAGS + enc(name)
        if key not in self._refs:
            raise NotFound("Tag")
        del self._refs[key]

    # -- resolving -----------------------------------------------------------------------
    def resolve(self, ref: str | None) -> str | None:
        """The commit a ref names, or None.

        Accepts ``HEAD``, a full sha, a full ref name, a tag then a branch name (git's
        order), then a unique abbreviated commit sha of at least 7 hex digits.
        """
        found = self._resolve(ref)
        return found.decode() if found is not None else None

    def _resolve(self, ref: str | None) -> bytes | None:
        if not ref:
            return None
        if ref == "HEAD":
            return self._peel(self._refs.get(HEADS + enc(self._default_branch), b""))
        lowered = ref.lower()
        if len(ref) == 40 and is_hex(lowered):
            return self._peel(lowered.encode())
        name = enc(ref)
        for candidate in (name, b"refs/" + name, TAGS + name, HEADS + name):
            target = self._refs.get(candidate)
            if target is not None and not target.startswith(SYMREF):
                return self._peel(target)
        if 7 <= len(ref) < 40 and is_hex(lowered):
            return self._abbreviated(lowered.encode())
        return None

    def _abbreviated(self, prefix: bytes) -> bytes | None:
        matches = [
            sha
            for sha, kind in self._store.raw.kinds()
            if kind == TYPE_COMMIT and sha.startswith(prefix)
        ]
        return matches[0] if len(matches) == 1 else None

    def _peel(self, sha: bytes) -> bytes | None:
        """Follow tag objects to a commit; None if ``sha`` is missing or not a commit."""
        for _ in range(32):
            kind = self._store.raw.kind(sha)
            if kind == TYPE_COMMIT:
                return sha
            if kind != TYPE_TAG:
                return None
            obj = self._store[sha]
            assert isinstance(obj, TagObject)
            sha = obj.object[1]
        return None

    def _resolve_or_404(self, ref: str | None, kind: str = "Commit") -> bytes:
        return or_404(self._resolve(ref), kind)
