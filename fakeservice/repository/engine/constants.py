"""Git modes, object types, ref prefixes and the error texts the real service uses."""

from __future__ import annotations

from typing import Literal

ZERO_SHA = "0" * 40
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

MODE_FILE = 0o100644
MODE_EXEC = 0o100755
MODE_LINK = 0o120000
MODE_DIR = 0o040000
MODE_SUBMODULE = 0o160000

TYPE_COMMIT, TYPE_TREE, TYPE_BLOB, TYPE_TAG = 1, 2, 3, 4

HEADS = b"refs/heads/"
TAGS = b"refs/tags/"
HEAD = b"HEAD"
SYMREF = b"ref: "

FILE_EXISTS = "A file with this name already exists"
FILE_MISSING = "A file with this name doesn't exist"
DIR_EXISTS = "A directory with this name already exists"
EMPTY_PATH = "You must provide a file path"
TRAVERSAL = "Path cannot include directory traversal"
NUL_IN_PATH = "Path cannot include null bytes"
NOT_ON_BRANCH = "You can only create or edit files when you are on a branch"
STALE_UPDATE = "You are attempting to update a file that has changed since you started editing it."
STALE_DELETE = "You are attempting to delete a file that has been previously updated."
NO_CHANGES = "You are attempting to update a file with identical content"
BRANCH_EXISTS = "Branch already exists"
BRANCH_INVALID = "Branch name is invalid"
TAG_INVALID = "Tag name invalid"
DEFAULT_BRANCH_DELETE = "The default branch of a project cannot be deleted."

ACTIONS = ("create", "update", "delete", "move", "chmod")
ActionKind = Literal["create", "update", "delete", "move", "chmod"]
ApiFlavour = Literal["files", "commits"]

CACHE_LIMIT = 200_000  # parsed commits and commit links
TREE_CACHE_LIMIT = 20_000  # parsed small trees (a chunked tree is never kept parsed)

Entry = tuple[int, bytes]  # (mode, hex sha) of one tree entry
Path = tuple[bytes, ...]
