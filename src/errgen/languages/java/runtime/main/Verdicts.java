package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The strict verdict on a raw payload, driven by the field specs of the contract: the same verdicts
 * as the registry's JSON Schema. Envelope problems are those any payload can have whatever its
 * code; registry problems compare a well-formed payload with the registry.
 */
final class Verdicts {
  private static final Contract C = Contract.INSTANCE;

  private Verdicts() {}

  // The position, in the values a walk of a payload returns, of each field a rule of the runtime
  // reads by name; ErrorPayload (rendered from the contract view) reads every field by position.
  static final int CODE = C.index("code");
  static final int CATEGORY = C.index("category");
  static final int RETRYABLE = C.index("retryable");
  static final int RETRY_AFTER_MS = C.index("retry_after_ms");
  static final int SCOPE = C.index("scope");
  static final int RESOURCE_ID = C.index("resource_id");
  static final int CORRELATION_ID = C.index("correlation_id");
  static final int SEARCHED = C.index("searched");
  static final int DID_YOU_MEAN = C.index("did_you_mean");
  static final int ACCEPTED = C.index("accepted");

  static List<Problem> envelope(JsonNode raw) {
    List<Problem> problems = new ArrayList<>();
    fields(raw, problems);
    return problems;
  }

  /**
   * One walk of a payload: each contract field's value by its position in {@link Contract#fields}
   * (null when absent), with the envelope problems added to {@code problems}; null when the payload
   * is not an object. Every later verdict reads these values instead of walking again.
   */
  static JsonNode[] fields(JsonNode raw, List<Problem> problems) {
    if (raw == null || !raw.isObject()) {
      problems.add(new Problem(ProblemId.NOT_AN_OBJECT, "the payload must be a JSON object"));
      return null;
    }
    JsonNode[] values = new JsonNode[C.fields.size()];
    for (Map.Entry<String, JsonNode> e : raw.properties()) {
      Integer at = C.indexByWire.get(e.getKey());
      if (at == null) {
        problems.add(
            new Problem(
                ProblemId.EXTRA_FIELD, "field " + quote(e.getKey()) + " is not in the contract"));
        continue;
      }
      FieldSpec spec = C.fields.get(at);
      values[at] = e.getValue();
      if (!hasType(spec, e.getValue())) {
        problems.add(
            new Problem(
                ProblemId.WRONG_TYPE,
                "field " + quote(spec.wire()) + " must be " + expected(spec)));
      }
    }
    for (int i = 0; i < values.length; i++) {
      FieldSpec spec = C.fields.get(i);
      if (spec.required() && values[i] == null) {
        problems.add(
            new Problem(
                ProblemId.MISSING_FIELD, "required field " + quote(spec.wire()) + " is missing"));
      }
    }
    JsonNode scope = values[SCOPE];
    if (scope != null
        && Scope.RESOURCE.wire().equals(scope.textValue())
        && values[RESOURCE_ID] == null) {
      problems.add(
          new Problem(
              ProblemId.RESOURCE_ID_MISSING,
              "scope is "
                  + Scope.RESOURCE.wire()
                  + ", so "
                  + C.wire("resource_id")
                  + " is required"));
    }
    return values;
  }

  /** The registry's row for the code of a payload whose envelope is fine, or null. */
  static RecoveryEntry entry(JsonNode[] values) {
    return C.codes.get(values[CODE].textValue());
  }

  /**
   * Registry problems of a payload whose envelope is fine, from its {@link #fields} and its code's
   * {@link #entry}.
   */
  static List<Problem> registry(JsonNode[] values, RecoveryEntry entry) {
    List<Problem> problems = new ArrayList<>();
    String code = values[CODE].textValue();
    String category = values[CATEGORY].textValue();
    if (!C.categories.contains(category)) {
      problems.add(
          new Problem(
              ProblemId.UNKNOWN_CATEGORY,
              "category " + quote(category) + " is not in the registry"));
    }
    if (entry == null) {
      problems.add(
          new Problem(
              ProblemId.UNKNOWN_CODE, "code " + quote(code) + " is not in registry " + C.registry));
      return problems;
    }
    if (!entry.category().equals(category)) {
      problems.add(
          new Problem(
              ProblemId.CATEGORY_MISMATCH,
              code + " has category " + entry.category() + ", not " + quote(category)));
    }
    boolean retryable = values[RETRYABLE].booleanValue();
    if (retryable != entry.retryable()) {
      problems.add(
          new Problem(ProblemId.RETRYABLE_MISMATCH, code + " has retryable " + entry.retryable()));
    }
    Scope scope = Scope.fromWire(values[SCOPE].textValue());
    if (!entry.scopes().contains(scope)) {
      problems.add(
          new Problem(ProblemId.SCOPE_NOT_ALLOWED, code + " may not carry scope " + scope.wire()));
    }
    if (values[RETRY_AFTER_MS] != null && !entry.retryable()) {
      problems.add(
          new Problem(
              ProblemId.RETRY_AFTER_NOT_RETRYABLE,
              code + " is not retryable, so it has no " + C.wire("retry_after_ms")));
    }
    for (int i = 0; i < values.length; i++) {
      FieldSpec spec = C.fields.get(i);
      if (spec.hint() && values[i] != null && !entry.hints().contains(spec.name())) {
        problems.add(
            new Problem(
                ProblemId.HINT_NOT_ALLOWED,
                code + " does not carry the hint " + quote(spec.wire())));
      }
    }
    return problems;
  }

  static List<Problem> all(JsonNode raw) {
    List<Problem> problems = new ArrayList<>();
    JsonNode[] values = fields(raw, problems);
    if (problems.isEmpty()) {
      problems.addAll(registry(values, entry(values)));
    }
    return problems;
  }

  /**
   * Whether the code and category are the registry's (the payload's envelope being fine; {@code
   * entry} its code's {@link #entry}).
   */
  static boolean known(JsonNode[] values, RecoveryEntry entry) {
    return entry != null && C.categories.contains(values[CATEGORY].textValue());
  }

  /** A non-retryable payload asking for a delay contradicts itself, whatever its code. */
  static boolean delayWithoutRetry(JsonNode[] values) {
    return !values[RETRYABLE].booleanValue() && values[RETRY_AFTER_MS] != null;
  }

  private static boolean hasType(FieldSpec spec, JsonNode v) {
    return switch (spec.type()) {
      case "string" -> v.isTextual();
      case "boolean" -> v.isBoolean();
      case "integer" -> integral(v, spec.minimum(), spec.maximum());
      case "enum" -> v.isTextual() && spec.values().contains(v.textValue());
      case "string_list" ->
          stringList(v) && (spec.maxItems() == null || v.size() <= spec.maxItems());
      case "scalar_map" -> scalarMap(v);
      default -> false;
    };
  }

  /** A JSON number with an integral value (2.0 counts, as in JSON Schema) within bounds. */
  static boolean integral(JsonNode v, Long minimum, Long maximum) {
    if (v.isInt() || v.isLong()) {
      long value = v.longValue();
      return (minimum == null || value >= minimum) && (maximum == null || value <= maximum);
    }
    BigInteger value = integralValue(v);
    return value != null
        && (minimum == null || value.compareTo(BigInteger.valueOf(minimum)) >= 0)
        && (maximum == null || value.compareTo(BigInteger.valueOf(maximum)) <= 0);
  }

  /** The value of a number {@link #integral} accepted within a long's range. */
  static long longValue(JsonNode v) {
    return v.isInt() || v.isLong() ? v.longValue() : integralValue(v).longValueExact();
  }

  static BigInteger integralValue(JsonNode v) {
    if (v.isIntegralNumber()) {
      return v.bigIntegerValue();
    }
    if (v.isNumber()) {
      double d = v.doubleValue();
      if (Double.isFinite(d) && d == Math.rint(d)) {
        return new BigDecimal(d).toBigInteger();
      }
    }
    return null;
  }

  private static boolean stringList(JsonNode v) {
    if (!v.isArray()) {
      return false;
    }
    for (JsonNode item : v) {
      if (!item.isTextual()) {
        return false;
      }
    }
    return true;
  }

  private static boolean scalarMap(JsonNode v) {
    if (!v.isObject()) {
      return false;
    }
    for (JsonNode item : v) {
      if (!(item.isTextual() || item.isNumber() || item.isBoolean())) {
        return false;
      }
    }
    return true;
  }

  private static String expected(FieldSpec spec) {
    return switch (spec.type()) {
      case "string" -> "a string";
      case "boolean" -> "a boolean";
      case "integer" -> "an integer from " + spec.minimum() + " to " + spec.maximum();
      case "enum" -> "one of " + String.join(", ", spec.values());
      case "string_list" ->
          spec.maxItems() == null
              ? "a list of strings"
              : "a list of at most " + spec.maxItems() + " strings";
      default -> "an object of strings, numbers or booleans";
    };
  }

  private static String quote(String s) {
    return Json.write(s);
  }
}
