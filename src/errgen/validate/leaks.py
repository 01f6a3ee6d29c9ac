"""What must never cross the boundary (article 000): stack traces, secrets, internal hostnames and
addresses, absolute file-system paths.

Scanning is linear in the text, whatever the text: a pattern runs only when one of its needles
(literal substrings) is in the text; it starts at a literal or at the start of a run (a lookbehind
after its first character, so no position inside a run starts it again); what follows is a run of
characters the start cannot occur in, or bounded; a match that extends backwards (a file name
before `.rb:12`, the labels before `.internal`) does so over a bounded window; and a string reports
at most MAX_LEAKS leaks. `tests/test_leaks.py` times 1 MB of adversarial text per pattern; the
labelled corpus in tests/fixtures/leaks measures recall and false positives per class.

Hand-written rules, not detect-secrets' plugins: measured on the same corpus (713 messages, 313
clean), its plugins find 50% of the secrets with 1.9% false positives at 0.2 MB/s, and none of the
other three classes; these rules find 100% of each class with 0.3% false positives at 1.1 MB/s
(`python -m bench.leak_bench`).
"""

from __future__ import annotations

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
_DB_PORTS = ("5432", "3306", "6379", "27017", "9200", "11211", "5672", "9092", "1433", "1521", "2379", "8500", "9042")


def _not_version(text: str, start: int, span: str) -> bool:
    """10.2.3.4 after `version`, `v` or `release` is a version number, not an address."""
    before = text[max(0, start - 24):start].lower()
    return re.search(r"\b(?:version|release|build|rev|ver|v)\s*[:=]?\s*v?$", before) is None


_DB_LABEL = re.compile(r"(?:db|sql|postgres|pg|redis|mongo|cache|elastic|es|kafka|rabbit|mq|memcache|primary|replica|"
                       r"master|broker|cluster|node|localhost|oracle|mssql|cassandra|zookeeper|etcd)")


def _looks_like_host(text: str, start: int, span: str) -> bool:
    """`db-1:5432` and `pg.prod:5432` are hosts; `sku:3306`, `JIRA:5432`, `order:6379` are not."""
    host = span.rsplit(":", 1)[0]
    return host.islower() and ("." in host or _DB_LABEL.search(host) is not None)


_PLACEHOLDER = re.compile(r"[*x.#?-]+|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|%\w*%|redacted|hidden|masked|none|null|nil|true|false|"
                          r"required|missing|invalid|incorrect|wrong|expired|empty|changeme|example|value|string|\*+\w*",
                          re.IGNORECASE)


def _real_value(text: str, start: int, span: str) -> bool:
    """`password=hunter2` leaks; `password=****`, `password=<redacted>`, `token: required` do not."""
    value = re.split(r"[=:]", span, maxsplit=1)[-1].strip().strip("\"'")
    return _PLACEHOLDER.fullmatch(value) is None


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


# A file name as frames print it, found backwards from its extension (at most 300 characters).
_FILE_BEFORE = (rf"[{_P}]", 300, rf"[{_P}]+")
# The labels before an internal suffix (a hostname has at most 253 characters).
_HOST_BEFORE = (r"[\w.-]", 253, r"[a-zA-Z0-9_-]+(?:\.[a-zA-Z0-9_-]+)*")


DETECTORS: tuple[Detector, ...] = (
    # Stack traces, one per runtime.
    _d(TRACE, "a Python traceback", (_n("Traceback ("), r"Traceback \(most recent call last\)"), (_n('File "'), r"File \"[^\"\n]{1,500}\", line \d{1,9}")),
    _d(TRACE, "a stack frame",
       # JavaScript: at fn (file.js:1:2) or at file.js:1:2; Node internals; Promise.all
       (_n(".js:", ".ts:", ".mjs:", ".cjs:", ".jsx:", ".tsx:", ".mts:", ".cts:"), _AT +
        r"(?:[\w$.<>\[\]]{1,200} (?:\[as [\w$]{1,100}\] )?)?\(?(?:[a-z]{2,10}:(?://)?)?[\w$./\\@~+-]{1,300}\.[cm]?[jt]sx?:\d{1,9}:\d{1,9}\b\)?"),
       (_n("(node:", "(index "), _AT + r"(?:async )?[\w$.<>\[\]]{1,200} \((?:node:[\w$./-]{1,200}:\d{1,9}:\d{1,9}|index \d{1,9})\)"),
       # Java, Kotlin, Scala, Groovy: at pkg.Class.method(File.java:12)
       (_n(".java", ".kt", ".scala", ".groovy", "(Native Method)", "(Unknown Source)"), _AT +
        r"(?:[\w.@-]{1,100}/)?[\w$]{1,200}(?:\.[\w$<>]{1,200}){1,50}\((?:[\w$]{1,200}\.(?:java|kt|scala|groovy)(?::\d{1,9})?|Native Method|Unknown Source)\)"),
       # .NET: at Ns.Class.Method(args) in file.cs:line 12
       (_n(")"), _AT + r"(?:[\w`<>]{1,200}\.){2,50}[\w`<>|]{1,200}\([^()\n]{0,300}\)(?: in [^\n]{1,300}?:line \d{1,9})?"),
       # Rust backtrace: at src/main.rs:10:5
       (_n(".rs:"), _AT + r"[\w./\\-]{1,300}\.rs:\d{1,9}:\d{1,9}\b")),
    _d(TRACE, "a Java stack trace", (_n("Caused by: "), r"Caused by: [\w$]{1,100}(?:\.[\w$]{1,100}){1,20}(?:Exception|Error)\b"), (_n("Exception in thread"), r"Exception in thread \"[^\"\n]{0,200}\"")),
    _d(TRACE, "a .NET stack trace", (_n("--- End of"), r"--- End of (?:inner exception )?stack trace")),
    _d(TRACE, "a Go panic", (_n("goroutine "), r"goroutine \d{1,9} \[[a-z ,0-9]{1,60}\]")),
    _d(TRACE, "a Go stack frame", (_n(".go:"), r"\.go:\d{1,9} \+0x[0-9a-f]{1,16}"), before=_FILE_BEFORE),
    _d(TRACE, "a Ruby backtrace", (_n(":in "), r"\.(?:rb|rake|erb):\d{1,9}:in [`'\"]"), before=_FILE_BEFORE),
    _d(TRACE, "a Rust panic", (_n("' panicked at"), r"thread '[^'\n]{0,200}' panicked at\b"), (_n("RUST_BACKTRACE="), r"RUST_BACKTRACE=")),
    _d(TRACE, "a PHP stack trace", (_n("PHP "), r"PHP (?:Fatal error|Warning|Notice|Parse error|Stack trace)\b"), (_n("{main}"), r"#\d{1,4} \{main\}")),
    _d(TRACE, "a PHP stack frame", (_n(".php"), r"\.php(?:\(\d{1,9}\)| on line \d{1,9}\b|:\d{1,9}\b)"), before=_FILE_BEFORE),
    _d(TRACE, "a Swift crash", (_n("Fatal error: Unexpectedly"), r"Fatal error: Unexpectedly found nil\b"), (_n(".dylib"), r"\.dylib {1,10}0x[0-9a-f]{4,16}\b")),
    _d(TRACE, "a Swift crash", (_n(".swift"), r"\.swift(?::\d{1,9}|, line \d{1,9})"), before=_FILE_BEFORE),
    _d(TRACE, "an Elixir stacktrace", (_n("** ("), r"\*\* \((?:[A-Z]\w{0,100}\.){0,10}[A-Z]\w{0,100}\) ")),
    _d(TRACE, "an Elixir stacktrace", (_n(".ex"), r"\.exs?:\d{1,9}: (?:[A-Z]\w{0,100}\.){0,20}[\w?!]{1,100}/\d"), before=_FILE_BEFORE),
    # Secrets: the value is masked wherever errgen prints it.
    _d(SECRET, "a private key", (_n("PRIVATE KEY"), r"-----BEGIN (?:[A-Z]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----")),
    _d(SECRET, "an AWS access key id", (_n("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"), _first("A", _W) + r"(?:KIA|SIA|GPA|IDA|ROA|NPA|NVA|IPA)[0-9A-Z]{16}\b")),
    _d(SECRET, "a JSON Web Token", (_n("eyJ"), _first("e", _W) + r"yJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*")),
    _d(SECRET, "a bearer token", (_n("earer"), _first("[Bb]", _W) + r"earer\s{1,10}[A-Za-z0-9\-._~+/]{16,}=*"), (_n("Basic"), _first("B", _W) + r"asic\s{1,10}[A-Za-z0-9+/]{12,}={0,2}")),
    _d(SECRET, "an API token",
       (_n("k_live_", "k_test_", "sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "AIza", "glpat-", "npm_", "SG.", "pypi-",
           "shpat_", "hf_", "dop_v1_"), _first("[sprghxAnSdh]", _W) + r"(?:(?<=[spr])k_(?:live|test)_[A-Za-z0-9]{16,}|(?<=s)k-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|(?<=g)h[pousr]_[A-Za-z0-9]{30,}"
       r"|(?<=g)ithub_pat_[A-Za-z0-9_]{22,}|(?<=x)ox[abposr]-[A-Za-z0-9-]{10,}|(?<=A)Iza[0-9A-Za-z_-]{35}|(?<=g)lpat-[A-Za-z0-9_-]{20,}"
       r"|(?<=n)pm_[A-Za-z0-9]{36}\b|(?<=S)G\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}|(?<=p)ypi-[A-Za-z0-9_-]{50,}"
       r"|(?<=s)hpat_[a-fA-F0-9]{32}|(?<=h)f_[A-Za-z0-9]{30,}|(?<=d)op_v1_[a-f0-9]{64})")),
    _d(SECRET, "a cloud key", (_n("private_key_id"), r"private_key_id[\"']?\s{0,5}[:=]\s{0,5}[\"']?[0-9a-f]{40}\b"),
       (_n("sig=", "signature="), _first("s", r"\w%") + r"ig(?:nature)?=[A-Za-z0-9%+/]{20,}={0,2}")),
    _d(SECRET, "a credential",
       (_n("=", ":"), _first("[pPsScCaArRtT]", "a-zA-Z0-9") + r"(?i:(?<=p)(?:assword|asswd|wd|ass|rivate[_-]?key)|(?<=s)(?:ecret(?:[_-]?key)?|haredaccess(?:key|signature))"
       r"|(?<=c)(?:lient[_-]?secret|redentials?)|(?<=a)(?:pi[_-]?key|ccess[_-]?(?:key|token)|uth[_-]?token|ccountkey|ws_secret_access_key)"
       r"|(?<=r)efresh[_-]?token|(?<=t)oken)"
       r"[\"']?(?:(?:\s{0,5}=\s{0,5}[\"']?|[\"']?\s{0,5}:\s{0,5}[\"']|:)[^\s\"',;&=<>][^\s;&=]{2,}"
       # a header (`X-Api-Key: 4f9c...`): unquoted after a space only when it looks generated
       r"|:\s{1,5}(?=[^\s\"',;&=<>]{0,200}\d)(?=[^\s\"',;&=<>]{0,200}[A-Za-z])[^\s\"',;&=<>]{16,})={0,2}"), accept=_real_value),
    _d(SECRET, "a connection string with a password",
       (_n("@"), r"://[^\s:/@'\"]{1,100}:\S{1,128}@[^\s/@'\"?#]{1,200}"), before=(r"[a-z0-9+.-]", 31, r"[a-z][a-z0-9+.-]*")),
    # Internal hosts and addresses.
    _d(HOST, "an internal hostname", (_n("i:.internal", "i:.local", "i:.corp", "i:.lan", "i:.intranet", "i:.home.arpa", "i:.consul", "i:.svc"), r"\.(?i:internal|local|localdomain|corp|lan|intranet|home\.arpa|consul|svc|cluster\.local)" + _HOST_END),
       before=_HOST_BEFORE),
    _d(HOST, "an internal hostname", (_n("i:localhost"), _first("[lL]", r"\w.-") + r"(?i:ocalhost)" + _HOST_END)),
    _d(HOST, "a private IP address",
       (_n("10.", "192.168.", "172.", "127.", "169.254.", "100."), _first("[0-9]", r"\w.") + r"(?:(?<=1)(?:0(?:\.\d{1,3}){3}|92\.168(?:\.\d{1,3}){2}|72\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|27(?:\.\d{1,3}){3}"
       r"|69\.254(?:\.\d{1,3}){2}|00\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])(?:\.\d{1,3}){2}))(?!\.?\d|[\w-])"), accept=_not_version),
    _d(HOST, "a private IPv6 address",
       (_n("i:fc", "i:fd", "i:fe8", "i:fe9", "i:fea", "i:feb"), _first("[fF]", r"\w:.") + r"(?i:(?:[cd][0-9a-f]{2}|e[89ab][0-9a-f]):[0-9a-f:]{0,40}[0-9a-f](?:%\w{1,20})?)(?![\w:])"),
       (_n("::1"), _first(":", r"\w:") + r":1(?![\w:])")),
    _d(HOST, "a database host:port",
       (tuple(f":{port}" for port in _DB_PORTS), _first("[A-Za-z0-9]", r"\w.-") + r"[\w.-]{0,253}:(?:" + "|".join(_DB_PORTS) + r")\b"),
       accept=_looks_like_host),
    # Absolute paths: Unix, home-relative, Windows drive and UNC.
    _d(PATH, "an absolute file path",
       (_n("/"), _first("/", _P) + r"(?:home|usr|var|etc|opt|srv|tmp|root|app|Users|private|mnt|proc|lib|lib64|bin|sbin|workspace|data|run|sys"
       rf"|dev|nix|snap|Library|Applications|System|Volumes|code|src|builds?|go|github|runner|media)/[{_P}]+"),
       (_n("~/"), _first("~", _P) + rf"/[{_P}]+"),
       (_n(":\\"), _first("[A-Za-z]", r"\w\\") + r":\\(?:[^\\\s'\"<>|:*?]{1,255}\\){0,64}[^\\\s'\"<>|:*?]{1,255}"),
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
        """Leaks in order of position; where two overlap, the first (and then the one listed
        first in DETECTORS) is reported."""
        return iter(self._short(text)) if len(text) <= 256 else self._scan(text)

    def _scan(self, text: str) -> Iterator[Leak]:
        end, reported = 0, 0
        for seen, (start, detector, stop) in enumerate(_candidates(text)):
            if reported == MAX_LEAKS or seen == MAX_CANDIDATES:
                return
            if start < end:
                continue
            span = text[start:stop].rstrip(_TRAILING[detector.rule])  # a leak ends before the sentence does
            if detector.accept is not None and not detector.accept(text, start, span):
                continue
            if self._allowed(span):
                continue
            end = start + len(span)
            reported += 1
            yield Leak(detector.rule, detector.kind, mask(span) if detector.secret else span, start, end)

    def may_leak(self, text: str) -> bool:
        """False when no pattern's needle is in the text, so nothing in it, or in any part of
        it, can be a leak: one pass rules out a whole registry's prose."""
        return bool(_possible(text))

    def redact(self, text: str) -> str:
        """The text with every secret in it masked: for anything errgen prints from a payload or
        a registry (values, keys, codes, categories), not only the spans it reports."""
        if not _may_hold_secret(text):
            return text
        out, last = [], 0
        for leak in self.scan(text):
            if leak.rule == SECRET:
                out += [text[last:leak.start], leak.shown]
                last = leak.end
        return "".join(out) + text[last:] if out else text

    def _allowed(self, span: str) -> bool:
        lowered = span.lower()
        if any(lowered == h or lowered.endswith("." + h) or lowered.startswith(h + ":") for h in self._allow_hosts):
            return True
        return any(p.search(span) for p in self._allow)


_COMPILED = tuple((index, re.compile(p), d.before) for index, d in enumerate(DETECTORS) for _, p in d.patterns)
# Needles flattened to (needle, pattern number), one tuple per case: a comprehension of substring
# tests is the cheapest way to rule patterns out.
_ALL_NEEDLES = [needles for d in DETECTORS for needles, _ in d.patterns]
_NEEDLES = tuple((n, k) for k, needles in enumerate(_ALL_NEEDLES) for n in needles if not n.startswith("i:"))
_ANY_CASE = tuple((n[2:].lower(), k) for k, needles in enumerate(_ALL_NEEDLES) for n in needles if n.startswith("i:"))


def _by_first(pairs: tuple[tuple[str, int], ...]) -> dict[str, tuple[tuple[str, int], ...]]:
    """Needles by their first character: a string is asked only about the needles that begin
    with one of its own characters."""
    return {c: tuple(p for p in pairs if p[0][0] == c) for c in {n[0] for n, _ in pairs}}


_EXACT_BY_FIRST = _by_first(_NEEDLES)
_ANY_CASE_BY_FIRST = _by_first(_ANY_CASE)
# The needles of the secret patterns alone: `redact` masks only secrets, so a text holding none of
# these needs no scan (every message a command prints is redacted).
_SECRET_PATTERNS = {k for k, d in enumerate(d for d in DETECTORS for _ in d.patterns) if d.rule == SECRET}
_SECRET_BY_FIRST = _by_first(tuple(p for p in _NEEDLES if p[1] in _SECRET_PATTERNS))
_SECRET_ANY_CASE_BY_FIRST = _by_first(tuple(p for p in _ANY_CASE if p[1] in _SECRET_PATTERNS))


def _may_hold_secret(text: str) -> bool:
    for c in _SECRET_BY_FIRST.keys() & set(text):
        for needle, _ in _SECRET_BY_FIRST[c]:
            if needle in text:
                return True
    if _SECRET_ANY_CASE_BY_FIRST:
        lower = text.lower()
        for c in _SECRET_ANY_CASE_BY_FIRST.keys() & set(lower):
            for needle, _ in _SECRET_ANY_CASE_BY_FIRST[c]:
                if needle in lower:
                    return True
    return False


def _possible(text: str) -> set[int]:
    """The patterns whose needles the text contains."""
    found = set()  # plain loops: a generator per character was half the cost of validating a wide payload
    for c in _EXACT_BY_FIRST.keys() & set(text):
        for needle, k in _EXACT_BY_FIRST[c]:
            if needle in text:
                found.add(k)
    lower = text.lower()
    for c in _ANY_CASE_BY_FIRST.keys() & set(lower):
        for needle, k in _ANY_CASE_BY_FIRST[c]:
            if needle in lower:
                found.add(k)
    return found
_RUNS = {d.before[0]: re.compile(d.before[0] + "*") for d in DETECTORS if d.before}
_SHAPES = {d.before[2]: re.compile(d.before[2]) for d in DETECTORS if d.before}
MAX_LEAKS = 100  # per string: past that, a string is all leak, and more findings say nothing new
MAX_CANDIDATES = 10 * MAX_LEAKS  # matches looked at twice (a version, not an address) per string


def _candidates(text: str) -> Iterator[tuple[int, "_Ordered", int]]:
    """Each pattern's matches, merged in order of position (lazily: a string with thousands of
    leaks costs only as much as the first MAX_LEAKS)."""
    streams = []
    for k in sorted(_possible(text)):
        index, pattern, before = _COMPILED[k]
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


_URL = re.compile(r"([a-z][a-z0-9+.-]*://[^\s:/@]+:)(.*)(@[^@]*)", re.S)
_ASSIGNED = re.compile(r"([^=:]*[=:]\s*[\"']?)(.*)", re.S)
_PREFIXED = re.compile(r"((?:[Bb]earer|Basic)\s+)(.*)", re.S)


def mask(secret: str) -> str:
    """Enough to recognise which value it was, never enough to use it: a URL keeps its user and
    host, an assignment its name, a token its first four characters; the rest is stars."""
    url = _URL.fullmatch(secret)
    if url:
        return url.group(1) + "****" + url.group(3)
    prefixed = _PREFIXED.fullmatch(secret)
    if prefixed:
        return prefixed.group(1) + mask(prefixed.group(2))
    assigned = _ASSIGNED.fullmatch(secret)
    if assigned and re.match(r"(?i)[\"']?[a-z_-]", secret) and not secret.startswith(("eyJ", "-----")):
        return assigned.group(1) + "****"
    keep = 4 if len(secret) > 12 else 0
    return secret[:keep] + "*" * min(max(len(secret) - keep, 4), 12)
