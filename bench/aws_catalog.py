"""A real catalogue of about 5,900 error codes: every exception of every AWS service model that
botocore ships (445 services), as an errgen registry.

Each exception shape becomes the code `<service>.<Shape>` (`s3.NoSuchBucket`,
`dynamodb.ProvisionedThroughputExceededException`), with its documentation as the description
(HTML tags dropped, entities decoded, cut to whole sentences within errgen's 500 characters), its `httpStatusCode` as the HTTP status, and a category
read from that status and the shape's name and `retryable` trait (throttling, server, not found,
auth, conflict, quota, else validation). The text is AWS's own, so the registry carries what real
catalogues carry: long descriptions, `<code>` and `&quot;` in them, names of every length.

botocore's wheel is fetched once, at a pinned version, with pip (`pip download`), into bench/out/.

    python -m bench.aws_catalog [--out bench/out/aws-registry.yaml]   # writes the registry, prints its size
    python -m bench.site_bench --registry bench/out/aws-registry.yaml --build --dir /tmp
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

from bench.common import OUT

BOTOCORE = "botocore==1.44.8"
CATEGORIES = {  # name: (retryable, action, default status, scope, description)
    "throttling": (True, None, 429, "service", "The service is throttling the caller; slow down and retry."),
    "server": (True, None, 500, "service", "The service failed on its side; retry with backoff."),
    "not_found": (False, "fix", 404, "resource", "What the request names does not exist."),
    "auth": (False, "escalate", 403, "request", "The caller is not allowed to do this, or its credentials are not valid."),
    "conflict": (False, "fix", 409, "resource", "The resource is in a state that does not allow this request."),
    "quota": (False, "escalate", 400, "service", "An account limit or quota is reached; raise it or free capacity."),
    "validation": (False, "fix", 400, "request", "The request is not valid for this operation."),
}
_PATTERNS = [
    ("throttling", re.compile(r"Throttl|TooManyRequests|RequestLimitExceeded|SlowDown|RateExceeded|RateLimit")),
    ("server", re.compile(r"InternalServ|InternalFailure|InternalError|ServiceUnavailable|ServiceFailure|ServerException")),
    ("not_found", re.compile(r"NotFound|NoSuch|DoesNotExist")),
    ("auth", re.compile(r"AccessDenied|Unauthori[sz]ed|NotAuthori[sz]ed|Forbidden|InvalidToken|ExpiredToken|InvalidClientToken|Credential")),
    ("conflict", re.compile(r"Conflict|AlreadyExists|InUse|ConcurrentModification|Concurrent|InvalidState|Duplicate")),
    ("quota", re.compile(r"LimitExceeded|QuotaExceeded|TooMany")),
]
_TAG = re.compile(r"<[^>]*>")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_ADDRESS = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")
MAX_DESCRIPTION = 500  # errgen's description-too-long


def wheel() -> Path:
    """botocore's wheel in bench/out/aws/, downloaded on first use."""
    folder = OUT / "aws"
    found = sorted(folder.glob("botocore-*.whl"))
    if found:
        return found[-1]
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(folder), BOTOCORE], check=True)
    return sorted(folder.glob("botocore-*.whl"))[-1]


def models(path: Path) -> list[tuple[str, dict[str, object]]]:
    """(service, its newest service-2 model) for every service in the wheel, by service name."""
    newest: dict[str, tuple[str, str]] = {}
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            parts = name.split("/")
            if len(parts) == 5 and parts[1] == "data" and parts[4] in ("service-2.json", "service-2.json.gz"):
                if parts[2] not in newest or parts[3] > newest[parts[2]][0]:
                    newest[parts[2]] = (parts[3], name)
        out = []
        for service, (_, name) in sorted(newest.items()):
            data = archive.read(name)
            out.append((service, json.loads(gzip.decompress(data) if name.endswith(".gz") else data)))
    return out


def category(name: str, shape: dict[str, object], status: int | None) -> str:
    if "retryable" in shape and (shape["retryable"] or {}).get("throttling") or status == 429:  # type: ignore[union-attr]
        return "throttling"
    if status is not None and status >= 500:
        return "server"
    for found, pattern in _PATTERNS:
        if pattern.search(name):
            return found
    return {404: "not_found", 401: "auth", 403: "auth", 409: "conflict", 402: "quota"}.get(status or 0, "validation")


def text(documentation: object, fallback: str) -> str:
    """The documentation as plain text, cut as an adopter would for errgen's lint: the whole
    sentences that fit in 500 characters (at least the first, cut), without a sentence holding an
    IP address (AWS's examples of invalid names; errgen's description-leak refuses them)."""
    plain = " ".join(html.unescape(_TAG.sub(" ", documentation if isinstance(documentation, str) else "")).split())
    kept = ""
    for sentence in _SENTENCE_END.split(plain):
        if _ADDRESS.search(sentence):
            continue
        joined = f"{kept} {sentence}" if kept else sentence
        if len(joined) > MAX_DESCRIPTION:
            kept = kept or sentence[:MAX_DESCRIPTION - 3].rstrip() + "..."
            break
        kept = joined
    return kept or fallback


def registry_text(path: Path) -> str:
    lines = ["errgen: 1", "name: aws", "version: 1.0.0", "categories:"]
    for name, (retryable, action, _, _, description) in CATEGORIES.items():
        lines += [f"  {name}:", f"    retryable: {'true' if retryable else 'false'}", f"    description: {json.dumps(description)}"]
        if action:
            lines.append(f"    action: {action}")
    lines.append("codes:")
    for service, model in models(path):
        for name, shape in model["shapes"].items():  # type: ignore[union-attr]
            if not shape.get("exception"):
                continue
            status = (shape.get("error") or {}).get("httpStatusCode")
            found = category(name, shape, status)
            _, _, default_status, scope, _ = CATEGORIES[found]
            lines += [f"  {json.dumps(f'{service}.{name}')}:", f"    category: {found}", f"    scope: {scope}",
                      f"    http_status: {status or default_status}",
                      f"    description: {json.dumps(text(shape.get('documentation'), f'{name} ({service}).'))}",
                      "    since: 1.0.0"]
    lines += ["history:", f"  - {{version: 1.0.0, date: 2026-12-02, changes: [\"Every exception of botocore's service models ({BOTOCORE}).\"]}}"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT / "aws-registry.yaml")
    args = parser.parse_args()
    content = registry_text(wheel())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(content, encoding="utf-8")
    print(f"{args.out}: {content.count(chr(10) + '    category: ')} codes, {len(content.encode()) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
