"""Where a form may send the browser next."""

from urllib.parse import urlsplit


def local_path(target: str | None) -> str | None:
    """``target`` if it is a path on this site; anything else could send the visitor away."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    return target
