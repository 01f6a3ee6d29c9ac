"""What must never cross the boundary (article 000): stack traces, secrets, internal hostnames and
addresses, absolute file-system paths.

Scanning is linear in the text, whatever the text: a pattern runs only when one of its needles
(literal substrings) is in the text; it starts at a literal or at the start of a run (a lookbehind
after its first character, so no position inside a run starts it again); what follows is a run of
characters the start cannot occur in, or bounded; a match that extends backwards (a file name
before `.rb:12`, the labels before `.internal`) does so over a bounded window; and a string reports
at most MAX_LEAKS leaks. `python -m bench.leak_bench` times 400 KB of adversarial text per pattern; the
labelled corpora in tests/fixtures/leaks measure recall and false positives per class.

Hand-written rules, not detect-secrets' plugins: measured on the broader corpus (broad.jsonl, 981
messages, 397 clean), its plugins find 41% of the secrets with 4.8% false positives, and none of
the other three classes; these rules find 100% of each class with 0.3% false positives, at about
four times its speed (`python -m bench.leak_bench`). What is found, what is masked and what is
not found: docs/security.md, "Leak scanning".
"""

from __future__ import annotations

import base64
import functools
import heapq
import itertools
import re
from dataclasses import dataclass
from typing import Callable, Iterator

TRACE, SECRET, HOST, PATH = "leak-stack-trace", "leak-secret", "leak-internal-host", "leak-file-path"

# Characters of a file path; a path starts only where none of them precede it.
_P = r"\w./@%+~:-"


def _first(first: str, not_after: str) -> str:
    """`first` where the character before it is none of `not_after`. Each pattern begins with a
    literal or one character class, never with a lookbehind or a word boundary, so the engine can skip to
    candidate positions instead of trying every one (that is most of the speed)."""
    return f"{first}(?<![{not_after}].)"


_W = r"\w"
_AT = _first("a", _W) + "t "  # a frame line: `at ` as a word
_HOST_END = r"(?![\w-]|\.[a-zA-Z0-9])"
_DB_PORTS = ("5432", "5433", "3306", "6379", "27017", "9200", "9300", "11211", "5672", "9092", "1433", "1521", "2379", "2181", "8500",
             "8200", "9042", "4222", "7687", "8086", "26257")


def _not_version(text: str, start: int, span: str) -> bool:
    """10.2.3.4 after `version`, `v` or `release` is a version number, not an address."""
    before = text[max(0, start - 24):start].lower()
    return re.search(r"\b(?:version|release|build|rev|ver|v)\s*[:=]?\s*v?$", before) is None


_DB_LABEL = re.compile(r"(?:db|sql|postgres|pg|redis|mongo|cache|elastic|es|kafka|rabbit|mq|memcache|primary|replica|"
                       r"master|broker|cluster|node|localhost|oracle|mssql|cassandra|zookeeper|etcd|vault|consul|nats|neo4j|influx|cockroach)")


def _looks_like_host(text: str, start: int, span: str) -> bool:
    """`db-1:5432` and `pg.prod:5432` are hosts; `sku:3306`, `JIRA:5432`, `order:6379` are not."""
    host = span.rsplit(":", 1)[0]
    return host.islower() and ("." in host or _DB_LABEL.search(host) is not None)


_PLACEHOLDER = re.compile(r"[*x.#?-]+|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|%\w*%|redacted|hidden|masked|none|null|nil|true|false|"
                          r"required|missing|invalid|incorrect|wrong|expired|empty|changeme|example|value|string|\*+\w*",
                          re.IGNORECASE)


def _real_value(text: str, start: int, span: str) -> bool:
    """`password=hunter2` leaks; `password=****`, `password=<redacted>`, `token: required` do not,
    nor a pagination token (`next_page_token=`), nor a value that is base64 of JSON (a cursor)."""
    value = re.split(r"\s*[=:]\s*|\s+", span, maxsplit=1)[-1].strip().strip("\"'")
    if _PAGING.search(text, max(0, start - 16), start + 1):
        return False
    return _PLACEHOLDER.fullmatch(value) is None and not _encoded_json(value)


_PAGING = re.compile(r"(?i)(?:page|next|continuation|sync|cursor)[_-]?t\Z")


def _encoded_json(value: str) -> bool:
    """An opaque cursor: base64 (either alphabet) of a JSON object or array. A secret is random
    bytes, and decodes to no such text."""
    if len(value) < 8 or len(value) > 4096 or not value.startswith(("ey", "W")):
        return False
    try:
        decoded = base64.urlsafe_b64decode(value.replace("+", "-").replace("/", "_") + "=" * (-len(value) % 4)).decode("utf-8")
    except ValueError:
        return False
    return decoded.lstrip()[:1] in ("{", "[") and decoded.isprintable()


@dataclass(frozen=True, slots=True)
class Detector:
    rule: str
    kind: str
    patterns: tuple[tuple[tuple[str, ...], str], ...]  # (needles, regular expression)
    accept: Callable[[str, int, str], bool] | None = None  # a second look at a match, with its context
    # The run a match extends back over (a file name before `.rb:12`): a class of its characters,
    # its longest length, and the shape the part before the match must have.
    before: tuple[str, int, str] | None = None

    @property
    def secret(self) -> bool:
        return self.rule == SECRET


def _d(rule: str, kind: str, *patterns: tuple[tuple[str, ...], str], accept: Callable[[str, int, str], bool] | None = None,
       before: tuple[str, int, str] | None = None) -> Detector:
    """Each pattern comes with its needles: strings one of which a text must contain for the
    pattern to match it (`i:` for any case). Checking them first is a fast substring search, so
    most patterns never run on most strings."""
    return Detector(rule, kind, patterns, accept, before)


def _n(*needles: str) -> tuple[str, ...]:
    return needles


# A token, not a word (`Basic authentication`): a digit, a symbol or a lower-case letter before an
# upper-case one in its first 200 characters.
_GENERATED = r"(?=[A-Za-z0-9\-._~+/]{0,200}(?:[0-9+/=~]|[a-z][A-Z]))"

# Provider tokens: the prefixes (space-separated) and what follows them. Each prefix is its own
# pattern and its own needle, so a string is searched only for the prefixes it contains, each as
# a literal (the fastest search the engine has).
_TOKENS = (
    ("sk_live_ sk_test_ rk_live_ rk_test_ pk_live_ pk_test_", r"[A-Za-z0-9]{16,}"),  # Stripe
    ("sk-", r"(?:proj-|ant-(?:api\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),  # OpenAI, Anthropic
    ("ghp_ gho_ ghu_ ghs_ ghr_", r"[A-Za-z0-9]{30,}"), ("github_pat_", r"[A-Za-z0-9_]{22,}"),
    ("xoxa- xoxb- xoxp- xoxo- xoxs- xoxr- xoxe- xapp-", r"[A-Za-z0-9-]{10,}"),  # Slack
    ("AIza", r"[0-9A-Za-z_-]{35}"), ("ya29.", r"[0-9A-Za-z_-]{20,}"), ("GOCSPX-", r"[A-Za-z0-9_-]{20,}"),  # Google
    ("glpat- gldt- glrt-", r"[A-Za-z0-9_-]{20,}"), ("npm_", r"[A-Za-z0-9]{36}\b"), ("SG.", r"[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"),
    ("pypi-", r"[A-Za-z0-9_-]{50,}"), ("shpat_ shpss_ shpca_ shppa_", r"[a-fA-F0-9]{32}"), ("hf_", r"[A-Za-z0-9]{30,}"),
    ("dop_v1_", r"[a-f0-9]{64}"), ("whsec_", r"[A-Za-z0-9+/=]{24,}"), ("hvs.", r"[A-Za-z0-9_-]{24,}"), ("lin_api_", r"[A-Za-z0-9]{32,}"),
    ("PMAK-", r"[a-f0-9]{24}-[a-f0-9]{34}"), ("dckr_pat_", r"[A-Za-z0-9_-]{20,}"), ("tskey-", r"(?:auth-|client-)?[A-Za-z0-9-]{20,}"),
    ("sntrys_ sntryu_", r"[A-Za-z0-9+/=_]{30,}"), ("glsa_ glc_", r"[A-Za-z0-9_+/=]{30,}"), ("sbp_", r"[a-f0-9]{40}"),
    ("rubygems_", r"[a-f0-9]{48}"), ("dapi", r"[a-f0-9]{32}\b"), ("NRAK-", r"[A-Z0-9]{27}"), ("ATATT", r"[A-Za-z0-9_=-]{40,}"),
    ("sq0atp- sq0csp-", r"[A-Za-z0-9_-]{22,}"), ("AGE-SECRET-KEY-1", r"[A-Z0-9]{50,}"), ("pul-", r"[a-f0-9]{40}"),
    ("LTAI", r"[A-Za-z0-9]{16,24}\b"), ("dp.pt.", r"[A-Za-z0-9]{40,}"), ("fo1_", r"[A-Za-z0-9_-]{30,}"), (".atlasv1.", r"[A-Za-z0-9_=-]{40,}"),
)


def _token(prefix: str, rest: str) -> tuple[tuple[str, ...], str]:
    """`prefix` where it starts a word, then `rest`: the lookbehind after the literal keeps the
    literal at the pattern's start."""
    literal = re.escape(prefix)
    return (prefix,), f"{literal}(?<![\\w]{literal}){rest}"


# A file name as frames print it, found backwards from its extension (at most 300 characters).
_FILE_BEFORE = (rf"[{_P}]", 300, rf"[{_P}]+")
# The labels before an internal suffix (a hostname has at most 253 characters).
_HOST_BEFORE = (r"[\w.-]", 253, r"[a-zA-Z0-9_-]+(?:\.[a-zA-Z0-9_-]+)*")


DETECTORS: tuple[Detector, ...] = (
    # Stack traces, one per runtime.
    _d(TRACE, "a Python traceback", (_n("Traceback ("), r"Traceback \(most recent call last\)"),
       (_n("During handling of", "The above exception"), r"(?:During handling of the above exception|The above exception was the direct cause)"), (_n('File "'), r"File \"[^\"\n]{1,500}\", line \d{1,9}")),
    _d(TRACE, "a stack frame",
       # JavaScript: at fn (file.js:1:2) or at file.js:1:2; Node internals; Promise.all
       (_n(".js:", ".ts:", ".mjs:", ".cjs:", ".jsx:", ".tsx:", ".mts:", ".cts:"), _AT + r"(?:async |new )?"
        r"(?:[\w$.<>\[\]]{1,200} (?:\[as [\w$]{1,100}\] )?)?\(?(?:[a-z][a-z-]{1,20}:/{0,3})?[\w$./\\@~+-]{1,300}\.[cm]?[jt]sx?:\d{1,9}:\d{1,9}\b\)?"),
       # Firefox and Safari: fn@https://host/app.js:1:2
       (_n(".js:", ".mjs:", ".ts:"), r"@(?:[a-z-]{2,20}:/{2,3})?[^\s@()]{1,300}\.[cm]?[jt]sx?:\d{1,9}:\d{1,9}\b"),
       (_n("(node:", "(index "), _AT + r"(?:async |new )?[\w$.<>\[\]]{1,200} (?:\[as [\w$]{1,100}\] )?\((?:node:[\w$./-]{1,200}:\d{1,9}:\d{1,9}|index \d{1,9})\)"),
       # Java, Kotlin, Scala, Groovy: at pkg.Class.method(File.java:12)
       (_n(".java", ".kt", ".scala", ".groovy", "(Native Method)", "(Unknown Source)"), _AT +
        r"(?:[\w.@-]{1,100}/)?[\w$]{1,200}(?:\.[\w$<>]{1,200}){1,50}\((?:[\w$]{1,200}\.(?:java|kt|scala|groovy)(?::\d{1,9})?|Native Method|Unknown Source)\)"),
       # .NET: at Ns.Class.Method(args) in file.cs:line 12
       (_n(")"), _AT + r"(?:[\w`<>]{1,200}\.){2,50}[\w`<>|]{1,200}\([^()\n]{0,300}\)(?: in [^\n]{1,300}?:line \d{1,9})?"),
       # Rust backtrace: at src/main.rs:10:5
       (_n(".rs:"), _AT + r"[\w./\\-]{1,300}\.rs:\d{1,9}:\d{1,9}\b")),
    _d(TRACE, "a Java stack trace", (_n("Caused by: "), r"Caused by: [\w$]{1,100}(?:\.[\w$]{1,100}){1,20}(?:Exception|Error)\b"), (_n("Exception in thread"), r"Exception in thread \"[^\"\n]{0,200}\""),
       (_n("... "), r"\.\.\. \d{1,9} (?:more|common frames omitted)(?=[ \t]{0,5}(?:\r?\n|$))")),
    # A fully qualified exception class names the code that threw (`org.postgresql.util.PSQLException:`).
    _d(TRACE, "an exception class", *(
        ((root,), f"{re.escape(root)}(?<![\\w.$]{re.escape(root)})" + r"(?:[\w$]{1,100}\.){1,20}?[\w$]{0,100}(?:Exception|Error)(?=:|\n|$)")
        for root in ("java.", "javax.", "jakarta.", "jdk.", "org.", "com.", "io.", "net.", "kotlin.", "scala.", "sun.", "android.", "System.",
                     "Microsoft."))),
    _d(TRACE, "a native stack frame", (_n(" 0x"), _first("#", r"\w") + r"\d{1,4} {1,4}0x[0-9a-f]{6,16} in [\w:~<>]{1,300}")),
    _d(TRACE, "a .NET stack trace", (_n("--- End of"), r"--- End of (?:inner exception )?stack trace")),
    _d(TRACE, "a .NET stack frame", (_n(":line "), r"\.(?:cs|vb|fs):line \d{1,9}"), before=_FILE_BEFORE),
    _d(TRACE, "a Go panic", (_n("goroutine "), r"goroutine \d{1,9} \[[a-z ,0-9]{1,60}\]"), (_n("panic: "), r"panic: (?:runtime error: |assignment to entry in nil map\b)"),
       (_n("[signal "), r"\[signal SIG[A-Z]{2,6}\b")),
    _d(TRACE, "a Go stack frame", (_n(".go:"), r"\.go:\d{1,9} \+0x[0-9a-f]{1,16}"), before=_FILE_BEFORE),
    _d(TRACE, "a Ruby backtrace", (_n(":in "), r"\.(?:rb|rake|erb):\d{1,9}:in [`'\"]"), before=_FILE_BEFORE),
    _d(TRACE, "a Rust panic", (_n("' panicked at"), r"thread '[^'\n]{0,200}' panicked at\b"), (_n("RUST_BACKTRACE="), r"RUST_BACKTRACE="),
       (_n("stack backtrace:"), r"stack backtrace:"), (_n("::"), _first("[0-9]", r"\w") + r"\d{0,3}: <?[a-z_]\w{0,100}(?:::[\w<>{}#]{1,100}){2,30}")),
    _d(TRACE, "a PHP stack trace", (_n("PHP "), r"PHP (?:Fatal error|Warning|Notice|Parse error|Stack trace)\b"), (_n("{main}"), r"#\d{1,4} \{main\}"), (_n("[internal function]"), r"#\d{1,4} \[internal function\]"),
       (_n("Fatal error: Uncaught"), r"Fatal error: Uncaught\b")),
    _d(TRACE, "a PHP stack frame", (_n(".php"), r"\.php(?:\(\d{1,9}\)| on line \d{1,9}\b|:\d{1,9}\b)"), before=_FILE_BEFORE),
    _d(TRACE, "a Swift crash", (_n("Fatal error: Unexpectedly"), r"Fatal error: Unexpectedly found nil\b"), (_n(".dylib"), r"\.dylib {1,10}0x[0-9a-f]{4,16}\b")),
    _d(TRACE, "a Swift crash", (_n(".swift"), r"\.swift(?::\d{1,9}|, line \d{1,9})"), before=_FILE_BEFORE),
    _d(TRACE, "an Elixir stacktrace", (_n("** ("), r"\*\* \((?:[A-Z]\w{0,100}\.){0,10}[A-Z]\w{0,100}\) ")),
    _d(TRACE, "an Elixir stacktrace", (_n(".ex"), r"\.exs?:\d{1,9}: (?:[A-Z]\w{0,100}\.){0,20}[\w?!]{1,100}/\d"), before=_FILE_BEFORE),
    _d(TRACE, "a Perl stack trace", (_n(".pl line ", ".pm line "), r"\.p[lm] line \d{1,9}\b"), before=_FILE_BEFORE),
    # Secrets: the value is masked wherever errgen prints it.
    # The block with its body (masked with it), up to its END line; and a body without its header
    # lines, recognised by the DER prefix every private key encodes to (RSA, PKCS#8, EC, Ed25519, OpenSSH).
    _d(SECRET, "a private key", (_n("PRIVATE KEY"), r"-----BEGIN (?:[A-Z]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s\\:,]{0,20000}"
       r"-----END (?:[A-Z]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----)?"),
       (_n("IBAAK", "IBADAN", "MHcCAQEE", "MIGkAgEBBD", "AgEAMBMGByqGSM49", "MC4CAQAwBQYDK2Vw", "b3BlbnNzaC1rZXktdjE"),
        _first("[Mb]", r"A-Za-z0-9+/") + r"(?:(?<=M)(?:I[A-Za-z0-9+/]{2,3}[AQgw]IBA(?:AK[BC]|DAN)|HcCAQEE|IGkAgEBBD|IG[A-Za-z0-9+/]AgEAMBMGByqGSM49|C4CAQAwBQYDK2Vw)"
        r"|(?<=b)3BlbnNzaC1rZXktdjE)(?:[A-Za-z0-9+/=\r\n]|\\[rn]){20,20000}")),
    _d(SECRET, "an AWS access key id", (_n("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"), _first("A", _W) + r"(?:KIA|SIA|GPA|IDA|ROA|NPA|NVA|IPA)[0-9A-Z]{16}\b")),
    # `{"` encodes to `eyJ`, `{ "` to `eyA`, `{` and a line break to `ew`: a header or claims with spaces.
    _d(SECRET, "a JSON Web Token", (_n("eyJ", "eyA", "ewo", "ew0"), _first("e", _W) + r"[yw][A-Za-z0-9_-]{8,}\.e[yw][A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*")),
    _d(SECRET, "a bearer token", (_n("i:bearer"), _first("[Bb]", _W) + r"(?i:earer)\s{1,10}" + _GENERATED + r"[A-Za-z0-9\-._~+/]{16,}=*"),
       (_n("Basic"), _first("B", _W) + r"asic\s{1,10}" + _GENERATED + r"[A-Za-z0-9+/]{12,}={0,2}"),
       # any other scheme (`Authorization: Token 9944b0...`, `Digest ...`): the header names it a credential
       (_n("i:authorization"), _first("[Aa]", _W) + r"(?i:uthorization)[\"']?\s{0,5}[:=]\s{0,5}[\"']?(?:[A-Za-z-]{2,20} )?(?=[A-Za-z0-9._~+/=-]{0,200}\d)"
        r"[A-Za-z0-9._~+/=-]{16,}")),
    _d(SECRET, "an API token", *(_token(prefix, rest) for prefixes, rest in _TOKENS for prefix in prefixes.split()),
       # Mailgun `key-…`, Mailchimp `…-us12`, Telegram bot and Firebase server keys, Okta `SSWS`
       (_n("key-"), _first("k", r"\w-") + r"ey-[0-9a-z]{32}\b"),
       (_n("-us"), _first("[0-9a-f]", r"0-9a-zA-Z") + r"[0-9a-f]{31}-us\d{1,2}\b"),
       (_n(":AA"), _first("[0-9]", r"\w") + r"\d{7,11}:AA[A-Za-z0-9_-]{32,34}\b"),
       (_n(":APA91b"), r":APA91b[A-Za-z0-9_-]{100,}"),
       (_n("SSWS "), _first("S", _W) + r"SWS [A-Za-z0-9_-]{40,}"),
       # An account id beside its secret (`AC…:token`, as in a basic-auth pair or a URL).
       (_n("AC", "SK"), _first("[AS]", _W) + r"(?:(?<=A)C|(?<=S)K)[0-9a-f]{32}[:/ ][0-9a-f]{32}\b"),
       (_n("i:twilio"), _first("[tT]", _W) + r"(?i:wilio)[\w .:=\"'-]{0,30}?(?<![0-9A-Za-z])[0-9a-f]{32}\b"),
       (_n("hooks.slack.com/", "discord.com/api/webhooks/", "discordapp.com/api/webhooks/", "webhook.office.com/", ".logic.azure.com"),
        _first("[hdw.]", r"\w-") + r"(?:(?<=h)ooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}"
        r"|(?<=d)iscord(?:app)?\.com/api/webhooks/\d{5,30}/[A-Za-z0-9_-]{20,}|(?<=w)ebhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{20,}"
        r"|(?<=\.)logic\.azure\.com[:\d]{0,6}/workflows/[^\s\"'<>]{0,300}sig=[A-Za-z0-9%_-]{20,})")),
    _d(SECRET, "a cloud key", (_n("private_key_id"), r"private_key_id[\"']?\s{0,5}[:=]\s{0,5}[\"']?[0-9a-f]{40}\b"),
       (_n("sig=", "i:signature="), _first("[sS]", r"\w%") + r"ig(?:nature)?=[A-Za-z0-9%+/]{20,}={0,2}")),
    _d(SECRET, "a credential",
       (_n("=", ":"), _first("[pPsScCaArRtTmMdD]", "a-zA-Z0-9") + r"(?i:(?<=p)(?:assword|asswd|wd|ass|assphrase|rivate[_-]?key|gpass(?:word)?)"
       r"|(?<=m)ysql_pwd|(?<=d)b_?pass(?:word)?|(?<=s)(?:ecret(?:[_-]?(?:access[_-]?)?key)?|haredaccess(?:key|signature))"
       r"|(?<=c)(?:lient[_-]?secret|redentials?)|(?<=a)(?:pi[_-]?key|ccess[_-]?(?:key|token)|uth[_-]?token|ccountkey|ws_secret_access_key)"
       r"|(?<=r)efresh[_-]?token|(?<=t)oken)"
       r"[\"']?(?:(?:\s{0,5}=\s{0,5}[\"']?|[\"']?\s{0,5}:\s{0,5}[\"']|:)(?!-----)[^\s\"',;&=<>][^\s;&=]{2,}"
       # a header (`X-Api-Key: 4f9c...`): unquoted after a space only when it looks generated
       r"|:\s{1,5}(?=[^\s\"',;&=<>]{0,200}\d)(?=[^\s\"',;&=<>]{0,200}[A-Za-z])[^\s\"',;&=<>]{16,})={0,2}"), accept=_real_value),
    _d(SECRET, "a password", (_n("i:pass", "i:pwd"), _first("[pP]", "a-zA-Z0-9") + r"(?i:ass(?:word|wd|phrase)?|wd)\s{1,3}"
       r"(?:[\"'][^\s\"']{3,200}[\"']|(?=[^\s\"',;<>]{0,200}\d)(?=[^\s\"',;<>]{0,200}[A-Za-z])[^\s\"',;<>]{12,200})"), accept=_real_value),
    # A session cookie (`Set-Cookie: sessionid=...`) is a login.
    _d(SECRET, "a session cookie", (_n("i:sess", "i:sid="), r"[sS](?i:ess(?:ion)?(?:[_-]?(?:id|token|key))?|id)=[A-Za-z0-9%._~+/-]{16,}"), accept=_real_value),
    # user:password@host in any URL (an empty user, as in `redis://:pw@host`, too)
    _d(SECRET, "a connection string with a password",
       (_n("@"), r"://[^\s:/@'\"]{0,100}:\S{1,256}@[^\s/@'\"?#<>]{1,200}"), before=(r"[A-Za-z0-9+.-]", 31, r"[A-Za-z][A-Za-z0-9+.-]*")),
    # Internal hosts and addresses.
    _d(HOST, "an internal hostname", (_n("i:.internal", "i:.local", "i:.corp", "i:.lan", "i:.intranet", "i:.home.arpa", "i:.consul", "i:.svc"), r"\.(?i:internal|local|localdomain|corp|lan|intranet|home\.arpa|consul|svc|cluster\.local)" + _HOST_END),
       before=_HOST_BEFORE),
    _d(HOST, "an internal hostname", (_n("i:.internal.", "i:.intranet.", "i:.corp."), r"\.(?i:internal|intranet|corp)(?:\.[a-zA-Z0-9-]{1,63}){1,10}" + _HOST_END),
       before=_HOST_BEFORE),
    _d(HOST, "an internal hostname", (_n("i:internal-", "i:intranet-"), _first("[iI]", r"\w.-") + r"(?i:nternal|ntranet)-[a-zA-Z0-9-]{1,63}(?:\.[a-zA-Z0-9-]{1,63}){0,9}"
       r"\.[a-zA-Z0-9-]{1,63}\.[a-zA-Z]{2,24}" + _HOST_END)),
    _d(HOST, "an internal hostname", (_n("i:localhost"), _first("[lL]", r"\w.-") + r"(?i:ocalhost)" + _HOST_END)),
    _d(HOST, "a private IP address",
       (_n("10.", "192.168.", "172.", "127.", "169.254.", "100."), _first("[0-9]", r"\w.") + r"(?:(?<=1)(?:0(?:\.\d{1,3}){3}|92\.168(?:\.\d{1,3}){2}|72\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|27(?:\.\d{1,3}){3}"
       r"|69\.254(?:\.\d{1,3}){2}|00\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])(?:\.\d{1,3}){2}))(?!\.?\d|[\w-])"), accept=_not_version),
    _d(HOST, "a private IPv6 address",
       (_n("i:fc", "i:fd", "i:fe8", "i:fe9", "i:fea", "i:feb"), _first("[fF]", r"\w:.") + r"(?i:(?:[cd][0-9a-f]{2}|e[89ab][0-9a-f]):[0-9a-f:]{0,40}[0-9a-f](?:%\w{1,20})?)(?![\w:])"),
       (_n("::1"), _first(":", r"\w:") + r":1(?::\d{1,5})?(?![\w:])"),
       # the loopback written out: 0:0:0:0:0:0:0:1, 0000:...:0001
       (_n("0:0"), _first("0", r"\w:") + r"0{0,3}(?::0{1,4}){6}:0{0,3}1(?::\d{1,5})?(?![\w:])")),
    _d(HOST, "an internal hostname", (_n("ip-10-", "ip-172-", "ip-192-168-"), _first("i", r"\w.-") + r"p-(?:10|172-(?:1[6-9]|2\d|3[01])|192-168)(?:-\d{1,3}){2,3}\b")),
    _d(HOST, "a database host:port",
       # found at its port (one needle, not one per port), the host taken backwards from there
       (_n(":"), r":(?:" + "|".join(_DB_PORTS) + r")\b"), accept=_looks_like_host, before=(r"[\w.-]", 253, r"[A-Za-z0-9][\w.-]*")),
    # Absolute paths: Unix, home-relative, Windows drive and UNC.
    _d(PATH, "an absolute file path",
       (_n("/"), _first("/", _P) + r"(?:home|usr|var|etc|opt|srv|tmp|root|app|Users|private|mnt|proc|lib|lib64|bin|sbin|workspace|data|run|sys"
       rf"|dev|nix|snap|Library|Applications|System|Volumes|code|src|builds?|go|github|runner|media|boot|lib32|cygdrive|efs|export|scratch|gpfs"
       rf"|__w|jenkins|usr)/[{_P}]+"),
       (_n("~/"), _first("~", _P) + rf"/[{_P}]+"),
       (_n(":\\"), _first("[A-Za-z]", r"\w\\") + r":\\{1,2}(?:[^\\\s'\"<>|:*?]{1,255}\\{1,2}){0,64}[^\\\s'\"<>|:*?]{1,255}"),
       (_n(":/"), _first("[A-Za-z]", r"\w\\/") + r":/(?:[^/\s'\"<>|:*?]{1,255}/){0,64}[^/\s'\"<>|:*?]{1,255}"),
       (_n("%"), _first("%", r"\w%") + r"(?i:userprofile|appdata|localappdata|programdata|programfiles|temp|tmp|windir|systemroot|homepath)%[\\/][^\s'\"<>|]{1,1024}"),
       (_n("file:/"), _first("f", _W) + r"ile:/{1,3}[^\s'\"<>]{1,1024}"),
       (_n("HOME"), _first("\\$", _W) + r"(?:HOME|\{HOME\})/[^\s'\"<>]{1,1024}"),
       (_n("\\\\"), _first("\\\\", r"\w\\") + r"\\[\w.$-]{1,255}\\[^\s'\"<>|]{1,1024}")),
)

# What a sentence or a quotation puts after a leak, per class (a frame may end in a bracket).
_TRAILING = {TRACE: ".,;!?", SECRET: ".,;:!?)]'\"", HOST: ".,;:!?)]}'\"", PATH: ".,;:!?)]}'\""}


@dataclass(frozen=True, slots=True)
class Leak:
    rule: str
    kind: str
    shown: str  # the offending span, with a secret masked
    start: int
    end: int


class LeakScanner:
    def __init__(self, allow_hosts: tuple[str, ...] = (), allow_patterns: tuple[str, ...] = ()) -> None:
        self._allow_hosts = tuple(h.lower() for h in allow_hosts)
        self._allow = [re.compile(p) for p in allow_patterns]
        # Payloads repeat their short strings (codes, categories, messages): remember the answers.
        self._short = functools.lru_cache(maxsize=4096)(lambda text: tuple(self._scan(text)))

    def scan(self, text: str) -> Iterator[Leak]:
        """Leaks in order of position; where two of a class overlap, the first (and then the one
        listed first in DETECTORS) is reported. Leaks of different classes may overlap: a frame
        names a path, a connection string an internal host, and each is a leak of its own."""
        return iter(self._short(text)) if len(text) <= 256 else self._scan(text)

    def _scan(self, text: str) -> Iterator[Leak]:
        end = dict.fromkeys(_TRAILING, 0)  # per class, where its last leak ends
        reported = 0
        for seen, (start, detector, stop) in enumerate(_candidates(text)):
            if reported == MAX_LEAKS or seen == MAX_CANDIDATES:
                return
            if start < end[detector.rule]:
                continue
            span = text[start:stop].rstrip(_TRAILING[detector.rule])  # a leak ends before the sentence does
            if detector.accept is not None and not detector.accept(text, start, span):
                continue
            if self._allowed(span):
                continue
            end[detector.rule] = start + len(span)
            reported += 1
            yield Leak(detector.rule, detector.kind, mask(span) if detector.secret else span, start, end[detector.rule])

    def may_leak(self, text: str) -> bool:
        """False when no pattern's needle is in the text, so nothing in it, or in any part of
        it, can be a leak: one pass rules out a whole registry's prose."""
        return bool(_possible(text))

    def may_mask(self, text: str) -> bool:
        """False when no secret pattern's needle is in the text: redact would return every part
        of it unchanged (one pass over many messages joined)."""
        return bool(_possible(text, _SECRET_TABLES))

    def redact(self, text: str) -> str:
        """The text with every secret in it masked: for anything errgen prints from a payload or
        a registry (values, keys, codes, categories), not only the spans it reports. Unlike
        scan, a secret that overlaps another leak is masked too, and a secret that runs on past
        the one reported before it has its rest starred (`"private_key": "-----BEGIN ...`)."""
        out: list[str] = []
        last, seen = 0, 0
        for start, detector, stop in _candidates(text, _SECRET_TABLES):
            if stop <= last:
                continue
            seen += 1
            if seen > MAX_CANDIDATES:  # a string made of secrets: none of the rest is shown
                return "".join(out) + text[last:start] + "****"
            span = text[start:stop].rstrip(_TRAILING[SECRET])
            if (detector.accept is not None and not detector.accept(text, start, span)) or self._allowed(span):
                continue
            if start >= last:
                out += [text[last:start], mask(span)]
            elif start + len(span) > last:
                out.append("****")
            last = max(last, start + len(span))
        return "".join(out) + text[last:] if out else text

    def _allowed(self, span: str) -> bool:
        lowered = span.lower()
        if any(lowered == h or lowered.endswith("." + h) or lowered.startswith(h + ":") for h in self._allow_hosts):
            return True
        return any(p.search(span) for p in self._allow)


_SOURCES = tuple((index, p, d.before) for index, d in enumerate(DETECTORS) for _, p in d.patterns)
_COMPILED: dict[int, tuple[int, re.Pattern[str], tuple[str, int, str] | None]] = {}


def _compiled(k: int) -> tuple[int, re.Pattern[str], tuple[str, int, str] | None]:
    """Pattern k, compiled the first time a text holds one of its needles: compiling all of
    them took a third of the module's import, paid by every command, and most texts hold none."""
    if k not in _COMPILED:
        index, source, before = _SOURCES[k]
        _COMPILED[k] = (index, re.compile(source), before)
    return _COMPILED[k]
_PATTERNS = [(d, needles) for d in DETECTORS for needles, _ in d.patterns]
_Table = dict[str, tuple[tuple[str, int], ...]]


def _tables(secret_only: bool) -> tuple[_Table, _Table]:
    """Needles as (needle, pattern number) by their first character, one table per case: a
    string is asked only about the needles that begin with one of its own characters, and a
    comprehension of substring tests is the cheapest way to rule patterns out. Masking asks only
    about the secrets' patterns."""
    pairs = [(n, k) for k, (d, needles) in enumerate(_PATTERNS) for n in needles if d.secret or not secret_only]
    exact = tuple(p for p in pairs if not p[0].startswith("i:"))
    any_case = tuple((n[2:].lower(), k) for n, k in pairs if n.startswith("i:"))
    return tuple({c: tuple(p for p in group if p[0][0] == c) for c in {n[0] for n, _ in group}} for group in (exact, any_case))  # type: ignore[return-value]


_ALL_TABLES, _SECRET_TABLES = _tables(False), _tables(True)


def _possible(text: str, tables: tuple[_Table, _Table] = _ALL_TABLES) -> set[int]:
    """The patterns whose needles the text contains."""
    exact, any_case = tables
    lower = text.lower()
    found = {k for c in exact.keys() & set(text) for n, k in exact[c] if n in text}
    found.update(k for c in any_case.keys() & set(lower) for n, k in any_case[c] if n in lower)
    return found


_RUNS = {d.before[0]: re.compile(d.before[0] + "*") for d in DETECTORS if d.before}
_SHAPES = {d.before[2]: re.compile(d.before[2]) for d in DETECTORS if d.before}
MAX_LEAKS = 100  # per string: past that, a string is all leak, and more findings say nothing new
MAX_CANDIDATES = 10 * MAX_LEAKS  # matches looked at twice (a version, not an address) per string


def _candidates(text: str, tables: tuple[_Table, _Table] = _ALL_TABLES) -> Iterator[tuple[int, "_Ordered", int]]:
    """Each pattern's matches, merged in order of position (lazily: a string with thousands of
    leaks costs only as much as the first MAX_LEAKS)."""
    streams = []
    for k in sorted(_possible(text, tables)):
        index, pattern, before = _compiled(k)
        first = pattern.search(text)
        if first is not None:
            streams.append(_matches(text, index, first, pattern, before))
    return iter(()) if not streams else streams[0] if len(streams) == 1 else heapq.merge(*streams)


def _matches(text: str, index: int, first: re.Match[str], pattern: re.Pattern[str],
             before: tuple[str, int, str] | None) -> Iterator[tuple[int, "_Ordered", int]]:
    detector = _Ordered(index)
    for match in itertools.chain((first,), pattern.finditer(text, first.end() if first.end() > first.start() else first.end() + 1)):
        start = match.start()
        if before is not None:
            run_start = _run_start(text, start, before[0], before[1])
            if run_start is None or not _SHAPES[before[2]].fullmatch(text, run_start, start):
                continue
            start = run_start
        yield start, detector, match.end()


def _run_start(text: str, end: int, chars: str, longest: int) -> int | None:
    """Where the run of `chars` that ends at `end` starts, if it is at most `longest` long: the
    window before `end`, reversed, matched from its start (one bounded scan in C)."""
    lo = max(0, end - longest - 1)
    window = text[lo:end][::-1]
    length = _RUNS[chars].match(window).end()  # type: ignore[union-attr]
    if length == 0 or length > longest:
        return None
    return end - length


class _Ordered(int):
    """A detector's place in DETECTORS: ties between candidates break by it."""

    @property
    def rule(self) -> str:
        return DETECTORS[self].rule

    @property
    def secret(self) -> bool:
        return DETECTORS[self].secret

    @property
    def accept(self) -> Callable[[str, int, str], bool] | None:
        return DETECTORS[self].accept

    @property
    def kind(self) -> str:
        return DETECTORS[self].kind


_URL = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:)(.*)(@[^@]*)", re.S)
_ASSIGNED = re.compile(r"([^=:]*[=:]\s*[\"']?)(.*)", re.S)
_PREFIXED = re.compile(r"((?:[Bb]earer|Basic)\s+)(.*)", re.S)
_SPACED = re.compile(r"((?i:pass(?:word|wd|phrase)?|pwd)\s+[\"']?)(.*)", re.S)


def mask(secret: str) -> str:
    """Enough to recognise which value it was, never enough to use it: a URL keeps its user and
    host, an assignment its name, a token its first four characters; the rest is stars."""
    url = _URL.fullmatch(secret)
    if url:
        return url.group(1) + "****" + url.group(3)
    prefixed = _PREFIXED.fullmatch(secret)
    if prefixed:
        return prefixed.group(1) + mask(prefixed.group(2))
    spaced = _SPACED.fullmatch(secret)
    if spaced:
        return spaced.group(1) + "****"
    assigned = _ASSIGNED.fullmatch(secret)
    if assigned and re.match(r"(?i)[\"']?[a-z_-]", secret) and not secret.startswith(("eyJ", "-----")):
        return assigned.group(1) + "****"
    keep = 4 if len(secret) > 12 else 0
    return secret[:keep] + "*" * min(max(len(secret) - keep, 4), 12)
