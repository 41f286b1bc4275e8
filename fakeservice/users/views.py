"""JSON shapes of users: the embedded reference, the normal, single, administrator and
current-user views, and the status object."""

from __future__ import annotations

from typing import Any

from fakeservice.avatars.models import avatar_url as stored_avatar_url
from fakeservice.core.clock import iso, iso_date
from fakeservice.users.markdown import render_inline
from fakeservice.users.models import User


def avatar_url(user: User, base_url: str) -> str | None:
    return stored_avatar_url(user, base_url)


def user_ref(user: User | None, base_url: str) -> dict[str, Any] | None:
    """The embedded user reference (seed 000 §2.3)."""
    if user is None:
        return None
    return {
        "id": user.id,
        "username": user.username,
        "name": user.name,
        "state": user.state,
        "locked": False,
        "avatar_url": avatar_url(user, base_url),
        "web_url": f"{base_url}/{user.username}",
    }


def user_ref_with_profile(user: User | None, base_url: str) -> dict[str, Any] | None:
    """The user reference embedded in jobs: adds ``created_at`` and the profile strings."""
    if user is None:
        return None
    out = user_ref(user, base_url)
    assert out is not None
    out.update(
        {
            "created_at": iso(user.created_at),
            "bio": user.bio,
            "location": user.location,
            "public_email": user.public_email,
            "skype": user.skype,
            "linkedin": user.linkedin,
            "twitter": user.twitter,
            "discord": user.discord,
            "website_url": user.website_url,
            "organization": user.organization,
            "job_title": user.job_title,
            "pronouns": user.pronouns,
            "bot": user.is_bot,
            "work_information": None,
            "followers": user.followers,
            "following": user.following,
            "local_time": None,
        }
    )
    return out


def note_author(user: User, base_url: str) -> dict[str, Any]:
    """The author object of notes and snippets."""
    return {
        "id": user.id,
        "username": user.username,
        "email": user.email,
        "name": user.name,
        "state": user.state,
        "created_at": iso(user.created_at),
    }


def user_basic(user: User, base_url: str) -> dict[str, Any]:
    """List item of ``GET /users`` for non-administrators."""
    out = user_ref(user, base_url)
    assert out is not None
    return out


def user_single(user: User, base_url: str) -> dict[str, Any]:
    """``GET /users/:id`` for non-administrators."""
    out = user_ref_with_profile(user, base_url)
    assert out is not None
    if user.private_profile:
        for key in (
            "bio",
            "location",
            "skype",
            "linkedin",
            "twitter",
            "discord",
            "website_url",
            "organization",
            "job_title",
        ):
            out[key] = "" if key != "public_email" else None
    return out


def _own_fields(user: User) -> dict[str, Any]:
    """Fields a user sees about themself and administrators see about anyone."""
    return {
        "last_sign_in_at": iso(user.last_sign_in_at),
        "confirmed_at": iso(user.confirmed_at),
        "last_activity_on": iso_date(user.last_activity_on),
        "email": user.email,
        "theme_id": user.theme_id,
        "color_scheme_id": user.color_scheme_id,
        "projects_limit": user.projects_limit,
        "current_sign_in_at": iso(user.current_sign_in_at),
        "identities": [
            {
                "provider": i.provider,
                "extern_uid": i.extern_uid,
                "saml_provider_id": i.saml_provider_id,
            }
            for i in user.identities
        ],
        "can_create_group": user.can_create_group,
        "can_create_project": user.projects_limit > 0,
        "two_factor_enabled": user.two_factor_enabled,
        "external": user.external,
        "private_profile": user.private_profile,
        "commit_email": user.commit_email or user.email,
    }


def user_admin(user: User, base_url: str) -> dict[str, Any]:
    """The administrator view (seed 001 §2.8)."""
    out = user_ref_with_profile(user, base_url)
    assert out is not None
    out.update(_own_fields(user))
    out.update(
        {
            "is_admin": user.admin,
            "note": user.note,
            "namespace_id": user.namespace_id,
            "created_by": None,
            "current_sign_in_ip": user.current_sign_in_ip,
            "last_sign_in_ip": user.last_sign_in_ip,
            "plan": "default",
            "trial": False,
            "sign_in_count": user.sign_in_count,
            "shared_runners_minutes_limit": user.shared_runners_minutes_limit,
            "extra_shared_runners_minutes_limit": user.extra_shared_runners_minutes_limit,
            "is_auditor": False,
            "using_license_seat": not user.is_bot and user.state == "active",
            "provisioned_by_group_id": None,
        }
    )
    return out


def user_current(user: User, base_url: str) -> dict[str, Any]:
    """``GET /user``: the administrator view for administrators, a reduced set otherwise."""
    if user.admin:
        return user_admin(user, base_url)
    out = user_ref_with_profile(user, base_url)
    assert out is not None
    out.update(_own_fields(user))
    return out


def custom_attributes(user: Any) -> list[dict[str, str]]:
    return [{"key": k, "value": v} for k, v in sorted(user.custom_attributes.items())]


def status_view(user: User, now: Any) -> dict[str, Any]:
    """The status object; a status past its ``clear_status_at`` reads as cleared."""
    status = user.status
    if status.clear_status_at is not None and now >= status.clear_status_at:
        return {
            "emoji": None,
            "availability": "not_set",
            "message": None,
            "message_html": "",
            "clear_status_at": None,
        }
    message = status.message
    return {
        "emoji": status.emoji,
        "availability": status.availability,
        "message": message,
        "message_html": render_inline(message) if message else "",
        "clear_status_at": iso(status.clear_status_at),
    }
