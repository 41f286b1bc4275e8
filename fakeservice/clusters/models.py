"""Certificate-based clusters (seed 000 §2.7, §4.6; deprecated Kubernetes integration):
records, validation and the add / edit / remove operations.

A cluster belongs to an owner: the instance (``cluster_type`` ``instance_type``), a group
(``group_type``) or a project (``project_type``); each is added by a user
(``provider_type`` ``user``) on the Kubernetes platform. Validation follows the real
service's models and answers ``400 {"message": {"<field>": [...]}}``; nested platform
fields are keyed ``platform_kubernetes.<field>``. Keys appear in the model's order:
``environment_scope`` format, ``platform_kubernetes.*``, ``name``, ``domain``, then the
environment scope's uniqueness among the owner's clusters. A user-defined namespace is
allowed on project clusters and on unmanaged ones.

Normalisation before validation, as the real service: the API address, token and CA
certificate are stripped of surrounding whitespace, the namespace is lower-cased and a blank one is null.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Selection, Store, Table

PROVIDER_TYPE = "user"
PLATFORM_TYPE = "kubernetes"
INSTANCE, GROUP, PROJECT = "instance", "group", "project"
CLUSTER_TYPES = {INSTANCE: "instance_type", GROUP: "group_type", PROJECT: "project_type"}
# Who a cluster belongs to: (kind, id), the instance's id being None.
Owner = tuple[str, int | None]
INSTANCE_OWNER: Owner = (INSTANCE, None)
AUTHORIZATION_TYPES = ("unknown_authorization", "rbac", "abac")
DEFAULT_AUTHORIZATION = "rbac"
DEFAULT_SCOPE = "*"
RESERVED_NAMESPACES = frozenset({"gitlab-managed-apps"})
MAX_NAME_LENGTH = 2048
MAX_NAMESPACE_LENGTH = 63

SCOPE_RE = re.compile(r"[a-zA-Z0-9_/${}. \-*]+")
SCOPE_MESSAGE = (
    "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"
)
NAMESPACE_RE = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
NAMESPACE_MESSAGE = (
    "can contain only lowercase letters, digits, and '-'. "
    "Must start with a letter, and cannot end with '-'"
)
DUPLICATE_SCOPE = "cannot add duplicated environment scope"
MANAGEMENT_PROJECT_MESSAGE = (
    "Project does not exist or you don't have permission to perform this action"
)
HOSTNAME_LABEL_RE = re.compile(r"[a-z0-9\-]+", re.IGNORECASE)
# The private ranges the real service's URL blocker calls "the local network".
LOCAL_NETWORKS = tuple(
    ipaddress.ip_network(cidr)
    for cidr in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)
PEM_BLOCK_RE = re.compile(
    r"-----BEGIN CERTIFICATE-----(?P<body>[A-Za-z0-9+/=\s]+?)-----END CERTIFICATE-----"
)


@attrs.define(slots=True)
class Cluster:
    id: int
    name: str
    created_at: dt.datetime
    updated_at: dt.datetime
    user_id: int | None
    api_url: str
    token: str
    enabled: bool = True
    managed: bool = True
    domain: str | None = None
    environment_scope: str = DEFAULT_SCOPE
    management_project_id: int | None = None
    ca_cert: str | None = None
    namespace: str | None = None
    authorization_type: str = DEFAULT_AUTHORIZATION
    owner_kind: str = INSTANCE
    owner_id: int | None = None

    @property
    def owner(self) -> Owner:
        return (self.owner_kind, self.owner_id)


# Fields an edit may change (the platform's authorization type is fixed at creation).
EDITABLE = (
    "name",
    "enabled",
    "managed",
    "domain",
    "environment_scope",
    "management_project_id",
    "api_url",
    "token",
    "ca_cert",
    "namespace",
)


def clusters(store: Store) -> Table[Cluster]:
    return store.tables["clusters"]


def install(store: Store) -> None:
    table = store.table("clusters")
    table.add_unique("environment_scope", lambda c: (*c.owner, c.environment_scope))
    table.add_sorted("owner", lambda c: c.owner)


def all_clusters(store: Store, owner: Owner = INSTANCE_OWNER) -> Selection[Cluster]:
    """Every cluster of ``owner``, oldest first."""
    return clusters(store).select("owner", [owner])


def find_cluster(store: Store, cluster_id: int, owner: Owner = INSTANCE_OWNER) -> Cluster | None:
    """The cluster ``cluster_id`` when it belongs to ``owner``."""
    cluster = clusters(store).get(cluster_id)
    return cluster if cluster is not None and cluster.owner == owner else None


# -- normalisation and validation ------------------------------------------------------------


def _strip(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


def normalise(fields: dict[str, Any]) -> dict[str, Any]:
    """Trim the API address, token and CA certificate; lower-case the namespace (null when
    blank)."""
    out = dict(fields)
    for key in ("api_url", "token", "ca_cert"):
        if key in out:
            out[key] = _strip(out[key])
    if "namespace" in out:
        namespace = out["namespace"]
        out["namespace"] = namespace.lower() if namespace and namespace.strip() else None
    return out


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def scope_errors(scope: str | None) -> list[str]:
    errors = []
    if _blank(scope):
        errors.append("can't be blank")
    if not isinstance(scope, str) or not SCOPE_RE.fullmatch(scope):
        errors.append(SCOPE_MESSAGE)
    return errors


def namespace_errors(namespace: str | None, user_defined: bool) -> list[str]:
    """``user_defined``: whether the cluster may take a namespace of the user's choosing
    (a project cluster, or an unmanaged one)."""
    if namespace is None:
        return []
    errors = []
    if len(namespace) > MAX_NAMESPACE_LENGTH:
        errors.append(f"is too long (maximum is {MAX_NAMESPACE_LENGTH} characters)")
    if not NAMESPACE_RE.fullmatch(namespace):
        errors.append(NAMESPACE_MESSAGE)
    if namespace in RESERVED_NAMESPACES:
        errors.append("is reserved")
    if not user_defined:
        errors.append("only allowed for project cluster")
    return errors


def _blocked_host(host: str) -> str | None:
    """Why a literal host is blocked (localhost, the local network), or None."""
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return "Requests to localhost are not allowed"
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback or address.is_unspecified:
        return "Requests to localhost are not allowed"
    if address.is_link_local:
        return "Requests to the link local network are not allowed"
    if any(address in network for network in LOCAL_NETWORKS):
        return "Requests to the local network are not allowed"
    return None


def api_url_errors(url: str | None) -> list[str]:
    """The public URL check of the Kubernetes API address (no DNS lookups)."""
    if _blank(url):
        return ["must be a valid URL", "can't be blank"]
    assert url is not None
    text = url.strip()
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in text):
        return ["is blocked: URI is invalid"]
    try:
        parts = urlsplit(text)
        host = parts.hostname
        _ = parts.port
    except ValueError:
        return ["is blocked: URI is invalid"]
    if parts.scheme.lower() not in ("http", "https"):
        return ["is blocked: Only allowed schemes are http, https"]
    if not host:
        return ["is blocked: URI is invalid"]
    reason = _blocked_host(host)
    return [f"is blocked: {reason}"] if reason else []


def valid_pem_certificate(text: str) -> bool:
    """Whether ``text`` holds a PEM certificate block whose body is DER (a SEQUENCE)."""
    found = PEM_BLOCK_RE.search(text)
    if found is None:
        return False
    body = "".join(found.group("body").split())
    try:
        der = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        return False
    return _der_sequence(der)


def _der_sequence(der: bytes) -> bool:
    if len(der) < 2 or der[0] != 0x30:
        return False
    first = der[1]
    if first < 0x80:
        return first + 2 == len(der)
    count = first & 0x7F
    if count == 0 or count > 4 or len(der) < 2 + count:
        return False
    length = int.from_bytes(der[2 : 2 + count], "big")
    return length + 2 + count == len(der)


def hostname_errors(value: str) -> list[str]:
    """The real service's hostname check of ``domain`` (numeric hostnames allowed)."""
    errors: list[str] = []
    if len(value) == 1 and value != ".":
        errors.append("must be between 1 and 255 characters long")
    if not 1 <= len(value) <= 255:
        errors.append("must be between 1 and 255 characters long")
    labels = value.split(".")
    while labels and labels[-1] == "":
        labels.pop()  # as Ruby's String#split drops trailing empty fields
    for label in labels:
        if not 1 <= len(label) <= 63:
            errors.append("must be between 1 and 63 characters long")
        if label.startswith("-") or label.endswith("-"):
            errors.append("begins or ends with a hyphen")
        if not HOSTNAME_LABEL_RE.fullmatch(label):
            errors.append("contains invalid characters (valid characters: [a-z0-9-])")
    if ".." in value:
        errors.append("must not contain consecutive dots")
    if value.endswith("."):
        errors.append("must not end with a dot")
    return list(dict.fromkeys(errors))


def cluster_errors(
    store: Store, cluster: Cluster, *, changed: frozenset[str] | set[str]
) -> dict[str, list[str]]:
    """Validation messages of ``cluster`` (a new record or an edited copy), by field."""
    errors: dict[str, list[str]] = {}

    def add(field: str, messages: list[str]) -> None:
        if messages:
            errors.setdefault(field, []).extend(messages)

    add("environment_scope", scope_errors(cluster.environment_scope))
    user_defined = cluster.owner_kind == PROJECT or not cluster.managed
    add("platform_kubernetes.namespace", namespace_errors(cluster.namespace, user_defined))
    add("platform_kubernetes.api_url", api_url_errors(cluster.api_url))
    add("platform_kubernetes.token", ["can't be blank"] if _blank(cluster.token) else [])
    if "ca_cert" in changed and not _blank(cluster.ca_cert):
        assert cluster.ca_cert is not None
        if not valid_pem_certificate(cluster.ca_cert):
            add("platform_kubernetes.ca_cert", ["must be a valid PEM certificate"])
    if _blank(cluster.name):
        add("name", ["has to be present"])
    elif "name" in changed and len(cluster.name) > MAX_NAME_LENGTH:
        add("name", ["is too long"])
    if not _blank(cluster.domain):
        assert cluster.domain is not None
        add("domain", hostname_errors(cluster.domain))
    other = clusters(store).by("environment_scope", (*cluster.owner, cluster.environment_scope))
    if other is not None and other.id != cluster.id:
        add("environment_scope", [DUPLICATE_SCOPE])
    return errors


# -- operations ------------------------------------------------------------------------------


def add_cluster(
    store: Store,
    now: dt.datetime,
    *,
    user_id: int | None,
    owner: Owner = INSTANCE_OWNER,
    **fields: Any,
) -> Cluster:
    """Add a cluster to ``owner``; 400 with the validation messages when invalid."""
    values = normalise(fields)
    cluster = Cluster(
        id=0,
        created_at=now,
        updated_at=now,
        user_id=user_id,
        name=values.pop("name"),
        api_url=values.pop("api_url"),
        token=values.pop("token"),
        owner_kind=owner[0],
        owner_id=owner[1],
        **values,
    )
    errors = cluster_errors(store, cluster, changed=set(fields))
    if errors:
        raise ValidationFailed(errors)
    cluster.id = store.next_id("clusters")
    return clusters(store).insert(cluster)


def edit_cluster(store: Store, cluster: Cluster, now: dt.datetime, **changes: Any) -> Cluster:
    """Change the given fields; 400 with the validation messages when the result is invalid."""
    values = normalise({k: v for k, v in changes.items() if k in EDITABLE})
    changed = {k for k, v in values.items() if getattr(cluster, k) != v}
    candidate = attrs.evolve(cluster, **values)
    errors = cluster_errors(store, candidate, changed=changed)
    if errors:
        raise ValidationFailed(errors)
    if changed:
        values["updated_at"] = now
    return clusters(store).update(cluster, **values)


def remove_cluster(store: Store, cluster: Cluster) -> None:
    clusters(store).delete(cluster)
