"""Seat tokens and invitations: long random secrets, kept only as their hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["digest", "matches", "new_id", "new_secret"]

SECRET_BYTES = 32
"""The randomness in a token or an invitation: 256 bits, from the operating system's generator."""


def new_secret() -> str:
    """Makes a secret: 32 random bytes as URL-safe text (43 characters)."""
    return secrets.token_urlsafe(SECRET_BYTES)


def new_id() -> str:
    """Makes a game's id: 12 random bytes as URL-safe text (16 characters), too many to guess."""
    return secrets.token_urlsafe(12)


def digest(secret: str) -> str:
    """Hashes a secret for the store (SHA-256, hex): the store never holds a secret itself.

    A random secret of 256 bits needs no salt or slow hash: nothing shorter than it can be guessed.
    """
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def matches(secret: object, stored: str | None) -> bool:
    """Tells whether ``secret`` is the one whose hash is ``stored``, in time that does not depend on where they differ.

    >>> token = new_secret()
    >>> matches(token, digest(token)), matches(token[:-1], digest(token)), matches(token, None)
    (True, False, False)
    """
    if stored is None or not isinstance(secret, str) or not secret:
        return False
    return hmac.compare_digest(digest(secret), stored)
