package errgen.runtime;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Runs a conformance vectors file: {@code check FILE} compares each vector with its expectations
 * and ends with {@code N passed, N failed}; {@code emit FILE} prints what this SDK makes of each
 * vector's input, one compact JSON line each, to compare with any other errgen SDK.
 */
public final class ConformanceRunner {
  private static final List<String> OUTCOMES =
      List.of(
          "reading",
          "valid",
          "problems",
          "parsed",
          "decision",
          "payload",
          "http",
          "http_problem",
          "mcp",
          "suggestions");
  // The input kinds of writing.json (docs/conformance.md, "The writing vectors").
  private static final List<String> WRITING =
      List.of("new_error", "parse", "to_http", "did_you_mean");
  // The vectors file itself may nest payloads deeper than the SDK accepts from a body.
  private static final ObjectMapper FILE_READER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(Integer.MAX_VALUE)
                          .maxNumberLength(Integer.MAX_VALUE)
                          .maxStringLength(Integer.MAX_VALUE)
                          .build())
                  .build())
          .build();

  private ConformanceRunner() {}

  /** Exit 0 when nothing failed, 1 when something did, 2 when the file could not be read. */
  public static void main(String[] args) {
    PrintStream out =
        new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    if (args.length != 2 || !List.of("check", "emit").contains(args[0])) {
      System.err.println("usage: ConformanceRunner check|emit VECTORS.json");
      System.exit(2);
    }
    List<JsonNode> vectors;
    try {
      vectors = vectors(Path.of(args[1]));
    } catch (IOException | RuntimeException e) {
      System.err.println(args[1] + ": cannot read the vectors: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (args[0].equals("emit")) {
      vectors.forEach(v -> out.println(Json.write(emitted(v))));
      out.flush();
      return;
    }
    int failed = 0;
    for (JsonNode vector : vectors) {
      List<String> failures = failures(vector);
      failures.forEach(out::println);
      failed += failures.isEmpty() ? 0 : 1;
    }
    out.println((vectors.size() - failed) + " passed, " + failed + " failed");
    out.flush();
    System.exit(failed == 0 ? 0 : 1);
  }

  /** The vectors of a file. */
  public static List<JsonNode> vectors(Path file) throws IOException {
    JsonNode document = FILE_READER.readTree(Files.readAllBytes(file));
    List<JsonNode> vectors = new ArrayList<>();
    document.get("vectors").forEach(vectors::add);
    return vectors;
  }

  /** What this SDK makes of a vector: name, valid, problems, parsed and decision. */
  public static Map<String, Object> outcome(JsonNode vector) {
    Policy policy = RecoveryTable.policy();
    JsonNode input = vector.has("input") ? vector.get("input") : vector;
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", vector.get("name").asText());
    if (WRITING.stream().anyMatch(input::has)) {
      sorted(writing(input)).properties().forEach(e -> out.put(e.getKey(), e.getValue()));
      return out;
    }
    JsonNode draw = vector.get("jitter_draw");
    long attempt = number(vector, "attempt", 1);
    long maxAttempts = number(vector, "max_attempts", policy.defaultMaxAttempts());
    long maxDelayMs = number(vector, "max_delay_ms", policy.defaultMaxDelayMs());
    Random jitter = draw != null && draw.isNumber() ? new Drawn(draw.doubleValue()) : null;
    if (input.has("transport")) {
      JsonNode failure = input.get("transport");
      Decision decision =
          Errors.decideFailure(
              failure.get("failure").asText(),
              failure.get("idempotent").asBoolean(),
              attempt,
              maxAttempts,
              maxDelayMs,
              jitter);
      out.put("decision", decision.toMap());
      return out;
    }
    HttpReading reading = reading(input, number(vector, "now_ms", 0));
    JsonNode raw = reading != null ? reading.payload() : raw(vector);
    List<Problem> problems = Errors.validate(raw);
    TreeSet<String> ids = new TreeSet<>();
    problems.forEach(p -> ids.add(p.id().wire()));
    // A response is decided as a client decides it: by its payload, else by its status.
    Decision decision =
        reading != null
            ? Errors.decideResponse(reading, attempt, maxAttempts, maxDelayMs, jitter)
            : Errors.decide(raw, attempt, maxAttempts, maxDelayMs, jitter);
    if (input.has("response")) {
      Map<String, Object> read = new LinkedHashMap<>();
      read.put("error", reading.error());
      read.put("code", reading.code());
      read.put("correlation_id", reading.correlationId());
      read.put("delay_ms", reading.delayMs());
      out.put("reading", read);
    }
    out.put("valid", problems.isEmpty());
    out.put("problems", new ArrayList<>(ids));
    out.put("parsed", Errors.parse(raw).verdict().wire());
    out.put("decision", decision.toMap());
    return out;
  }

  /** The emit line of a vector; a vector the runner cannot read says why instead. */
  public static Map<String, Object> emitted(JsonNode vector) {
    try {
      return outcome(vector);
    } catch (RuntimeException e) {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("name", vector.get("name"));
      out.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
      return out;
    }
  }

  /** One line per expectation the SDK misses; empty when the vector passes. */
  public static List<String> failures(JsonNode vector) {
    String name = vector.has("name") ? vector.get("name").asText() : "?";
    JsonNode actual;
    try {
      actual = Json.read(Json.write(outcome(vector))).orElseThrow();
    } catch (RuntimeException e) {
      return List.of(
          "FAIL " + name + ": raised " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    JsonNode expected = vector.get("expected");
    List<String> failures = new ArrayList<>();
    for (String key : OUTCOMES) {
      if (expected != null
          && expected.has(key)
          && !normalized(key, expected.get(key)).equals(NUMERIC, actual.get(key))) {
        failures.add(
            "FAIL "
                + name
                + ": "
                + key
                + ": expected "
                + Json.write(expected.get(key))
                + ", got "
                + Json.write(actual.get(key)));
      }
    }
    return failures;
  }

  // Expected problems compare as a set, as the runner prints them: sorted, each once.
  private static JsonNode normalized(String key, JsonNode value) {
    if (!key.equals("problems") || !value.isArray()) {
      return value;
    }
    TreeSet<String> ids = new TreeSet<>();
    for (JsonNode id : value) {
      if (!id.isTextual()) {
        return value;
      }
      ids.add(id.textValue());
    }
    return Json.read(Json.write(new ArrayList<>(ids))).orElseThrow();
  }

  /** The reading of an {@code http} or {@code response} input; null for the other kinds. */
  private static HttpReading reading(JsonNode input, long now) {
    if (input.has("response")) {
      return response(input.get("response"), now);
    }
    return input.has("http") ? http(input.get("http"), now) : null;
  }

  private static JsonNode raw(JsonNode vector) {
    JsonNode input = vector.has("input") ? vector.get("input") : vector;
    if (input.has("mcp")) {
      return Errors.fromMcpResult(input.get("mcp"));
    }
    return input.get("payload");
  }

  /** An {@code http} input: status, header pairs and body (anything but text is empty). */
  private static HttpReading http(JsonNode http, long now) {
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    JsonNode pairs = http.get("headers");
    if (pairs != null) {
      pairs.forEach(
          h -> headers.add(new SimpleImmutableEntry<>(h.get(0).asText(), h.get(1).asText())));
    }
    JsonNode status = http.get("status");
    // A status that is not an integer counts as 0, as in every SDK.
    int code = status != null && status.isInt() ? status.intValue() : 0;
    JsonNode body = http.get("body");
    return Reading.read(
        code, headers, body != null && body.isTextual() ? body.textValue() : null, now);
  }

  /** A {@code response} input (responses.json): as {@code http}, after {@code body_pad} spaces. */
  private static HttpReading response(JsonNode given, long now) {
    JsonNode pad = given.get("body_pad");
    JsonNode body = given.get("body");
    if (pad == null || body == null || !body.isTextual()) {
      return http(given, now);
    }
    ObjectNode padded = given.deepCopy();
    padded.put("body", " ".repeat(pad.asInt()) + body.textValue());
    return http(padded, now);
  }

  private static long number(JsonNode vector, String key, long fallback) {
    JsonNode v = vector.get(key);
    return v == null || v.isNull() ? fallback : v.asLong();
  }

  /** A jitter source whose every draw is the vector's. */
  private static final class Drawn extends Random {
    private static final long serialVersionUID = 1L;
    private final double draw;

    Drawn(double draw) {
      this.draw = draw;
    }

    @Override
    public double nextDouble() {
      return draw;
    }
  }

  // ---- the writing vectors (writing.json) ----

  /**
   * What the writing functions make of a writing input: newError's payload and what is written of
   * it, the tolerant parse's payload as wire data, toHttp's and toMcpResult's of a given payload,
   * or didYouMean's suggestions.
   */
  private static ObjectNode writing(JsonNode input) {
    ObjectNode out = Json.NODES.objectNode();
    if (input.has("new_error")) {
      JsonNode spec = input.get("new_error");
      UnaryOperator<ErrorPayload.Builder> fill = builder -> filled(builder, spec);
      ErrorPayload payload;
      try {
        payload =
            Errors.newError(
                Code.fromWire(spec.get("code").asText()),
                spec.get("correlation_id").asText(),
                fill);
      } catch (InvalidPayloadException e) {
        List.of("payload", "http", "http_problem", "mcp").forEach(out::putNull);
        return out;
      }
      out.set("payload", payload.toJson());
      return written(out, payload);
    }
    if (input.has("parse")) {
      Parsed parsed = Errors.parse(input.get("parse"));
      out.set("payload", parsed.ok() ? parsed.payload().toJson() : Json.NODES.nullNode());
      return out;
    }
    if (input.has("to_http")) {
      return written(out, ErrorPayload.fromJson(input.get("to_http")));
    }
    JsonNode spec = input.get("did_you_mean");
    List<String> allowed = new ArrayList<>();
    spec.get("allowed").forEach(item -> allowed.add(item.asText()));
    String value = spec.get("value").asText();
    List<String> suggestions =
        spec.has("limit")
            ? Errors.didYouMean(value, allowed, spec.get("limit").asInt())
            : Errors.didYouMean(value, allowed);
    ArrayNode list = out.putArray("suggestions");
    suggestions.forEach(list::add);
    return out;
  }

  /** The builder with a new_error input's scope and fields (by canonical name) set. */
  private static ErrorPayload.Builder filled(ErrorPayload.Builder builder, JsonNode spec) {
    if (spec.has("scope")) {
      builder.scope(Scope.fromWire(spec.get("scope").asText()));
    }
    JsonNode fields = spec.has("fields") ? spec.get("fields") : Json.NODES.objectNode();
    for (Map.Entry<String, JsonNode> field : fields.properties()) {
      builder.set(field.getKey(), field.getValue());
    }
    return builder;
  }

  /** Both HTTP forms and the MCP result of a payload, added to {@code out}. */
  private static ObjectNode written(ObjectNode out, ErrorPayload payload) {
    out.set("http", httpJson(Errors.toHttp(payload, false)));
    out.set("http_problem", httpJson(Errors.toHttp(payload, true)));
    ObjectNode result = Errors.toMcpResult(payload);
    ArrayNode content = Json.NODES.arrayNode();
    for (JsonNode item : result.get("content")) {
      ObjectNode parsed = Json.NODES.objectNode();
      parsed.set("type", item.get("type"));
      parsed.set("json", Json.read(item.get("text").asText()).orElse(Json.NODES.nullNode()));
      content.add(parsed);
    }
    ObjectNode mcp = Json.NODES.objectNode();
    mcp.set("content", content);
    mcp.set("structuredContent", result.get("structuredContent"));
    mcp.set("isError", result.get("isError"));
    out.set("mcp", mcp);
    return out;
  }

  /** A written response: header names in lower case, sorted; the body parsed. */
  private static ObjectNode httpJson(HttpMessage response) {
    List<List<String>> headers = new ArrayList<>();
    response
        .headers()
        .forEach(h -> headers.add(List.of(h.getKey().toLowerCase(Locale.ROOT), h.getValue())));
    headers.sort(Comparator.comparing((List<String> h) -> h.get(0)).thenComparing(h -> h.get(1)));
    ObjectNode out = Json.NODES.objectNode();
    out.put("status", response.status());
    ArrayNode pairs = out.putArray("headers");
    headers.forEach(h -> pairs.addArray().add(h.get(0)).add(h.get(1)));
    // An XML API's body is compared as text.
    out.set("body", Json.read(response.body()).orElse(Json.NODES.textNode(response.body())));
    return out;
  }

  /** A tree with every object's keys sorted: the SDKs need not agree on key order. */
  private static ObjectNode sorted(ObjectNode node) {
    return (ObjectNode) sortedNode(node);
  }

  private static JsonNode sortedNode(JsonNode node) {
    if (node.isObject()) {
      TreeMap<String, JsonNode> keys = new TreeMap<>();
      node.properties().forEach(e -> keys.put(e.getKey(), sortedNode(e.getValue())));
      ObjectNode out = Json.NODES.objectNode();
      keys.forEach(out::set);
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = Json.NODES.arrayNode();
      node.forEach(item -> out.add(sortedNode(item)));
      return out;
    }
    return node;
  }

  // JSON data equality: 2 equals 2.0.
  private static final Comparator<JsonNode> NUMERIC =
      (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
          return new BigDecimal(a.asText()).compareTo(new BigDecimal(b.asText()));
        }
        return a.equals(b) ? 0 : 1;
      };
}
