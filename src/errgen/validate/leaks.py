"""What must never cross the boundary (article 000): stack traces, secrets, internal hostnames and
addresses, absolute file-system paths. One combined regular expression per run, so scanning a
string costs one search however many detectors there are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

# (rule id, kind, whether the match is a secret to mask, pattern)
DETECTORS: tuple[tuple[str, str, bool, str], ...] = (
    ("leak-stack-trace", "a Python traceback", False, r"Traceback \(most recent call last\)|File \"[^\"\n]+\", line \d+"),
    ("leak-stack-trace", "a JavaScript stack frame", False, r"\bat (?:[\w$.<>\[\] ]+ )?\(?(?:[\w.-]*[/\\])*[\w.-]+\.[cm]?[jt]sx?:\d+:\d+\)?"),
    ("leak-stack-trace", "a Java stack frame", False, r"\bat [\w$]+(?:\.[\w$<>]+)+\((?:[\w$]+\.(?:java|kt|scala)(?::\d+)?|Native Method|Unknown Source)\)"),
    ("leak-stack-trace", "a Go panic", False, r"\bgoroutine \d+ \[[a-z ]+\]"),
    ("leak-secret", "a private key", True, r"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----"),
    ("leak-secret", "an AWS access key id", True, r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("leak-secret", "a bearer token", True, r"\b[Bb]earer\s+[A-Za-z0-9\-._~+/]{16,}=*"),
    ("leak-secret", "an API key", True, r"\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|\bsk-[A-Za-z0-9_-]{20,}|\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bAIza[0-9A-Za-z_-]{35}\b|\bglpat-[A-Za-z0-9_-]{20,}"),
    ("leak-secret", "a connection string with a password", True, r"\b[a-z][a-z0-9+.-]*://[^\s:/@'\"]+:[^\s@/'\"]+@[^\s/'\"]+"),
    ("leak-internal-host", "an internal hostname", False, r"\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:internal|local|localdomain|corp|lan|intranet|svc\.cluster\.local)\b"),
    ("leak-internal-host", "a private IP address", False, r"\b(?:10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|127(?:\.\d{1,3}){3})\b"),
    ("leak-internal-host", "a database host:port", False, r"\b[a-zA-Z0-9][\w.-]*:(?:5432|3306|6379|27017|9200|11211|5672|9092|1433|1521)\b"),
    ("leak-file-path", "an absolute file path", False, r"(?<![\w:/.~-])/(?:home|usr|var|etc|opt|srv|tmp|root|app|Users|private|mnt|proc|lib|bin|workspace)/[^\s'\"<>]+|\b[A-Za-z]:\\(?:[^\\\s'\"<>]+\\)*[^\\\s'\"<>]*"),
)


@dataclass(frozen=True, slots=True)
class Leak:
    rule: str
    kind: str
    shown: str  # the offending span, with a secret masked


class LeakScanner:
    def __init__(self, allow_hosts: tuple[str, ...] = (), allow_patterns: tuple[str, ...] = ()) -> None:
        self._pattern = re.compile("|".join(f"(?P<d{i}>{p})" for i, (_, _, _, p) in enumerate(DETECTORS)))
        self._allow_hosts = tuple(h.lower() for h in allow_hosts)
        self._allow = [re.compile(p) for p in allow_patterns]

    def scan(self, text: str) -> Iterator[Leak]:
        for match in self._pattern.finditer(text):
            index = int(match.lastgroup[1:])  # type: ignore[index]
            rule, kind, secret, _ = DETECTORS[index]
            span = match.group(0)
            if self._allowed(span):
                continue
            yield Leak(rule, kind, mask(span) if secret else span)

    def _allowed(self, span: str) -> bool:
        lowered = span.lower()
        if any(lowered == h or lowered.endswith("." + h) or lowered.startswith(h + ":") for h in self._allow_hosts):
            return True
        return any(p.search(span) for p in self._allow)


def mask(secret: str) -> str:
    """Enough to recognise which value it was, never enough to use it."""
    url = re.match(r"([a-z][a-z0-9+.-]*://[^\s:/@]+:)[^\s@]+(@.*)", secret, re.S)
    if url:
        return url.group(1) + "****" + url.group(2)
    bearer = re.match(r"([Bb]earer\s+)(.*)", secret, re.S)
    if bearer:
        return bearer.group(1) + mask(bearer.group(2))
    keep = 4 if len(secret) > 12 else 0
    return secret[:keep] + "*" * min(max(len(secret) - keep, 4), 12)
