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

  static List<Problem> envelope(JsonNode raw) {
    List<Problem> problems = new ArrayList<>();
    if (raw == null || !raw.isObject()) {
      problems.add(new Problem(ProblemId.NOT_AN_OBJECT, "the payload must be a JSON object"));
      return problems;
    }
    for (Map.Entry<String, JsonNode> e : raw.properties()) {
      FieldSpec spec = C.byWire.get(e.getKey());
      if (spec == null) {
        problems.add(
            new Problem(
                ProblemId.EXTRA_FIELD, "field " + quote(e.getKey()) + " is not in the contract"));
      } else if (!hasType(spec, e.getValue())) {
        problems.add(
            new Problem(
                ProblemId.WRONG_TYPE,
                "field " + quote(spec.wire()) + " must be " + expected(spec)));
      }
    }
    for (FieldSpec spec : C.fields) {
      if (spec.required() && !raw.has(spec.wire())) {
        problems.add(
            new Problem(
                ProblemId.MISSING_FIELD, "required field " + quote(spec.wire()) + " is missing"));
      }
    }
    JsonNode scope = raw.get(C.wire("scope"));
    if (scope != null
        && Scope.RESOURCE.wire().equals(scope.textValue())
        && !raw.has(C.wire("resource_id"))) {
      problems.add(
          new Problem(
              ProblemId.RESOURCE_ID_MISSING,
              "scope is "
                  + Scope.RESOURCE.wire()
                  + ", so "
                  + C.wire("resource_id")
                  + " is required"));
    }
    return problems;
  }

  /** Registry problems of a payload whose envelope is fine. */
  static List<Problem> registry(JsonNode raw) {
    List<Problem> problems = new ArrayList<>();
    String code = raw.get(C.wire("code")).textValue();
    String category = raw.get(C.wire("category")).textValue();
    if (!C.categories.contains(category)) {
      problems.add(
          new Problem(
              ProblemId.UNKNOWN_CATEGORY,
              "category " + quote(category) + " is not in the registry"));
    }
    RecoveryEntry entry = C.codes.get(code);
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
    boolean retryable = raw.get(C.wire("retryable")).booleanValue();
    if (retryable != entry.retryable()) {
      problems.add(
          new Problem(ProblemId.RETRYABLE_MISMATCH, code + " has retryable " + entry.retryable()));
    }
    Scope scope = Scope.fromWire(raw.get(C.wire("scope")).textValue());
    if (!entry.scopes().contains(scope)) {
      problems.add(
          new Problem(ProblemId.SCOPE_NOT_ALLOWED, code + " may not carry scope " + scope.wire()));
    }
    if (raw.has(C.wire("retry_after_ms")) && !entry.retryable()) {
      problems.add(
          new Problem(
              ProblemId.RETRY_AFTER_NOT_RETRYABLE,
              code + " is not retryable, so it has no " + C.wire("retry_after_ms")));
    }
    for (FieldSpec spec : C.fields) {
      if (spec.hint() && raw.has(spec.wire()) && !entry.hints().contains(spec.name())) {
        problems.add(
            new Problem(
                ProblemId.HINT_NOT_ALLOWED,
                code + " does not carry the hint " + quote(spec.wire())));
      }
    }
    return problems;
  }

  static List<Problem> all(JsonNode raw) {
    List<Problem> problems = envelope(raw);
    if (problems.isEmpty()) {
      problems.addAll(registry(raw));
    }
    return problems;
  }

  /** Whether the code and category are the registry's (the payload's envelope being fine). */
  static boolean known(JsonNode raw) {
    return C.codes.containsKey(raw.get(C.wire("code")).textValue())
        && C.categories.contains(raw.get(C.wire("category")).textValue());
  }

  /** A non-retryable payload asking for a delay contradicts itself, whatever its code. */
  static boolean delayWithoutRetry(JsonNode raw) {
    return !raw.get(C.wire("retryable")).booleanValue() && raw.has(C.wire("retry_after_ms"));
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
    BigInteger value = integralValue(v);
    return value != null
        && (minimum == null || value.compareTo(BigInteger.valueOf(minimum)) >= 0)
        && (maximum == null || value.compareTo(BigInteger.valueOf(maximum)) <= 0);
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
