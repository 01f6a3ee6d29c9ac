package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.UnaryOperator;

/**
 * Acting on errors: {@code decide} for callers, strict and tolerant parsing, HTTP and MCP in and
 * out, {@code newError} for services and {@code didYouMean} for near-miss suggestions. Every errgen
 * SDK implements the same rules and passes the same conformance vectors.
 */
public final class Errors {
  private static final Contract C = Contract.INSTANCE;
  private static final Random JITTER = new Random();

  private Errors() {}

  // Verdicts.

  /** Every reason the strict contract rejects a raw payload; empty when it is valid. */
  public static List<Problem> validate(JsonNode raw) {
    return Verdicts.all(orNull(raw));
  }

  /**
   * The payload, when the strict contract accepts it (a service's own tests).
   *
   * @throws InvalidPayloadException with every problem otherwise
   */
  public static ErrorPayload validateOrThrow(JsonNode raw) {
    List<Problem> problems = validate(raw);
    if (!problems.isEmpty()) {
      throw new InvalidPayloadException(problems);
    }
    return ErrorPayload.fromJson(raw);
  }

  /** The tolerant verdict on a raw payload (a client): a newer server's code is not an error. */
  public static Parsed parse(JsonNode raw) {
    JsonNode value = orNull(raw);
    List<Problem> problems = new ArrayList<>();
    JsonNode[] values = Verdicts.fields(value, problems);
    if (problems.isEmpty() && Verdicts.delayWithoutRetry(values)) {
      problems.add(
          new Problem(
              ProblemId.RETRY_AFTER_NOT_RETRYABLE,
              "a payload that is not retryable has no " + C.wire("retry_after_ms")));
    }
    if (!problems.isEmpty()) {
      return new Parsed(Verdict.INVALID, null, problems, value);
    }
    Verdict verdict =
        Verdicts.known(values, Verdicts.entry(values)) ? Verdict.KNOWN : Verdict.UNKNOWN;
    return new Parsed(verdict, ErrorPayload.of(values), List.of(), value);
  }

  /** As {@link #parse(JsonNode)}, for JSON text; text that is not JSON is an invalid payload. */
  public static Parsed parse(String json) {
    return parse(Json.readOrText(json));
  }

  /** As {@link #parse(String)}, for UTF-8 bytes. */
  public static Parsed parse(byte[] json) {
    return parse(Json.readOrText(json));
  }

  // Checking a received body once.

  /**
   * A received error body (UTF-8 bytes) checked once: {@link #validate}'s problems and {@link
   * #decide}'s decision (attempt {@code attempt}, the policy's limits) from one parse and one walk
   * of the payload. Text that is not JSON is kept as a JSON string, an invalid payload.
   */
  public static Checked check(byte[] json, long attempt) {
    return check(Json.readOrText(json), attempt);
  }

  /** As {@link #check(byte[], long)}, for JSON text. */
  public static Checked check(String json, long attempt) {
    return check(Json.readOrText(json), attempt);
  }

  /** As {@link #check(byte[], long)}, for a payload already parsed. */
  public static Checked check(JsonNode raw, long attempt) {
    return check(raw, attempt, C.policy.defaultMaxAttempts(), C.policy.defaultMaxDelayMs(), null);
  }

  /** As {@link #check(JsonNode, long)}, with {@link #decide}'s limits and jitter source. */
  public static Checked check(
      JsonNode raw, long attempt, long maxAttempts, long maxDelayMs, Random jitter) {
    JsonNode value = orNull(raw);
    List<Problem> problems = new ArrayList<>();
    JsonNode[] values = Verdicts.fields(value, problems);
    if (!problems.isEmpty()) {
      return new Checked(value, problems, invalid(value));
    }
    RecoveryEntry entry = Verdicts.entry(values);
    List<Problem> registry = Verdicts.registry(values, entry);
    problems.addAll(registry);
    Decision decision = decide(values, entry, registry, attempt, maxAttempts, maxDelayMs, jitter);
    return new Checked(value, problems, decision);
  }

  // Deciding.

  /** The recovery decision for a raw payload, with the policy's limits. */
  public static Decision decide(JsonNode raw, long attempt) {
    return decide(raw, attempt, C.policy.defaultMaxAttempts());
  }

  /** The recovery decision for a raw payload at this attempt (1 for the first). */
  public static Decision decide(JsonNode raw, long attempt, long maxAttempts) {
    return decide(raw, attempt, maxAttempts, C.policy.defaultMaxDelayMs());
  }

  /** As above; a server asking for a longer wait than {@code maxDelayMs} gets escalate. */
  public static Decision decide(JsonNode raw, long attempt, long maxAttempts, long maxDelayMs) {
    return decide(raw, attempt, maxAttempts, maxDelayMs, null);
  }

  /** As above; with a {@code jitter} source, a backoff delay is a uniform draw below it. */
  public static Decision decide(
      JsonNode raw, long attempt, long maxAttempts, long maxDelayMs, Random jitter) {
    JsonNode value = orNull(raw);
    List<Problem> problems = new ArrayList<>();
    JsonNode[] values = Verdicts.fields(value, problems);
    if (!problems.isEmpty()) {
      return invalid(value);
    }
    return decide(values, Verdicts.entry(values), null, attempt, maxAttempts, maxDelayMs, jitter);
  }

  // The decision on a payload whose envelope is broken: escalate, quoting its id if it has one.
  private static Decision invalid(JsonNode value) {
    JsonNode id = value.isObject() ? value.get(C.wire("correlation_id")) : null;
    String correlationId = id != null && id.isTextual() ? id.textValue() : null;
    return new Decision(
        Action.ESCALATE,
        Reason.INVALID_PAYLOAD,
        null,
        null,
        null,
        correlationId,
        null,
        List.of(),
        List.of(),
        Map.of());
  }

  /**
   * The decision on a payload whose envelope is fine, from one walk of it ({@link Verdicts#fields})
   * and its code's row ({@code entry}, null for an unknown code); {@code registry} is its registry
   * problems when already known, else null (found here when needed).
   */
  private static Decision decide(
      JsonNode[] values,
      RecoveryEntry entry,
      List<Problem> registry,
      long attempt,
      long maxAttempts,
      long maxDelayMs,
      Random jitter) {
    if (Verdicts.delayWithoutRetry(values)) {
      return decision(values, Action.ESCALATE, Reason.INVALID_PAYLOAD, null);
    }
    Action action;
    Reason reason;
    Long registryDelay = null;
    if (!Verdicts.known(values, entry)) {
      boolean retryable = values[Verdicts.RETRYABLE].booleanValue();
      Scope scope = Scope.fromWire(values[Verdicts.SCOPE].textValue());
      action = C.fallback.get(retryable).get(scope);
      reason = Reason.UNKNOWN_CODE;
    } else if (!(registry != null ? registry : Verdicts.registry(values, entry)).isEmpty()) {
      return decision(values, Action.ESCALATE, Reason.CONTRADICTS_REGISTRY, null);
    } else {
      action = entry.actions().get(Scope.fromWire(values[Verdicts.SCOPE].textValue()));
      reason = Reason.REGISTRY;
      registryDelay = entry.retryAfterMs();
    }
    JsonNode stated = values[Verdicts.RETRY_AFTER_MS];
    Long asked = stated != null ? Long.valueOf(Verdicts.longValue(stated)) : registryDelay;
    Timed t = timed(action, reason, asked, attempt, maxAttempts, maxDelayMs, jitter);
    return decision(values, t.action(), t.reason(), t.delay());
  }

  /** A decision's action, reason and delay once the timing rule has been applied. */
  private record Timed(Action action, Reason reason, Long delay) {}

  /**
   * The timing rule of a timed action (retry, pause), the same for a payload, a response decided by
   * its status and a transport failure: attempts first, then the delay ({@code named}, else the
   * backoff) and its bound. The bound is on the delay the rule asks for, so escalating never
   * depends on a random draw; jitter then spreads only a backoff (a named delay is waited as
   * named). Any other action has no delay.
   */
  private static Timed timed(
      Action action,
      Reason reason,
      Long named,
      long attempt,
      long maxAttempts,
      long maxDelayMs,
      Random jitter) {
    Action last = C.exhausted.get(action);
    if (last == null) {
      return new Timed(action, reason, null);
    }
    if (attempt >= maxAttempts) {
      return new Timed(last, Reason.ATTEMPTS_EXHAUSTED, null);
    }
    long delay = named != null ? named : backoffMs(attempt);
    if (delay > maxDelayMs) {
      return new Timed(Action.ESCALATE, Reason.DELAY_EXCEEDS_MAX, null);
    }
    if (named == null && jitter != null && delay > 0) {
      delay = (long) (jitter.nextDouble() * delay);
    }
    return new Timed(action, reason, delay);
  }

  // Deciding a response and a transport failure.

  /** {@link #decideResponse(HttpReading, long, long, long, Random)} with the policy's limits. */
  public static Decision decideResponse(HttpReading reading, long attempt) {
    return decideResponse(
        reading, attempt, C.policy.defaultMaxAttempts(), C.policy.defaultMaxDelayMs(), null);
  }

  /** As above, with these limits and no jitter. */
  public static Decision decideResponse(
      HttpReading reading, long attempt, long maxAttempts, long maxDelayMs) {
    return decideResponse(reading, attempt, maxAttempts, maxDelayMs, null);
  }

  /**
   * What to do about a response ({@link #readHttp}): a payload, or a body that claims the API's
   * error shape, is decided as {@link #decide} decides it; a response with no payload at all (a
   * proxy's HTML 502, a gateway's bare 429, an empty 503) by its status ({@link #statusAction}),
   * with reason {@code status-fallback}, honouring its {@code Retry-After}.
   *
   * @param reading what {@link #readHttp} found
   * @param attempt this attempt, 1 for the first
   * @param maxAttempts attempts before a retry escalates and a pause stops
   * @param maxDelayMs a longer wait gets {@code escalate}
   * @param jitter with a source, a backoff delay is a uniform draw below it; null for none
   * @return the decision
   */
  public static Decision decideResponse(
      HttpReading reading, long attempt, long maxAttempts, long maxDelayMs, Random jitter) {
    if (!reading.error() || reading.claimed()) {
      Decision decided = decide(reading.payload(), attempt, maxAttempts, maxDelayMs, jitter);
      return decided.code() == null || reading.code() == null
          ? decided
          : asSent(decided, reading.code());
    }
    Action action = statusAction(reading.status());
    Long delay = reading.fallbackDelayMs();
    // A 403 that names a wait is a rate limit (GitHub's secondary limits send exactly that).
    if (!C.exhausted.containsKey(action)
        && delay != null
        && contains(C.response.get("paused_with_delay"), reading.status())) {
      action = Action.PAUSE;
    }
    Timed t =
        timed(action, Reason.STATUS_FALLBACK, delay, attempt, maxAttempts, maxDelayMs, jitter);
    return new Decision(
        t.action(),
        t.reason(),
        null,
        null,
        t.delay(),
        reading.correlationId(),
        null,
        List.of(),
        List.of(),
        Map.of());
  }

  /** The decision with the code as the API sent it (08006, which the prefix 08 matched). */
  private static Decision asSent(Decision d, String wireCode) {
    return new Decision(
        d.action(),
        d.reason(),
        d.code(),
        wireCode,
        d.delayMs(),
        d.correlationId(),
        d.resourceId(),
        d.didYouMean(),
        d.accepted(),
        d.searched());
  }

  /**
   * How a response without a readable code is decided by its status, as the official API clients
   * do: the registry's {@code wire.statuses} over errgen's defaults (429 pause, 5xx retry, 401 and
   * 403 stop, 404 skip, other 4xx fix), by the exact status, else its class ({@code 5xx}); {@code
   * escalate} for a status outside 100..599.
   */
  public static Action statusAction(int status) {
    JsonNode actions = C.response.get("status_actions");
    JsonNode found = actions.get(Integer.toString(status));
    if (found == null) {
      found = actions.get(Math.floorDiv(status, 100) + "xx");
    }
    return found != null && status >= 100 && status <= 599
        ? Action.fromWire(found.asText())
        : Action.ESCALATE;
  }

  private static boolean contains(JsonNode numbers, int status) {
    for (JsonNode n : numbers) {
      if (n.isInt() && n.intValue() == status) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@link #decideFailure(TransportFailure, boolean, long, long, long, Random)}, default limits.
   */
  public static Decision decideFailure(TransportFailure failure, boolean idempotent, long attempt) {
    return decideFailure(
        failure,
        idempotent,
        attempt,
        C.policy.defaultMaxAttempts(),
        C.policy.defaultMaxDelayMs(),
        null);
  }

  /**
   * What to do when no response came ({@link TransportFailure#of} names the failure): {@code
   * refused} and {@code tls} (the request never left) are retried; {@code reset} and {@code
   * timeout} (the server may have applied it) only when the call is {@code idempotent}, else
   * escalated with reason {@code outcome-unknown}. A retry follows the timing rule of {@link
   * #decide} with reason {@code transport-failure}.
   *
   * @param failure what happened
   * @param idempotent whether the call may be applied twice (a GET, or a request with an {@code
   *     Idempotency-Key})
   * @param attempt this attempt, 1 for the first
   * @param maxAttempts attempts before a retry escalates
   * @param maxDelayMs a longer backoff gets {@code escalate}
   * @param jitter with a source, the backoff is a uniform draw below it; null for none
   * @return the decision (no code, ids or hints)
   */
  public static Decision decideFailure(
      TransportFailure failure,
      boolean idempotent,
      long attempt,
      long maxAttempts,
      long maxDelayMs,
      Random jitter) {
    if (!failure.neverSent() && !idempotent) {
      return failureDecision(new Timed(Action.ESCALATE, Reason.OUTCOME_UNKNOWN, null));
    }
    return failureDecision(
        timed(
            Action.RETRY,
            Reason.TRANSPORT_FAILURE,
            null,
            attempt,
            maxAttempts,
            maxDelayMs,
            jitter));
  }

  /**
   * As above, for a failure named by its wire string (anything unknown counts as {@code reset}).
   */
  public static Decision decideFailure(
      String failure,
      boolean idempotent,
      long attempt,
      long maxAttempts,
      long maxDelayMs,
      Random jitter) {
    return decideFailure(
        TransportFailure.fromWire(failure), idempotent, attempt, maxAttempts, maxDelayMs, jitter);
  }

  private static Decision failureDecision(Timed t) {
    return new Decision(
        t.action(), t.reason(), null, null, t.delay(), null, null, List.of(), List.of(), Map.of());
  }

  /** The recovery decision for a parsed payload. */
  public static Decision decide(ErrorPayload payload, long attempt, long maxAttempts) {
    return decide(payload.toJson(), attempt, maxAttempts);
  }

  /** The recovery decision for a parsed payload, with a longest acceptable delay. */
  public static Decision decide(
      ErrorPayload payload, long attempt, long maxAttempts, long maxDelayMs) {
    return decide(payload.toJson(), attempt, maxAttempts, maxDelayMs);
  }

  /** The backoff before attempt {@code attempt + 1}: base * 2^(attempt-1), capped. */
  public static long backoffMs(long attempt) {
    Policy p = C.policy;
    long exponent = Math.min(Math.max(attempt - 1, 0), p.backoffMaxExponent());
    return Math.min(p.backoffBaseMs() << exponent, p.backoffMaxMs());
  }

  /** As {@link #backoffMs(long)}, with full jitter: a uniform draw below the delay. */
  public static long backoffMs(long attempt, Random random) {
    return (long) ((random == null ? JITTER : random).nextDouble() * backoffMs(attempt));
  }

  // A decision carrying the payload's code, ids and hints, from its fields.
  private static Decision decision(JsonNode[] values, Action action, Reason reason, Long delay) {
    List<String> didYouMean = ErrorPayload.strings(values[Verdicts.DID_YOU_MEAN]);
    List<String> accepted = ErrorPayload.strings(values[Verdicts.ACCEPTED]);
    Map<String, Object> searched = ErrorPayload.scalars(values[Verdicts.SEARCHED]);
    String code = ErrorPayload.text(values[Verdicts.CODE]);
    return new Decision(
        action,
        reason,
        code,
        Decision.wireCodeOf(code),
        delay,
        ErrorPayload.text(values[Verdicts.CORRELATION_ID]),
        ErrorPayload.text(values[Verdicts.RESOURCE_ID]),
        didYouMean == null ? List.of() : didYouMean,
        accepted == null ? List.of() : accepted,
        searched == null ? Map.of() : searched);
  }

  // Services.

  /**
   * A payload of a known code, with category, retryable and default scope from the table.
   *
   * @throws InvalidPayloadException for {@link Code#UNKNOWN_TO_SDK_VERSION}
   */
  public static ErrorPayload newError(Code code, String correlationId) {
    return ErrorPayload.builder(code, correlationId).build();
  }

  /**
   * A payload of a known code, with the builder's optional fields set by {@code fields}.
   *
   * @throws InvalidPayloadException when the result breaks the contract
   */
  public static ErrorPayload newError(
      Code code, String correlationId, UnaryOperator<ErrorPayload.Builder> fields) {
    return fields.apply(ErrorPayload.builder(code, correlationId)).build();
  }

  // HTTP.

  /**
   * The code as the API sends it: a code that shares its wire code with others goes out as that
   * wire code (in the payload too).
   */
  private static String sentCode(ErrorPayload payload, ObjectNode fields) {
    String code = payload.code();
    String sent = code == null ? null : Reading.WIRE_CODE.getOrDefault(code, code);
    if (sent != null && !sent.equals(code)) {
      fields.put(C.wire("code"), sent);
    }
    return sent;
  }

  /**
   * The body as the API itself sends it (docs/conformance.md, "Writing in the API's own shape"):
   * each fact at its first body and first header source, then every {@code equals} condition of
   * {@code error_when} and of the code's own variant entry made true; an XML API's document holds
   * those writes alone.
   */
  private static JsonNode apiShape(
      ErrorPayload payload, String sent, ObjectNode body, List<Map.Entry<String, String>> headers) {
    JsonNode response = C.response;
    List<JsonNode[]> writes = new ArrayList<>();
    String[][] facts = {
      {"code", sent},
      {"message", payload.message()},
      {"correlation_id", payload.correlationId()},
      {"resource_id", payload.resourceId()}
    };
    for (String[] fact : facts) {
      for (String kind : fact[1] == null ? List.<String>of() : List.of("body", "header")) {
        for (JsonNode source : response.get(fact[0])) {
          if (source.get("in").asText().equals(kind)) {
            writes.add(new JsonNode[] {source, Json.NODES.textNode(fact[1])});
            break;
          }
        }
      }
    }
    List<JsonNode> conditions = new ArrayList<>();
    response.get("error_when").forEach(conditions::add);
    JsonNode rows = sent == null ? null : response.get("variants").get(sent);
    for (JsonNode row : rows == null ? Json.NODES.arrayNode() : rows) {
      if (row.get(0).asText().equals(payload.code())) {
        row.get(1).forEach(conditions::add);
      }
    }
    for (JsonNode condition : conditions) {
      if (condition.has("at") && condition.has("equals")) {
        writes.add(new JsonNode[] {condition.get("at"), condition.get("equals")});
      }
    }
    JsonNode document = xml() ? Json.NODES.objectNode() : body;
    for (JsonNode[] write : writes) {
      String in = write[0].get("in").asText();
      if (in.equals("header") && write[1].isTextual()) {
        putHeader(headers, write[0].get("name").asText(), write[1].textValue());
      } else if (in.equals("body")) {
        document = put(document, write[0].get("path"), 0, write[1]);
      }
    }
    return document;
  }

  private static boolean xml() {
    return C.response.get("format").asText().equals("xml");
  }

  /**
   * {@code node} with {@code value} at {@code path} from step {@code at}: objects and arrays made
   * on the way (an array padded with empty objects, {@code [*]} as index 0), a value in the way
   * replaced; a new key goes last, an existing one keeps its place.
   */
  private static JsonNode put(JsonNode node, JsonNode path, int at, JsonNode value) {
    if (at == path.size()) {
      return value;
    }
    JsonNode step = path.get(at);
    if (step.isTextual()) {
      ObjectNode object =
          node != null && node.isObject() ? (ObjectNode) node : Json.NODES.objectNode();
      object.set(step.textValue(), put(object.get(step.textValue()), path, at + 1, value));
      return object;
    }
    int index = Math.max(step.asInt(), 0);
    ArrayNode items = node != null && node.isArray() ? (ArrayNode) node : Json.NODES.arrayNode();
    while (items.size() <= index) {
      items.addObject();
    }
    items.set(index, put(items.get(index), path, at + 1, value));
    return items;
  }

  /** The document's first member as the root element, or "" when it has none. */
  private static String toXml(JsonNode document) {
    if (!document.isObject() || document.isEmpty()) {
      return "";
    }
    Map.Entry<String, JsonNode> root = document.properties().iterator().next();
    StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    element(out, root.getKey(), root.getValue());
    return out.toString();
  }

  // Strings only: an XML reader reads every value as text.
  private static void element(StringBuilder out, String name, JsonNode value) {
    if (name.isEmpty() || name.chars().anyMatch(c -> " \t\r\n/>=<\"'&!?".indexOf(c) >= 0)) {
      return;
    }
    if (value.isArray()) {
      value.forEach(item -> element(out, name, item));
    } else if (value.isObject()) {
      out.append('<').append(name).append('>');
      value.properties().forEach(e -> element(out, e.getKey(), e.getValue()));
      out.append("</").append(name).append('>');
    } else if (value.isTextual()) {
      out.append('<').append(name).append('>');
      // A lone surrogate is written as U+FFFD, as in JSON: the body always encodes as UTF-8.
      Json.mended(value.textValue())
          .codePoints()
          .forEach(
              c -> {
                switch (c) {
                  case '&' -> out.append("&amp;");
                  case '<' -> out.append("&lt;");
                  case '>' -> out.append("&gt;");
                  case 0 -> out.append('\uFFFD');
                  default -> {
                    if (c < 0x20) {
                      out.append("&#").append(c).append(';');
                    } else {
                      out.appendCodePoint(c);
                    }
                  }
                }
              });
      out.append("</").append(name).append('>');
    }
  }

  // A header set once: a later value replaces an earlier one of the same name, in its place. A
  // value that is not writable (docs/conformance.md, "Writing headers") is left out: the body
  // still carries it, and no CR, LF or NUL can split the response.
  private static void putHeader(
      List<Map.Entry<String, String>> headers, String name, String value) {
    if (!writable(value)) {
      return;
    }
    for (int i = 0; i < headers.size(); i++) {
      if (headers.get(i).getKey().equals(name)) {
        headers.set(i, header(name, value));
        return;
      }
    }
    headers.add(header(name, value));
  }

  /**
   * Whether {@code value} may be written as a header value: not empty, at most {@link
   * Policy#maxHeaderChars()} characters (the readers' own bound), each one visible ASCII or space.
   */
  static boolean writable(String value) {
    if (value == null || value.isEmpty() || value.length() > C.policy.maxHeaderChars()) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7E) {
        return false;
      }
    }
    return true;
  }

  /** An HTTP response for a payload: status, delay headers and a body in the API's own shape. */
  public static HttpMessage toHttp(ErrorPayload payload) {
    return toHttp(payload, false);
  }

  /**
   * An HTTP response for a payload: the code's status (500 for an unknown code), {@code
   * x-should-retry} from retryable, {@code Retry-After} in whole seconds rounded up and {@code
   * retry-after-ms} when there is a delay, and with {@code problem} an RFC 9457 {@code
   * application/problem+json} body. A registry for an existing API makes it that API's own shape:
   * each fact also where the API puts it, every condition it tests for an error true, and for
   * {@code format: xml} an {@code application/xml} body.
   */
  public static HttpMessage toHttp(ErrorPayload payload, boolean problem) {
    ObjectNode fields = payload.toJson();
    RecoveryEntry entry = C.codes.get(payload.code());
    int status = entry != null ? entry.httpStatus() : 500;
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    putHeader(headers, "Content-Type", problem ? "application/problem+json" : "application/json");
    // For clients that never read the body (the official API SDKs' retry policy obeys it).
    putHeader(headers, "x-should-retry", Boolean.toString(payload.retryable()));
    Long delay = payload.retryAfterMs();
    if (delay == null && entry != null && payload.retryable()) {
      delay = entry.retryAfterMs();
    }
    if (delay != null) {
      long ms = Math.min(delay, C.policy.maxDelayValueMs());
      putHeader(headers, "Retry-After", Long.toString((ms + 999) / 1000));
      putHeader(headers, "retry-after-ms", Long.toString(ms));
    }
    String sent = sentCode(payload, fields);
    ObjectNode body = Json.NODES.objectNode();
    if (problem) {
      body.put("type", entry != null ? entry.typeUri() : C.policy.problemBase() + payload.code());
      body.put("title", entry != null ? entry.description() : payload.code());
      body.put("status", status);
      if (payload.message() != null) {
        body.put("detail", payload.message());
      }
    }
    if (C.envelope != null) {
      // An array envelope holds the payload as its one entry; the API-shape writes at `[*]` land
      // in that same entry.
      body.set(C.envelope, C.envelopeArray ? Json.NODES.arrayNode().add(fields) : fields);
    } else {
      body.setAll(fields);
    }
    JsonNode shaped = apiShape(payload, sent, body, headers);
    if (xml()) {
      putHeader(headers, "Content-Type", "application/xml");
      return new HttpMessage(status, headers, toXml(shaped));
    }
    return new HttpMessage(status, headers, Json.write(shaped));
  }

  /**
   * What a response from {@code java.net.http} (String or byte[] body) says, read where the
   * registry's {@code wire.response} puts each fact; see {@link #readHttp(int, List, String,
   * long)}.
   */
  public static HttpReading readHttp(HttpResponse<?> response) {
    return Reading.read(
        response.statusCode(),
        pairs(response.headers()),
        bodyOf(response.body()),
        System.currentTimeMillis());
  }

  // A String or byte[] body as it is; an InputStream read to one byte past the body limit (what
  // is past it is never read: the body is then unreadable), then closed, so that the connection
  // is released (a retrier's next attempt leaks none); anything else as its text.
  private static Object bodyOf(Object body) {
    if (body instanceof InputStream stream) {
      try (InputStream in = stream) {
        return in.readNBytes(C.policy.maxBodyBytes() + 1);
      } catch (IOException e) {
        return "";
      }
    }
    return body instanceof byte[] || body == null ? body : body.toString();
  }

  /** What a plain HTTP response says, now. */
  public static HttpReading readHttp(HttpMessage response) {
    return readHttp(
        response.status(), response.headers(), response.body(), System.currentTimeMillis());
  }

  /**
   * What an HTTP response says (docs/conformance.md, "Reading a real response"): whether it is an
   * error, the code, request id and delay where the registry's {@code wire.response} puts them (in
   * a JSON or flat-XML body, a header or the status), the whole parsed body, and the payload:
   * errgen's own as sent, or one built from the code read and its registry row. Never throws on
   * what a server sends; bodies, headers, numbers and nesting are bounded by the policy.
   */
  public static HttpReading readHttp(
      int status, List<Map.Entry<String, String>> headers, String body, long nowMs) {
    return Reading.read(status, headers, body, nowMs);
  }

  /** As above, for a body of UTF-8 bytes (invalid UTF-8 is unreadable). */
  public static HttpReading readHttp(
      int status, List<Map.Entry<String, String>> headers, byte[] body, long nowMs) {
    return Reading.read(status, headers, body, nowMs);
  }

  /**
   * Throws the error an HTTP response from {@code java.net.http} carries, as the exception of its
   * category (catch {@link ServiceException} for every error response, a category's subclass for
   * its errors); returns normally when the response is no error. A response whose payload names no
   * category this SDK knows, or that carries none, takes the exception of the category the registry
   * gives its status (a bare 429's {@code RateLimitException}: only the class comes from the
   * status, see {@link ErrorPayloadException}). A response below 300 is not read when the registry
   * marks no 2xx as an error, so a streamed body stays unread.
   *
   * @throws ErrorPayloadException the category's subclass, when the response carries a payload or
   *     its status has a category
   * @throws NoPayloadException when it is an error without a payload this SDK can read (a proxy's
   *     HTML 502, an empty 503, a body breaking the contract) whose status no category has, or two
   */
  public static void throwIfError(HttpResponse<?> response) {
    Optional<ServiceException> error = errorOf(response);
    if (error.isPresent()) {
      throw error.get();
    }
  }

  /**
   * As {@link #throwIfError(HttpResponse)}, for any client's response: OkHttp's {@code (r.code(),
   * r.headers().toMultimap(), r.body().bytes())} for a response that is not {@code
   * r.isSuccessful()}, Spring 6's {@code (r.getStatusCode().value(), r.getHeaders(), body)}.
   *
   * @param status the HTTP status
   * @param headers the headers, each name with its values
   * @param body the body text (null for none)
   */
  public static void throwIfError(
      int status, Map<String, ? extends List<String>> headers, String body) {
    Optional<ServiceException> error = errorOf(status, headers, body);
    if (error.isPresent()) {
      throw error.get();
    }
  }

  /** As {@link #throwIfError(int, Map, String)}, for a body of UTF-8 bytes. */
  public static void throwIfError(
      int status, Map<String, ? extends List<String>> headers, byte[] body) {
    Optional<ServiceException> error = errorOf(status, headers, body);
    if (error.isPresent()) {
      throw error.get();
    }
  }

  /**
   * As {@link #throwIfError(int, Map, String)}, for headers given as their entries, each name with
   * its values: Spring Framework 7's {@code r.getHeaders().headerSet()} (its {@code HttpHeaders} is
   * no {@code Map} any more).
   *
   * @param status the HTTP status
   * @param headers the headers' entries, each name with its values
   * @param body the body text (null for none)
   */
  public static void throwIfError(
      int status,
      Collection<? extends Map.Entry<String, ? extends List<String>>> headers,
      String body) {
    Optional<ServiceException> error = errorOf(status, headers, body);
    if (error.isPresent()) {
      throw error.get();
    }
  }

  /** As {@link #throwIfError(int, Collection, String)}, for a body of UTF-8 bytes. */
  public static void throwIfError(
      int status,
      Collection<? extends Map.Entry<String, ? extends List<String>>> headers,
      byte[] body) {
    Optional<ServiceException> error = errorOf(status, headers, body);
    if (error.isPresent()) {
      throw error.get();
    }
  }

  /**
   * Throws the error an {@code HttpURLConnection}'s response carries (see {@link
   * #errorOf(HttpURLConnection)}); returns normally when it is no error.
   *
   * @param connection the connection, its request sent or about to be
   * @throws IOException when no response comes (connection refused, timeout, ...)
   */
  public static void throwIfError(HttpURLConnection connection) throws IOException {
    Optional<ServiceException> error = errorOf(connection);
    if (error.isPresent()) {
      throw error.get();
    }
  }

  /**
   * The error an {@code HttpURLConnection}'s response carries; empty when it is no error. Its
   * status and headers are read, and its error stream (up to the policy's body limit; an error
   * without a body is read as one), which is then closed; the body of a response below 400 is left
   * for the caller to read (so a registry whose errors come with a 2xx status, {@code
   * wire.response}'s {@code error_when}, needs {@link #errorOf(int, Map, byte[])} with the body
   * read).
   *
   * @param connection the connection, its request sent or about to be
   * @return the error, or empty
   * @throws IOException when no response comes (connection refused, timeout, ...)
   */
  public static Optional<ServiceException> errorOf(HttpURLConnection connection)
      throws IOException {
    int status = connection.getResponseCode();
    if (status < 300 && C.response.get("error_when").isEmpty()) {
      return Optional.empty();
    }
    byte[] body = new byte[0];
    InputStream errors = connection.getErrorStream();
    if (errors != null) {
      try (InputStream in = errors) {
        body = in.readNBytes(C.policy.maxBodyBytes() + 1);
      }
    }
    return errorOf(status, connection.getHeaderFields(), body);
  }

  /** The error a {@code java.net.http} response carries; empty when it is no error. */
  public static Optional<ServiceException> errorOf(HttpResponse<?> response) {
    if (response.statusCode() < 300 && C.response.get("error_when").isEmpty()) {
      return Optional.empty();
    }
    return errorOf(readHttp(response), response.headers());
  }

  /** The error a response carries; empty when it is no error. See {@link #throwIfError}. */
  public static Optional<ServiceException> errorOf(
      int status, Map<String, ? extends List<String>> headers, String body) {
    HttpHeaders map = ServiceException.headersOf(headers);
    return errorOf(readHttp(status, pairs(map), body, System.currentTimeMillis()), map);
  }

  /** As above, for a body of UTF-8 bytes. */
  public static Optional<ServiceException> errorOf(
      int status, Map<String, ? extends List<String>> headers, byte[] body) {
    HttpHeaders map = ServiceException.headersOf(headers);
    return errorOf(readHttp(status, pairs(map), body, System.currentTimeMillis()), map);
  }

  /** As {@link #errorOf(int, Map, String)}, for headers given as their entries. */
  public static Optional<ServiceException> errorOf(
      int status,
      Collection<? extends Map.Entry<String, ? extends List<String>>> headers,
      String body) {
    return errorOf(status, headerMap(headers), body);
  }

  /** As {@link #errorOf(int, Map, byte[])}, for headers given as their entries. */
  public static Optional<ServiceException> errorOf(
      int status,
      Collection<? extends Map.Entry<String, ? extends List<String>>> headers,
      byte[] body) {
    return errorOf(status, headerMap(headers), body);
  }

  // Entries as a map: a name given twice keeps the values of both.
  private static Map<String, List<String>> headerMap(
      Collection<? extends Map.Entry<String, ? extends List<String>>> entries) {
    Map<String, List<String>> map = new LinkedHashMap<>();
    if (entries != null) {
      for (Map.Entry<String, ? extends List<String>> e : entries) {
        if (e != null && e.getValue() != null) {
          map.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
        }
      }
    }
    return map;
  }

  /**
   * The exception of a reading, the one place every response helper makes it: the payload's
   * category exception when the payload is valid; for a payload of a category this SDK does not
   * know, or none (with the contract's problems when the body claimed the API's error shape), the
   * exception of the category the registry gives the status (a bare 429's {@code
   * RateLimitException}), else {@link ErrorPayloadException} itself or a {@link
   * NoPayloadException}. Each decides through {@link #decideResponse}.
   */
  private static Optional<ServiceException> errorOf(HttpReading reading, HttpHeaders headers) {
    if (!reading.error()) {
      return Optional.empty();
    }
    Parsed parsed = parse(reading.payload());
    if (parsed.ok()) {
      return Optional.of(ErrorPayloadException.of(parsed.payload(), reading, headers));
    }
    List<Problem> problems = reading.claimed() ? parsed.problems() : List.of();
    return Optional.of(CategoryExceptions.withoutPayload(reading, headers, problems));
  }

  private static List<Map.Entry<String, String>> pairs(HttpHeaders headers) {
    List<Map.Entry<String, String>> pairs = new ArrayList<>();
    headers.map().forEach((name, values) -> values.forEach(v -> pairs.add(header(name, v))));
    return pairs;
  }

  /** The raw payload of an HTTP response from {@code java.net.http} (String or byte[] body). */
  public static JsonNode fromHttp(HttpResponse<?> response) {
    return readHttp(response).payload();
  }

  /** The raw payload of a plain HTTP response, now. */
  public static JsonNode fromHttp(HttpMessage response) {
    return readHttp(response).payload();
  }

  /**
   * The raw payload of an HTTP response (plain JSON, problem+json or the API's own shape), read
   * tolerantly: {@link #readHttp}'s payload; JSON null when the response is no error. When the
   * payload is retryable and states no delay, the response's ({@code retry-after-ms}, else {@code
   * Retry-After} in seconds or an HTTP-date, against {@code nowMs}) gives it.
   */
  public static JsonNode fromHttp(
      int status, List<Map.Entry<String, String>> headers, String body, long nowMs) {
    return readHttp(status, headers, body, nowMs).payload();
  }

  /** As above, for a body of UTF-8 bytes (invalid UTF-8 is not JSON). */
  public static JsonNode fromHttp(
      int status, List<Map.Entry<String, String>> headers, byte[] body, long nowMs) {
    return readHttp(status, headers, body, nowMs).payload();
  }

  /** As above, for a body already decoded (read as its JSON text). */
  public static JsonNode fromHttp(
      int status, List<Map.Entry<String, String>> headers, JsonNode body, long nowMs) {
    return readHttp(status, headers, Json.write(orNull(body)), nowMs).payload();
  }

  private static Map.Entry<String, String> header(String name, String value) {
    return new SimpleImmutableEntry<>(name, value);
  }

  // MCP.

  /** An MCP tools/call result: isError, the payload as compact JSON text and as structured. */
  public static ObjectNode toMcpResult(ErrorPayload payload) {
    ObjectNode result = Json.NODES.objectNode();
    ObjectNode text = result.putArray("content").addObject();
    text.put("type", "text");
    text.put("text", payload.toString());
    result.set("structuredContent", payload.toJson());
    result.put("isError", true);
    return result;
  }

  /**
   * The raw payload of an MCP tools/call result: structuredContent when it is an object, else the
   * first text content item parsed as JSON; JSON null when there is none.
   */
  public static JsonNode fromMcpResult(JsonNode result) {
    JsonNode value = orNull(result);
    if (!value.isObject()) {
      return Json.NODES.nullNode();
    }
    JsonNode structured = value.get("structuredContent");
    if (structured != null && structured.isObject()) {
      return structured;
    }
    JsonNode content = value.get("content");
    if (content != null && content.isArray()) {
      for (JsonNode item : content) {
        JsonNode type = item.get("type");
        JsonNode text = item.get("text");
        if (item.isObject()
            && type != null
            && "text".equals(type.textValue())
            && text != null
            && text.isTextual()) {
          return Json.read(text.textValue()).orElseGet(Json.NODES::nullNode);
        }
      }
    }
    return Json.NODES.nullNode();
  }

  // Suggestions.

  /** Near misses of {@code value} among {@code allowed}, closest first; see below. */
  public static List<String> didYouMean(String value, Collection<String> allowed) {
    return didYouMean(value, allowed, C.policy.didYouMeanLimit());
  }

  /**
   * Near misses of {@code value} among {@code allowed}, closest first (Levenshtein distance, at
   * most a third of the length). Pass only the values this caller may read (its own tenants, say),
   * never a global list: a suggestion drawn from everything leaks what the caller cannot see.
   */
  public static List<String> didYouMean(String value, Collection<String> allowed, int limit) {
    int[] target = value.codePoints().toArray();
    int budget = Math.max(1, target.length / 3);
    record Scored(int distance, int index, String candidate) {}
    List<Scored> scored = new ArrayList<>();
    int index = 0;
    for (String candidate : allowed) {
      int distance = levenshtein(target, candidate.codePoints().toArray(), budget);
      if (distance <= budget && !candidate.equals(value)) {
        scored.add(new Scored(distance, index, candidate));
      }
      index++;
    }
    scored.sort(Comparator.comparingInt(Scored::distance).thenComparingInt(Scored::index));
    return scored.stream().limit(Math.max(0, limit)).map(Scored::candidate).toList();
  }

  private static int levenshtein(int[] a, int[] b, int budget) {
    if (Math.abs(a.length - b.length) > budget) {
      return budget + 1;
    }
    int[] previous = new int[b.length + 1];
    for (int j = 0; j <= b.length; j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length; i++) {
      int[] current = new int[b.length + 1];
      current[0] = i;
      for (int j = 1; j <= b.length; j++) {
        int substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
        current[j] = Math.min(Math.min(previous[j] + 1, current[j - 1] + 1), substitution);
      }
      previous = current;
    }
    return previous[b.length];
  }

  private static JsonNode orNull(JsonNode node) {
    return node == null ? Json.NODES.nullNode() : node;
  }
}
