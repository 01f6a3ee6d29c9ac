"""bench/aws_catalog.py turns botocore's service models into a registry errgen lints clean: every
exception shape a code, its documentation as plain text within errgen's limits, a category from
its status, name and retryable trait. A wheel of two small models stands in for botocore's."""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import yaml

from bench import aws_catalog
from errgen.registry.lint import lint_text

LONG = " ".join(f"Sentence number {i} explains one more requirement of this parameter." for i in range(20))
MODELS = {
    "s3/2006-03-01": {"shapes": {
        "NoSuchBucket": {"type": "structure", "exception": True, "documentation": "<p>The specified bucket does not exist.</p>"},
        "Bucket": {"type": "structure"},  # not an exception: no code
        "SlowDown": {"type": "structure", "exception": True, "error": {"httpStatusCode": 503},
                     "retryable": {"throttling": True}, "documentation": "<p>Reduce your request rate.</p>"},
    }},
    "cloudtrail/2013-11-01": {"shapes": {
        "InvalidTrailNameException": {"type": "structure", "exception": True, "documentation":
                                      "<p>The name is not valid.</p> <ul><li><p>Not be in IP address format (for example, 192.168.5.4)</p></li></ul>"},
        "InternalFailure": {"type": "structure", "exception": True, "error": {"httpStatusCode": 500}},
        "LongException": {"type": "structure", "exception": True, "documentation": f"<p>{LONG}</p>"},
        "TaggingConflictException": {"type": "structure", "exception": True, "error": {"httpStatusCode": 409},
                                     "documentation": "Use <code>&quot;tags&quot;</code> &amp; retry."},
    }},
    "cloudtrail/2012-01-01": {"shapes": {"OldOnly": {"type": "structure", "exception": True}}},  # an older model: ignored
}


def wheel(tmp_path: Path) -> Path:
    path = tmp_path / "botocore-0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for where, model in MODELS.items():
            data = json.dumps(model).encode()
            gz = where.startswith("s3")  # botocore ships both, compressed and not
            archive.writestr(f"botocore/data/{where}/service-2.json{'.gz' if gz else ''}", gzip.compress(data) if gz else data)
    return path


def test_every_exception_of_the_newest_models_is_a_code_and_the_registry_lints_clean(tmp_path: Path) -> None:
    text = aws_catalog.registry_text(wheel(tmp_path))
    result = lint_text(text)
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics
    codes = yaml.safe_load(text)["codes"]
    assert list(codes) == ["cloudtrail.InvalidTrailNameException", "cloudtrail.InternalFailure", "cloudtrail.LongException",
                           "cloudtrail.TaggingConflictException", "s3.NoSuchBucket", "s3.SlowDown"]
    assert {code: (row["category"], row["http_status"]) for code, row in codes.items()} == {
        "cloudtrail.InvalidTrailNameException": ("validation", 400), "cloudtrail.InternalFailure": ("server", 500),
        "cloudtrail.LongException": ("validation", 400), "cloudtrail.TaggingConflictException": ("conflict", 409),
        "s3.NoSuchBucket": ("not_found", 404), "s3.SlowDown": ("throttling", 503)}
    assert codes["s3.NoSuchBucket"]["description"] == "The specified bucket does not exist."
    assert codes["cloudtrail.TaggingConflictException"]["description"] == 'Use "tags" & retry.'
    assert codes["cloudtrail.InvalidTrailNameException"]["description"] == "The name is not valid."  # the address sentence dropped
    assert codes["cloudtrail.InternalFailure"]["description"] == "InternalFailure (cloudtrail)."
    long = codes["cloudtrail.LongException"]["description"]
    assert len(long) <= aws_catalog.MAX_DESCRIPTION and long.endswith("parameter.") and LONG.startswith(long)
