package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reading a real API's error response (docs/conformance.md, "Reading a real response"): where the
 * registry's {@code wire.response} says each fact is (the contract's {@code response} data), in a
 * JSON or flat-XML body or a header. Nothing here throws on what a server sends; every parse is
 * bounded by the policy's limits.
 */
final class Reading {
  private static final Contract C = Contract.INSTANCE;
  private static final Policy P = C.policy;
  private static final JsonNode R = C.response;
  private static final long MAX = P.maxDelayValueMs();
  private static final BigInteger MAX_BIG = BigInteger.valueOf(MAX);
  private static final int ANY = -1; // the `[*]` path step
  private static final Pattern IMF_FIXDATE =
      Pattern.compile(
          "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{2})"
              + " (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([0-9]{4})"
              + " ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT");
  private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

  /** The wire code each registry code is sent as, when several codes share one. */
  static final Map<String, String> WIRE_CODE = wireCodes();

  private Reading() {}

  private static Map<String, String> wireCodes() {
    Map<String, String> out = new LinkedHashMap<>();
    R.get("variants")
        .properties()
        .forEach(e -> e.getValue().forEach(row -> out.put(row.get(0).asText(), e.getKey())));
    return Collections.unmodifiableMap(out);
  }

  // The response.

  static HttpReading read(
      int status, List<Map.Entry<String, String>> headers, Object body, long nowMs) {
    boolean tooLarge = false;
    boolean utf8 = true;
    String text = "";
    if (body instanceof byte[] bytes) {
      tooLarge = bytes.length > P.maxBodyBytes();
      String decoded = Json.utf8(bytes).orElse(null);
      utf8 = decoded != null;
      text = utf8 ? decoded : new String(bytes, StandardCharsets.UTF_8);
    } else if (body instanceof String s) {
      tooLarge = tooLarge(s);
      text = s;
    }
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    // An xml registry reads a body that starts with "<" as XML, any other as JSON.
    boolean xml = R.get("format").asText().equals("xml") && startsWithTag(text);
    JsonNode document = null;
    if (utf8 && !tooLarge) {
      document = xml ? new Xml(text, P.maxXmlDepth()).document() : Json.read(text).orElse(null);
    }
    String code = readCode(R.get("code"), document, headers, status);
    String correlation = first(R.get("correlation_id"), document, headers, Reading::codeText, 0);
    Long delay = delayMs(document, headers, nowMs, delayEntries(code, status, document, headers));
    boolean error = isError(status, document, headers);
    boolean claimed = code != null || !xml && claims(document);
    Long fallback = delay;
    if (fallback == null && error && !claimed) {
      fallback = delayMs(document, headers, nowMs, R.get("own_retry_after"));
    }
    JsonNode payload = Json.NODES.nullNode();
    if (error) {
      // A body that cannot be read, or an XML one without a code, is the payload as its text,
      // unless a header carries the code.
      payload =
          code != null || document != null && !xml
              ? payload(status, headers, document, code, correlation, delay, xml, nowMs)
              : TextNode.valueOf(text);
    }
    return new HttpReading(
        error, payload, code, correlation, delay, document, status, claimed, fallback);
  }

  /**
   * The code a response carries: the first source whose value is a code this SDK knows (the most
   * specific code wins: Microsoft Graph's {@code innerError.code} over its outer {@code code}, the
   * first known entry of an array through {@code [*]}), else the first usable one.
   */
  static String readCode(
      JsonNode sources, JsonNode document, List<Map.Entry<String, String>> headers, int status) {
    String known = first(sources, document, headers, Reading::knownCodeText, status);
    return known != null ? known : first(sources, document, headers, Reading::codeText, status);
  }

  private static String knownCodeText(JsonNode value) {
    String code = codeText(value);
    return code != null && known(code) ? code : null;
  }

  /**
   * A code this SDK decides by the registry: a registry code, a wire code several registry codes
   * share (a key of {@code variants}), or one that starts with a {@code wire_prefix}.
   */
  static boolean known(String code) {
    return C.codes.containsKey(code) || R.get("variants").has(code) || prefixed(code) != null;
  }

  /**
   * The rows of the longest {@code wire_prefix} {@code code} starts with (the view's table is
   * longest first, ties in registry order), or null.
   */
  static JsonNode prefixed(String code) {
    for (JsonNode entry : R.get("prefixes")) {
      if (code.startsWith(entry.get(0).asText())) {
        return entry.get(1);
      }
    }
    return null;
  }

  /**
   * Whether a JSON document holds where the registry reads the code (the first key of a body
   * source): the API's own error shape, which a payload breaking the contract must not escape by
   * being decided on its status.
   */
  private static boolean claims(JsonNode document) {
    if (document == null || !document.isObject()) {
      return false;
    }
    for (JsonNode source : R.get("code")) {
      JsonNode path = source.get("path");
      if (source.get("in").asText().equals("body")
          && path != null
          && !path.isEmpty()
          && path.get(0).isTextual()
          && document.has(path.get(0).textValue())) {
        return true;
      }
    }
    return false;
  }

  private static boolean tooLarge(String body) {
    if (body.length() > P.maxBodyBytes()) {
      return true; // each character is at least one UTF-8 byte
    }
    long bytes = 0;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < body.length()
          && Character.isLowSurrogate(body.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes > P.maxBodyBytes();
  }

  private static boolean startsWithTag(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
        return c == '<';
      }
    }
    return false;
  }

  private static JsonNode payload(
      int status,
      List<Map.Entry<String, String>> headers,
      JsonNode document,
      String code,
      String correlation,
      Long delay,
      boolean xml,
      long nowMs) {
    JsonNode value = document;
    if (C.envelope != null && !xml && value != null && value.isObject() && value.has(C.envelope)) {
      value = underEnvelope(value.get(C.envelope));
    }
    if (value != null && value.isObject() && hasRequired(value) || code == null) {
      Long own = delayMs(document, headers, nowMs, R.get("own_retry_after"));
      return asSent(status, headers, document, value, own);
    }
    String name = registryCode(code, status, document, headers, any -> true);
    RecoveryEntry entry = C.codes.get(name);
    ObjectNode payload = Json.NODES.objectNode();
    payload.put(C.wire("code"), entry != null ? name : code);
    boolean retryable;
    String scope;
    if (entry != null) {
      payload.put(C.wire("category"), entry.category());
      retryable = entry.retryable();
      scope = entry.scope().wire();
    } else {
      payload.put(C.wire("category"), "");
      retryable = contains(R.get("retryable_statuses"), status);
      scope = contains(R.get("service_statuses"), status) ? "service" : "request";
    }
    payload.put(C.wire("retryable"), retryable);
    payload.put(C.wire("scope"), scope);
    payload.put(C.wire("correlation_id"), correlation == null ? "" : correlation);
    String resource = first(R.get("resource_id"), document, headers, Reading::codeText, 0);
    if (resource != null || scope.equals("resource")) {
      payload.put(C.wire("resource_id"), resource == null ? "" : resource);
    }
    String message = first(R.get("message"), document, headers, Reading::messageText, 0);
    if (message != null) {
      payload.put(C.wire("message"), message);
    }
    if (retryable && delay != null) {
      payload.put(C.wire("retry_after_ms"), delay);
    }
    return payload;
  }

  /**
   * The payload under the envelope key: for an array envelope ({@code errors[*]}) whose value is an
   * array, its first entry that holds every required field; otherwise (no such entry: the other
   * entries are the API's own, read by its sources) the value as it is.
   */
  private static JsonNode underEnvelope(JsonNode value) {
    if (C.envelopeArray && value.isArray()) {
      for (JsonNode entry : value) {
        if (entry.isObject() && hasRequired(entry)) {
          return entry;
        }
      }
    }
    return value;
  }

  private static boolean hasRequired(JsonNode value) {
    return C.fields.stream().filter(FieldSpec::required).allMatch(f -> value.has(f.wire()));
  }

  private static boolean contains(JsonNode numbers, int status) {
    for (JsonNode n : numbers) {
      if (n.asInt() == status) {
        return true;
      }
    }
    return false;
  }

  // Only the contract's own fields: an API's other members (and RFC 9457's) never make a
  // client-side reading invalid; they stay in the reading's document.
  private static boolean kept(String key) {
    return C.byWire.containsKey(key);
  }

  /**
   * A payload the body carries itself (errgen's shape): members that are not the payload's own wire
   * names dropped, {@code detail} as the message, a variant code resolved, and the delay when it is
   * retryable and states none.
   */
  private static JsonNode asSent(
      int status,
      List<Map.Entry<String, String>> headers,
      JsonNode document,
      JsonNode value,
      Long delay) {
    if (value == null || !value.isObject()) {
      return value == null ? Json.NODES.nullNode() : value;
    }
    ObjectNode payload = Json.NODES.objectNode();
    value
        .properties()
        .forEach(
            e -> {
              if (kept(e.getKey())) {
                payload.set(e.getKey(), e.getValue());
              }
            });
    String message = C.wire("message");
    if (value.has("detail")
        && !kept("detail")
        && !payload.has(message)
        && payload.has(C.wire("code"))) {
      payload.set(message, value.get("detail"));
    }
    JsonNode code = payload.get(C.wire("code"));
    if (code != null && code.isTextual()) {
      Predicate<String> fits =
          name -> {
            RecoveryEntry entry = C.codes.get(name);
            JsonNode category = payload.get(C.wire("category"));
            JsonNode scope = payload.get(C.wire("scope"));
            return entry != null
                && category != null
                && category.isTextual()
                && entry.category().equals(category.textValue())
                && scope != null
                && scope.isTextual()
                && entry.actions().containsKey(Scope.fromWire(scope.textValue()));
          };
      payload.put(C.wire("code"), registryCode(code.textValue(), status, document, headers, fits));
    }
    JsonNode retryable = payload.get(C.wire("retryable"));
    if (!payload.has(C.wire("retry_after_ms"))
        && retryable != null
        && retryable.isBoolean()
        && retryable.booleanValue()
        && delay != null) {
      payload.put(C.wire("retry_after_ms"), delay);
    }
    return payload;
  }

  /**
   * The registry code of a wire code several codes send ({@code wire_code}/{@code when}), or, when
   * no wire code equals it (nor a registry code), of the longest {@code wire_prefix} it starts
   * with: the first whose conditions hold, else the first; among those that {@code fits} (a
   * payload's own category and scope) when any does. Any other code is itself.
   */
  static String registryCode(
      String code,
      int status,
      JsonNode document,
      List<Map.Entry<String, String>> headers,
      Predicate<String> fits) {
    JsonNode rows = R.get("variants").get(code);
    if ((rows == null || rows.isEmpty()) && !C.codes.containsKey(code)) {
      rows = prefixed(code);
    }
    if (rows == null || rows.isEmpty()) {
      return code;
    }
    List<JsonNode> kept = new ArrayList<>();
    rows.forEach(
        row -> {
          if (fits.test(row.get(0).asText())) {
            kept.add(row);
          }
        });
    if (kept.isEmpty()) {
      rows.forEach(kept::add);
    }
    for (JsonNode row : kept) {
      if (allHold(row.get(1), status, document, headers)) {
        return row.get(0).asText();
      }
    }
    return kept.get(0).get(0).asText();
  }

  // Headers.

  /**
   * The first value of header {@code name} (lower-case; names compared ASCII case-insensitively)
   * among the first {@code maxHeaders}; null when absent, not text, or longer than {@code
   * maxHeaderChars}.
   */
  static String header(List<Map.Entry<String, String>> headers, String name) {
    if (headers == null) {
      return null;
    }
    int count = 0;
    for (Map.Entry<String, String> pair : headers) {
      if (count++ >= P.maxHeaders()) {
        return null;
      }
      String key = pair == null ? null : pair.getKey();
      if (key != null && ascii(key) && key.equalsIgnoreCase(name)) {
        String value = pair.getValue();
        boolean fits =
            value != null
                && (value.length() <= P.maxHeaderChars()
                    || value.codePointCount(0, value.length()) <= P.maxHeaderChars());
        return fits ? value : null;
      }
    }
    return null;
  }

  private static boolean ascii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** Trims optional whitespace (spaces and tabs), as HTTP does around a field value. */
  static String strip(String s) {
    if (s == null) {
      return null;
    }
    int start = 0;
    int end = s.length();
    while (start < end && (s.charAt(start) == ' ' || s.charAt(start) == '\t')) {
      start++;
    }
    while (end > start && (s.charAt(end - 1) == ' ' || s.charAt(end - 1) == '\t')) {
      end--;
    }
    return s.substring(start, end);
  }

  // Sources.

  private static <T> T walk(
      JsonNode value, JsonNode path, int start, Function<JsonNode, T> accept) {
    for (int at = start; at < path.size(); at++) {
      JsonNode step = path.get(at);
      if (step.isTextual()) {
        if (!value.isObject() || !value.has(step.textValue())) {
          return null;
        }
        value = value.get(step.textValue());
      } else if (step.asInt() == ANY) {
        if (!value.isArray()) {
          return null;
        }
        for (JsonNode item : value) {
          T found = walk(item, path, at + 1, accept);
          if (found != null) {
            return found;
          }
        }
        return null;
      } else {
        if (!value.isArray() || step.asInt() >= value.size()) {
          return null;
        }
        value = value.get(step.asInt());
      }
    }
    return accept.apply(value);
  }

  /**
   * What {@code accept} makes of the value at {@code source}; null when nothing usable is there.
   */
  private static <T> T source(
      JsonNode source,
      JsonNode document,
      List<Map.Entry<String, String>> headers,
      Function<JsonNode, T> accept,
      int status) {
    String in = source.get("in").asText();
    if (in.equals("status")) {
      return accept.apply(TextNode.valueOf(Integer.toString(status)));
    }
    if (in.equals("header")) {
      String value = strip(header(headers, source.get("name").asText()));
      return value == null || value.isEmpty() ? null : accept.apply(TextNode.valueOf(value));
    }
    JsonNode root = document == null ? Json.NODES.nullNode() : document;
    return walk(root, source.get("path"), 0, accept);
  }

  private static <T> T first(
      JsonNode sources,
      JsonNode document,
      List<Map.Entry<String, String>> headers,
      Function<JsonNode, T> accept,
      int status) {
    for (JsonNode source : sources) {
      T found = source(source, document, headers, accept, status);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  // Values.

  /** A JSON number's value when it is an integer of magnitude at most 2^53 - 1 (1.0 counts). */
  private static Long whole(JsonNode value) {
    if (value.isIntegralNumber()) {
      BigInteger big = value.bigIntegerValue();
      return big.abs().compareTo(MAX_BIG) <= 0 ? big.longValue() : null;
    }
    if (value.isNumber()) {
      double d = value.doubleValue();
      return Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) <= MAX ? (long) d : null;
    }
    return null;
  }

  /** A code or request id: a non-empty string, or a whole JSON number as its decimal text. */
  static String codeText(JsonNode value) {
    if (value.isTextual()) {
      return value.textValue().isEmpty() ? null : value.textValue();
    }
    Long whole = whole(value);
    return whole == null ? null : Long.toString(whole);
  }

  private static String messageText(JsonNode value) {
    return value.isTextual() ? value.textValue() : null;
  }

  // Conditions.

  private static boolean holds(
      JsonNode condition, int status, JsonNode document, List<Map.Entry<String, String>> headers) {
    if (condition.has("status")) {
      return contains(condition.get("status"), status);
    }
    Function<JsonNode, Boolean> accept;
    if (condition.has("equals")) {
      JsonNode wanted = condition.get("equals");
      accept = value -> sameJson(value, wanted) ? Boolean.TRUE : null;
    } else {
      accept =
          value ->
              value.isTextual() && !value.textValue().isEmpty()
                      || (value.isArray() || value.isObject()) && value.size() > 0
                  ? Boolean.TRUE
                  : null;
    }
    return source(condition.get("at"), document, headers, accept, status) != null;
  }

  private static boolean allHold(
      JsonNode conditions, int status, JsonNode document, List<Map.Entry<String, String>> headers) {
    for (JsonNode condition : conditions) {
      if (!holds(condition, status, document, headers)) {
        return false;
      }
    }
    return true;
  }

  /** Any status of 300 or more, or a 1xx/2xx that an {@code error_when} condition marks. */
  private static boolean isError(
      int status, JsonNode document, List<Map.Entry<String, String>> headers) {
    if (status >= 300) {
      return true;
    }
    for (JsonNode condition : R.get("error_when")) {
      if (holds(condition, status, document, headers)) {
        return true;
      }
    }
    return false;
  }

  // JSON equality: numbers by value (1 == 1.0), everything else by type and value.
  private static boolean sameJson(JsonNode a, JsonNode b) {
    return a.equals(
        (x, y) -> x.isNumber() && y.isNumber() ? compareNumbers(x, y) : x.equals(y) ? 0 : 1, b);
  }

  private static int compareNumbers(JsonNode a, JsonNode b) {
    if (!a.isIntegralNumber() && !Double.isFinite(a.doubleValue())
        || !b.isIntegralNumber() && !Double.isFinite(b.doubleValue())) {
      return a.doubleValue() == b.doubleValue() ? 0 : 1;
    }
    return exact(a).compareTo(exact(b));
  }

  private static BigDecimal exact(JsonNode n) {
    return n.isIntegralNumber()
        ? new BigDecimal(n.bigIntegerValue())
        : new BigDecimal(n.doubleValue());
  }

  // Delays.

  static Long delayMs(
      JsonNode document,
      List<Map.Entry<String, String>> headers,
      long nowMs,
      Iterable<JsonNode> entries) {
    for (JsonNode entry : entries) {
      String unit = entry.get("unit").asText();
      Long found =
          source(entry.get("at"), document, headers, value -> delay(unit, value, nowMs), 0);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /**
   * The registry's delay sources that apply to the registry code read ({@code code} matched as a
   * payload built from it is): an entry with {@code codes} or {@code categories} only when it lists
   * that code or its category, so an unknown code, or none, reads none of those (Okta's {@code
   * X-Rate-Limit-Reset} is on every response, but only a rate limit waits for it).
   */
  static List<JsonNode> delayEntries(
      String code, int status, JsonNode document, List<Map.Entry<String, String>> headers) {
    RecoveryEntry row =
        code == null
            ? null
            : C.codes.get(registryCode(code, status, document, headers, any -> true));
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode entry : R.get("retry_after")) {
      boolean filtered = entry.has("codes") || entry.has("categories");
      if (!filtered
          || row != null
              && (lists(entry.get("codes"), row.code())
                  || lists(entry.get("categories"), row.category()))) {
        out.add(entry);
      }
    }
    return out;
  }

  private static boolean lists(JsonNode names, String name) {
    if (names != null) {
      for (JsonNode n : names) {
        if (n.asText().equals(name)) {
          return true;
        }
      }
    }
    return false;
  }

  /** How a delay source's value becomes milliseconds, by its unit; null when not usable. */
  private static Long delay(String unit, JsonNode value, long nowMs) {
    switch (unit) {
      case "ms":
        return scaled(value, 1);
      case "seconds":
        return secondsMs(value);
      case "epoch_seconds":
        {
          Long when = scaled(value, 1000);
          return when == null ? null : Math.min(Math.max(0, when - nowMs), MAX);
        }
      case "duration":
        return value.isTextual() ? durationMs(value.textValue()) : null;
      default:
        {
          Long seconds = secondsMs(value); // "http": (decimal) seconds or an HTTP-date
          if (seconds != null || !value.isTextual()) {
            return seconds;
          }
          Long when = httpDateMs(value.textValue());
          return when == null ? null : Math.min(Math.max(0, when - nowMs), MAX);
        }
    }
  }

  /**
   * Seconds as sent ({@code 7}, Microsoft Graph's {@code 2.128}, or a JSON number such as Discord's
   * {@code 64.57}) in milliseconds, rounded up, saturated. A decimal text is read exactly; a JSON
   * fraction is first rounded to the microsecond, so that 64.57, which a double holds as
   * 64.5699..., is 64,570 ms in every errgen SDK.
   */
  private static Long secondsMs(JsonNode value) {
    if (value.isTextual()) {
      String text = value.textValue();
      int dot = text.indexOf('.');
      int places = text.length() - dot - 1;
      if (dot > 0
          && places >= 1
          && places <= 9
          && digits(text, 0, dot)
          && digits(text, dot + 1, text.length())) {
        long whole = saturated(text, 0, dot, 1000);
        return Math.min(whole + fractionMs(text, dot + 1, text.length(), 1000), MAX);
      }
    } else if (value.isFloatingPointNumber()) {
      double d = value.doubleValue();
      if (d >= 0 && Double.isFinite(d) && d != Math.rint(d)) {
        if (d * 1000 > MAX) {
          return MAX;
        }
        long micro = (long) Math.floor(d * 1_000_000 + 0.5);
        return Math.min((micro + 999) / 1000, MAX);
      }
    }
    return scaled(value, 1000);
  }

  /** {@code 0.<digits>} of {@code factor} ms, rounded up to a whole ms, in exact arithmetic. */
  private static long fractionMs(String text, int from, int to, long factor) {
    long scale = (long) Math.pow(10, to - from);
    long digits = Long.parseLong(text, from, to, 10);
    return (digits * factor + scale - 1) / scale;
  }

  /** ASCII digits, or a whole JSON number at least 0 (not one out of range), times factor. */
  private static Long scaled(JsonNode value, long factor) {
    if (value.isTextual()) {
      String text = value.textValue();
      return digits(text, 0, text.length()) ? saturated(text, 0, text.length(), factor) : null;
    }
    if (value.isIntegralNumber()) {
      BigInteger big = value.bigIntegerValue();
      if (big.signum() < 0) {
        return null;
      }
      return big.compareTo(MAX_BIG) > 0 ? MAX : Math.min(big.longValue() * factor, MAX);
    }
    if (value.isNumber()) {
      double d = value.doubleValue();
      if (d < 0 || !Double.isFinite(d) || d != Math.rint(d)) {
        return null;
      }
      return d > MAX ? MAX : Math.min((long) d * factor, MAX);
    }
    return null;
  }

  private static boolean digits(String s, int from, int to) {
    if (from >= to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** ASCII digits times factor, saturated; leading zeros do not count, nothing overflows. */
  static long saturated(String digits, int from, int to, long factor) {
    while (from < to - 1 && digits.charAt(from) == '0') {
      from++;
    }
    if (to - from > 16) {
      return MAX;
    }
    long value = Long.parseLong(digits, from, to, 10);
    return value > MAX / factor ? MAX : Math.min(value * factor, MAX);
  }

  /** {@code 30s}, {@code 1.5s}, {@code 6m0s}, {@code 20ms}: the sum of its parts, rounded up. */
  static Long durationMs(String text) {
    int at = 0;
    int n = text.length();
    long total = 0;
    if (n == 0) {
      return null;
    }
    while (at < n) {
      int whole = at;
      while (at < n && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
        at++;
      }
      if (at == whole) {
        return null;
      }
      int wholeEnd = at;
      int fraction = -1;
      int fractionEnd = -1;
      if (at < n && text.charAt(at) == '.') {
        fraction = ++at;
        while (at < n && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
          at++;
        }
        fractionEnd = at;
        if (fractionEnd == fraction || fractionEnd - fraction > 9) {
          return null;
        }
      }
      long factor;
      if (text.startsWith("ms", at)) {
        factor = 1;
        at += 2;
      } else if (at < n && "hms".indexOf(text.charAt(at)) >= 0) {
        factor =
            switch (text.charAt(at)) {
              case 'h' -> 3_600_000;
              case 'm' -> 60_000;
              default -> 1000;
            };
        at++;
      } else {
        return null;
      }
      long part = saturated(text, whole, wholeEnd, factor);
      if (fraction >= 0) {
        part += fractionMs(text, fraction, fractionEnd, factor);
      }
      total = Math.min(total + part, MAX);
    }
    return total;
  }

  /** Milliseconds since the epoch of an IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37 GMT}). */
  static Long httpDateMs(String text) {
    Matcher m = IMF_FIXDATE.matcher(text);
    if (text.length() != 29 || !m.matches()) {
      return null;
    }
    int day = Integer.parseInt(m.group(1));
    int month = MONTHS.indexOf(m.group(2)) / 3 + 1;
    int year = Integer.parseInt(m.group(3));
    int hour = Integer.parseInt(m.group(4));
    int minute = Integer.parseInt(m.group(5));
    int second = Integer.parseInt(m.group(6));
    if (day < 1 || day > monthDays(year, month) || hour > 23 || minute > 59 || second > 60) {
      return null;
    }
    return (daysFromCivil(year, month, day) * 86400L + hour * 3600L + minute * 60L + second) * 1000;
  }

  /** Days since 1970-01-01 in the proleptic Gregorian calendar (any year 0000-9999). */
  private static long daysFromCivil(int year, int month, int day) {
    long y = month <= 2 ? year - 1 : year;
    long era = Math.floorDiv(y, 400);
    long yearOfEra = y - era * 400;
    long dayOfYear = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + dayOfEra - 719468;
  }

  private static int monthDays(int year, int month) {
    if (month == 2) {
      return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
    }
    return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
  }

  // Flat XML (docs/conformance.md): no library parser, no DTD, no entity but the predefined ones.

  /** Why a text is no flat XML document; thrown without a stack trace, caught below. */
  private static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable() {
      super(null, null, false, false);
    }
  }

  /** One XML text, read left to right with a stack as deep as its elements. */
  private static final class Xml {
    private final String s;
    private final int maxDepth;
    private int at;

    Xml(String s, int maxDepth) {
      this.s = s;
      this.maxDepth = maxDepth;
    }

    /** An element being read: its name, its children so far, its text so far. */
    private static final class Open {
      final String name;
      final ObjectNode children = Json.NODES.objectNode();
      final StringBuilder text = new StringBuilder();

      Open(String name) {
        this.name = name;
      }

      JsonNode value() throws Unreadable {
        return children.isEmpty() ? TextNode.valueOf(decode(text)) : children;
      }
    }

    /** {@code {root: value}}, or null for anything but one element (and DOCTYPE, CDATA...). */
    JsonNode document() {
      try {
        return read();
      } catch (Unreadable e) {
        return null;
      }
    }

    private JsonNode read() throws Unreadable {
      Deque<Open> stack = new ArrayDeque<>();
      String rootName = null;
      JsonNode root = null;
      int n = s.length();
      while (at < n) {
        if (s.charAt(at) != '<') {
          int end = s.indexOf('<', at);
          end = end < 0 ? n : end;
          if (!stack.isEmpty()) {
            stack.peek().text.append(s, at, end);
          } else if (!blank(at, end)) {
            throw new Unreadable(); // text outside the root element
          }
          at = end;
          continue;
        }
        if (s.startsWith("<!--", at)) {
          at = past("-->", at + 4);
          continue;
        }
        if (s.startsWith("<?", at)) {
          at = past("?>", at + 2);
          continue;
        }
        String name;
        JsonNode value;
        if (s.startsWith("</", at)) {
          int end = name(at + 2);
          String closing = s.substring(at + 2, end);
          at = expect('>', spaces(end));
          if (stack.isEmpty() || !stack.peek().name.equals(closing)) {
            throw new Unreadable();
          }
          Open done = stack.pop();
          name = done.name;
          value = done.value();
        } else {
          int end = name(at + 1);
          name = s.substring(at + 1, end);
          int p = spaces(attributes(end));
          boolean empty = p < n && s.charAt(p) == '/';
          at = expect('>', empty ? p + 1 : p);
          if (root != null || stack.size() >= maxDepth) {
            throw new Unreadable(); // a second root, or too deep
          }
          if (!empty) {
            stack.push(new Open(name));
            continue;
          }
          value = TextNode.valueOf("");
        }
        if (!stack.isEmpty()) {
          stack.peek().children.putIfAbsent(name, value);
        } else {
          rootName = name;
          root = value;
        }
      }
      if (root == null || !stack.isEmpty()) {
        throw new Unreadable();
      }
      ObjectNode document = Json.NODES.objectNode();
      document.set(rootName, root);
      return document;
    }

    private boolean blank(int from, int to) {
      for (int i = from; i < to; i++) {
        if (!space(s.charAt(i))) {
          return false;
        }
      }
      return true;
    }

    private static boolean space(char c) {
      return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static boolean nameChar(char c) {
      return !space(c) && "/>=<\"'&!?".indexOf(c) < 0;
    }

    private int past(String close, int from) throws Unreadable {
      int end = s.indexOf(close, from);
      if (end < 0) {
        throw new Unreadable();
      }
      return end + close.length();
    }

    private int name(int from) throws Unreadable {
      int i = from;
      while (i < s.length() && nameChar(s.charAt(i))) {
        i++;
      }
      if (i == from) {
        throw new Unreadable();
      }
      return i;
    }

    private int spaces(int from) {
      int i = from;
      while (i < s.length() && space(s.charAt(i))) {
        i++;
      }
      return i;
    }

    private int expect(char c, int i) throws Unreadable {
      if (i >= s.length() || s.charAt(i) != c) {
        throw new Unreadable();
      }
      return i + 1;
    }

    /** Past any number of {@code WS+ NAME WS* = WS* "..."} (or '...'): ignored. */
    private int attributes(int from) {
      int i = from;
      while (true) {
        int p = spaces(i);
        if (p == i) {
          return i;
        }
        int q = p;
        while (q < s.length() && nameChar(s.charAt(q))) {
          q++;
        }
        if (q == p) {
          return i;
        }
        q = spaces(q);
        if (q >= s.length() || s.charAt(q) != '=') {
          return i;
        }
        q = spaces(q + 1);
        if (q >= s.length() || s.charAt(q) != '"' && s.charAt(q) != '\'') {
          return i;
        }
        char quote = s.charAt(q);
        int end = q + 1;
        while (end < s.length() && s.charAt(end) != quote && s.charAt(end) != '<') {
          end++;
        }
        if (end >= s.length() || s.charAt(end) != quote) {
          return i;
        }
        i = end + 1;
      }
    }

    private static final String[][] NAMED = {
      {"lt;", "<"}, {"gt;", ">"}, {"amp;", "&"}, {"quot;", "\""}, {"apos;", "'"}
    };

    /** The predefined entities and character references; any other {@code &} is unreadable. */
    private static String decode(CharSequence text) throws Unreadable {
      String t = text.toString();
      if (t.indexOf('&') < 0) {
        return t;
      }
      StringBuilder out = new StringBuilder(t.length());
      int i = 0;
      int n = t.length();
      while (i < n) {
        char c = t.charAt(i);
        if (c != '&') {
          out.append(c);
          i++;
          continue;
        }
        String named = null;
        for (String[] entity : NAMED) {
          if (t.startsWith(entity[0], i + 1)) {
            named = entity[1];
            i += 1 + entity[0].length();
            break;
          }
        }
        if (named != null) {
          out.append(named);
          continue;
        }
        boolean hex = t.startsWith("#x", i + 1);
        if (!hex && !t.startsWith("#", i + 1)) {
          throw new Unreadable();
        }
        int start = i + (hex ? 3 : 2);
        int end = start;
        while (end < n
            && (hex
                ? Character.digit(t.charAt(end), 16) >= 0 && t.charAt(end) < 0x80
                : t.charAt(end) >= '0' && t.charAt(end) <= '9')) {
          end++;
        }
        if (end == start || end - start > (hex ? 6 : 7) || end >= n || t.charAt(end) != ';') {
          throw new Unreadable();
        }
        int point = Integer.parseInt(t, start, end, hex ? 16 : 10);
        if (point == 0 || point >= 0xD800 && point <= 0xDFFF || point > 0x10FFFF) {
          throw new Unreadable();
        }
        out.appendCodePoint(point);
        i = end + 1;
      }
      return out.toString();
    }
  }
}
