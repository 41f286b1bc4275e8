"""Wiki repositories in the store and the page operations on them.

Each project or group wiki is a real :class:`~fakeservice.repository.git.Repository`
kept in ``store.extras["wikis"]`` under ``"project:<id>"`` or ``"group:<id>"``, so
snapshots and restores carry it. A wiki that never had a write has none: reads see no
pages, and the first successful write stores a fresh repository (a failed write leaves
no trace). Every write is one commit on the wiki's default branch by the caller, with
the service's messages (``<username> created page: <title>``, ``updated``,
``deleted``; ``Upload attachment <file name>``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import posixpath

import attrs

from fakeservice.core.errors import ApiError, ValidationFailed
from fakeservice.core.events import announce
from fakeservice.core.store import Store
from fakeservice.repository.git import Action, Repository
from fakeservice.repository.models import commit_email
from fakeservice.users.models import User
from fakeservice.wikis import pages

_KEY = "wikis"
DEFAULT_BRANCH = "main"
DUPLICATE = "Duplicate page: A page with that title already exists"
RENAME_TAKEN = "There is already a page with the same title in that path."
IMAGE_EXTENSIONS = frozenset({"png", "jpg", "jpeg", "gif", "bmp", "tiff", "ico", "webp", "svg"})


@attrs.frozen
class Page:
    """One wiki page as read at a commit."""

    slug: str
    format: str
    path: str
    content: bytes

    @property
    def title(self) -> str:
        return pages.title_of(self.slug)

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


@attrs.frozen
class Wiki:
    """The wiki of one project or group: its store key and repository."""

    key: str
    repo: Repository


def _wikis(store: Store) -> dict[str, Repository]:
    return store.extras.setdefault(_KEY, {})


def wiki_of(store: Store, kind: str, owner_id: int) -> Wiki:
    """The stored wiki of a project or group, or a fresh empty one (not yet stored)."""
    key = f"{kind}:{owner_id}"
    repo = _wikis(store).get(key)
    return Wiki(key, repo if repo is not None else Repository(DEFAULT_BRANCH))


def store_wiki(store: Store, wiki: Wiki) -> None:
    """Keep ``wiki``'s repository (after its first write, whichever way it came)."""
    _wikis(store).setdefault(wiki.key, wiki.repo)


def forget(store: Store, kind: str, owner_id: int) -> None:
    _wikis(store).pop(f"{kind}:{owner_id}", None)


def list_pages(wiki: Wiki, *, content: bool = True) -> list[Page]:
    """Every page of the wiki's default branch, ordered by slug (without reading their
    content unless ``content``)."""
    if wiki.repo.is_empty:
        return []
    found: list[Page] = []
    for entry in wiki.repo.tree("HEAD", recursive=True):
        named = pages.split_page_path(entry.path) if entry.type == "blob" else None
        if named is not None:
            data = wiki.repo.raw("HEAD", entry.path) if content else b""
            found.append(Page(named[0], named[1], entry.path, data))
    return sorted(found, key=lambda page: page.slug)


def find_page(wiki: Wiki, slug: str, version: str | None = None) -> Page | None:
    """The page named by ``slug`` (or by its title) at ``version`` (default: the head)."""
    ref = version or "HEAD"
    if wiki.repo.is_empty or wiki.repo.resolve(ref) is None:
        return None
    wanted = pages.slug_of(pages.squish(slug)).strip("/")
    for candidate in dict.fromkeys((slug, wanted)):
        for extension in pages.EXTENSIONS:
            path = f"{candidate}.{extension}"
            if _is_file(wiki.repo, ref, path):
                found = pages.split_page_path(path)
                assert found is not None
                return Page(found[0], found[1], path, wiki.repo.raw(ref, path))
    return None


def _is_file(repo: Repository, ref: str, path: str) -> bool:
    try:
        return repo.exists(ref, path)
    except (ValueError, ApiError):
        return False


def _commit(
    store: Store,
    wiki: Wiki,
    actions: list[Action],
    user: User,
    now: dt.datetime,
    message: str,
    branch: str | None = None,
) -> str:
    """One commit by ``user`` on ``branch`` (default: the wiki's default branch; a new
    branch starts from it); stores the wiki on its first write."""
    target = branch or wiki.repo.default_branch
    start = None
    if not wiki.repo.is_empty and wiki.repo.branch(target) is None:
        start = wiki.repo.default_branch
    sha = wiki.repo.commit(
        target,
        actions,
        message=message,
        author_name=user.name,
        author_email=commit_email(user),
        when=now,
        start_branch=start,
    )
    store_wiki(store, wiki)
    return sha


def _check_title(title: str) -> str:
    clean = pages.squish(title)
    errors = pages.title_errors(clean)
    if errors:
        raise ValidationFailed(errors)
    return pages.slug_of(clean).strip("/")


def create_page(
    store: Store, wiki: Wiki, user: User, now: dt.datetime, title: str, content: str, fmt: str
) -> Page:
    slug = _check_title(title)
    if find_page(wiki, slug) is not None:
        raise ValidationFailed({"base": [DUPLICATE]})
    path = pages.file_path(slug, fmt)
    data = content.encode()
    message = f"{user.username} created page: {pages.title_of(slug)}"
    _commit(store, wiki, [Action("create", path, data)], user, now, message)
    page = Page(slug, fmt, path, data)
    return announce(store, "WikiPage", (wiki, page), "create", user.id, now)[1]


def update_page(
    store: Store,
    wiki: Wiki,
    page: Page,
    user: User,
    now: dt.datetime,
    *,
    title: str | None = None,
    content: str | None = None,
    fmt: str | None = None,
) -> Page:
    """Edit a page's content, format or title (a new title keeps the page's directory
    unless it names one; a leading ``/`` moves the page to the top)."""
    slug = page.slug
    if title is not None and title.strip():
        slug = _check_title(_within(page.slug, pages.squish(title)))
    new_format = fmt or page.format
    data = page.content if content is None else content.encode()
    path = pages.file_path(slug, new_format)
    if slug != page.slug:
        taken = find_page(wiki, slug)
        if taken is not None and taken.path != page.path:
            raise ValidationFailed({"base": [RENAME_TAKEN]})
    updated = Page(slug, new_format, path, data)
    if path == page.path and data == page.content:
        return updated
    if path == page.path:
        action = Action("update", path, data)
    else:
        action = Action("move", path, data, previous_path=page.path)
    message = f"{user.username} updated page: {pages.title_of(slug)}"
    _commit(store, wiki, [action], user, now, message)
    return announce(store, "WikiPage", (wiki, updated), "update", user.id, now)[1]


def _within(current_slug: str, title: str) -> str:
    if title.startswith("/"):
        return title.lstrip("/")
    directory = posixpath.dirname(current_slug)
    if "/" in title or not directory:
        return title
    return f"{directory}/{title}"


def delete_page(store: Store, wiki: Wiki, page: Page, user: User, now: dt.datetime) -> None:
    message = f"{user.username} deleted page: {page.title}"
    _commit(store, wiki, [Action("delete", page.path)], user, now, message)
    announce(store, "WikiPage", (wiki, page), "delete", user.id, now)


@attrs.frozen
class Attachment:
    file_name: str
    file_path: str
    branch: str

    @property
    def markdown(self) -> str:
        stem, _, extension = self.file_name.rpartition(".")
        if stem and extension.lower() in IMAGE_EXTENSIONS:
            return f"![{stem}]({self.file_path})"
        return f"[{self.file_name}]({self.file_path})"


def attach(
    store: Store,
    wiki: Wiki,
    user: User,
    now: dt.datetime,
    file_name: str,
    data: bytes,
    branch: str | None,
) -> Attachment:
    """Commit an uploaded file under ``uploads/<hex>/`` on ``branch`` (default: the wiki's
    default branch)."""
    name = posixpath.basename(file_name.replace("\\", "/")).strip()
    if name in ("", ".", ".."):
        raise ValidationFailed({"file": ["is invalid"]})
    secret = hashlib.md5(str(store.next_id("wiki_uploads")).encode(), usedforsecurity=False)
    path = f"uploads/{secret.hexdigest()}/{name}"
    target = branch or wiki.repo.default_branch
    message = f"Upload attachment {name}"
    _commit(store, wiki, [Action("create", path, data)], user, now, message, target)
    return Attachment(name, path, target)
