package errgen.runtime;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An error payload with a well-formed envelope. {@code code} and {@code category} are kept as the
 * wire says them, so a payload from a newer server survives; {@link #knownCode()} gives the enum. A
 * field the payload may leave out is a null component (so the record says exactly what was on the
 * wire: an absent list is not an empty one) and has an {@code Optional} accessor named after it
 * ({@link #optionalMessage()}, ..., {@link #retryAfter()} as a {@link Duration}). With Jackson it
 * reads and writes the registry's wire names.
 *
 * @param code the error code, as on the wire
 * @param category the class of failure, as on the wire
 * @param retryable whether the identical call may succeed later
 * @param retryAfterMs how long to wait before retrying, or null
 * @param scope what failed: the request, one resource, or the whole service
 * @param resourceId the resource that failed, or null
 * @param correlationId the id a human can trace
 * @param message display-only text, or null
 * @param searched the parameters the server resolved (strings, numbers, booleans), or null
 * @param didYouMean near-miss suggestions, or null
 * @param accepted the values that would have been accepted, or null
 * @param state whether anything was read or written before the failure, or null
 * @param safeToReplay whether replaying with the same idempotency key is safe, or null
 */
public record ErrorPayload(
    String code,
    String category,
    boolean retryable,
    Long retryAfterMs,
    Scope scope,
    String resourceId,
    String correlationId,
    String message,
    Map<String, Object> searched,
    List<String> didYouMean,
    List<String> accepted,
    State state,
    Boolean safeToReplay) {

  private static final Contract C = Contract.INSTANCE;

  /** Checks the required fields and copies the collections. */
  public ErrorPayload {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(category, "category");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(correlationId, "correlationId");
    searched = searched == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(searched));
    didYouMean = didYouMean == null ? null : List.copyOf(didYouMean);
    accepted = accepted == null ? null : List.copyOf(accepted);
  }

  /** The code as this SDK's enum; {@link Code#UNKNOWN_TO_SDK_VERSION} for a newer server's. */
  public Code knownCode() {
    return Code.fromWire(code);
  }

  /** The category as this SDK's enum; {@link Category#UNKNOWN_TO_SDK_VERSION} if unknown. */
  public Category knownCategory() {
    return Category.fromWire(category);
  }

  /** How long the server asks to wait before retrying, when it says. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfterMs).map(Duration::ofMillis);
  }

  /** {@link #retryAfterMs()}, when present. */
  public Optional<Long> optionalRetryAfterMs() {
    return Optional.ofNullable(retryAfterMs);
  }

  /** {@link #resourceId()}, when present. */
  public Optional<String> optionalResourceId() {
    return Optional.ofNullable(resourceId);
  }

  /** {@link #message()}, when present. */
  public Optional<String> optionalMessage() {
    return Optional.ofNullable(message);
  }

  /** {@link #searched()}, when present. */
  public Optional<Map<String, Object>> optionalSearched() {
    return Optional.ofNullable(searched);
  }

  /** {@link #didYouMean()}, when present. */
  public Optional<List<String>> optionalDidYouMean() {
    return Optional.ofNullable(didYouMean);
  }

  /** {@link #accepted()}, when present. */
  public Optional<List<String>> optionalAccepted() {
    return Optional.ofNullable(accepted);
  }

  /** {@link #state()}, when present. */
  public Optional<State> optionalState() {
    return Optional.ofNullable(state);
  }

  /** {@link #safeToReplay()}, when present. */
  public Optional<Boolean> optionalSafeToReplay() {
    return Optional.ofNullable(safeToReplay);
  }

  /**
   * A payload from a JSON tree whose envelope is fine (an unknown code is fine).
   *
   * @throws InvalidPayloadException when the envelope has problems
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static ErrorPayload fromJson(JsonNode raw) {
    List<Problem> problems = new ArrayList<>();
    JsonNode[] values = Verdicts.fields(raw, problems);
    if (!problems.isEmpty()) {
      throw new InvalidPayloadException(problems);
    }
    return of(values);
  }

  /** A payload from the {@link Verdicts#fields} of a payload whose envelope is fine. */
  static ErrorPayload of(JsonNode[] values) {
    JsonNode delay = values[Verdicts.RETRY_AFTER_MS];
    JsonNode state = values[Verdicts.STATE];
    JsonNode replay = values[Verdicts.SAFE_TO_REPLAY];
    return new ErrorPayload(
        text(values[Verdicts.CODE]),
        text(values[Verdicts.CATEGORY]),
        values[Verdicts.RETRYABLE].booleanValue(),
        delay == null ? null : Verdicts.longValue(delay),
        Scope.fromWire(text(values[Verdicts.SCOPE])),
        text(values[Verdicts.RESOURCE_ID]),
        text(values[Verdicts.CORRELATION_ID]),
        text(values[Verdicts.MESSAGE]),
        scalars(values[Verdicts.SEARCHED]),
        strings(values[Verdicts.DID_YOU_MEAN]),
        strings(values[Verdicts.ACCEPTED]),
        state == null ? null : State.fromWire(state.textValue()),
        replay == null ? null : replay.booleanValue());
  }

  /** The payload as a JSON tree with the registry's wire names, absent fields left out. */
  @JsonValue
  public ObjectNode toJson() {
    ObjectNode out = Json.NODES.objectNode();
    for (FieldSpec spec : C.fields) {
      Object value = value(spec.name());
      if (value instanceof List<?> list) {
        ArrayNode items = out.putArray(spec.wire());
        list.forEach(item -> items.add(item.toString()));
      } else if (value instanceof Map<?, ?> map) {
        ObjectNode entries = out.putObject(spec.wire());
        map.forEach((k, v) -> entries.set(k.toString(), Json.node(v)));
      } else if (value instanceof Wire w) {
        out.put(spec.wire(), w.wire());
      } else if (value != null) {
        out.set(spec.wire(), Json.node(value));
      }
    }
    return out;
  }

  /** Compact JSON text with the registry's wire names. */
  @Override
  public String toString() {
    return Json.write(toJson());
  }

  private Object value(String name) {
    return switch (name) {
      case "code" -> code;
      case "category" -> category;
      case "retryable" -> retryable;
      case "retry_after_ms" -> retryAfterMs;
      case "scope" -> scope;
      case "resource_id" -> resourceId;
      case "correlation_id" -> correlationId;
      case "message" -> message;
      case "searched" -> searched;
      case "did_you_mean" -> didYouMean;
      case "accepted" -> accepted;
      case "state" -> state;
      case "safe_to_replay" -> safeToReplay;
      default -> null;
    };
  }

  static String text(JsonNode v) {
    return v == null ? null : v.textValue();
  }

  /** The strings of a list the envelope accepted, or null when absent. */
  static List<String> strings(JsonNode v) {
    if (v == null) {
      return null;
    }
    String[] out = new String[v.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.get(i).textValue();
    }
    return List.of(out);
  }

  /**
   * The plain values of a scalar map the envelope accepted, in order, or null when absent: a view
   * of the JSON object, converted as it is read (the record and {@code Decision} copy it once).
   */
  static Map<String, Object> scalars(JsonNode v) {
    if (v == null) {
      return null;
    }
    return new AbstractMap<>() {
      @Override
      public int size() {
        return v.size();
      }

      @Override
      public Set<Map.Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
          @Override
          public int size() {
            return v.size();
          }

          @Override
          public Iterator<Map.Entry<String, Object>> iterator() {
            Iterator<Map.Entry<String, JsonNode>> members = v.properties().iterator();
            return new Iterator<>() {
              @Override
              public boolean hasNext() {
                return members.hasNext();
              }

              @Override
              public Map.Entry<String, Object> next() {
                Map.Entry<String, JsonNode> e = members.next();
                return new SimpleImmutableEntry<>(e.getKey(), Json.plain(e.getValue()));
              }
            };
          }
        };
      }
    };
  }

  /**
   * A builder for a payload of a known code, with category, retryable and the default scope filled
   * from the recovery table, so a service cannot send a contradictory one.
   */
  public static Builder builder(Code code, String correlationId) {
    return new Builder(code, correlationId);
  }

  /** Builds a payload; {@link #build()} applies the strict verdict. */
  public static final class Builder {
    private final Code code;
    private final String correlationId;
    private Scope scope;
    private Long retryAfterMs;
    private String resourceId;
    private String message;
    private Map<String, Object> searched;
    private List<String> didYouMean;
    private List<String> accepted;
    private State state;
    private Boolean safeToReplay;

    private Builder(Code code, String correlationId) {
      this.code = Objects.requireNonNull(code, "code");
      this.correlationId = Objects.requireNonNull(correlationId, "correlationId");
    }

    /** The scope, when not the code's default. */
    public Builder scope(Scope value) {
      scope = value;
      return this;
    }

    /** A delay other than the registry's. */
    public Builder retryAfterMs(long value) {
      retryAfterMs = value;
      return this;
    }

    /** The resource that failed (required with scope resource). */
    public Builder resourceId(String value) {
      resourceId = value;
      return this;
    }

    /** Display-only text. */
    public Builder message(String value) {
      message = value;
      return this;
    }

    /** The parameters the server resolved: strings, numbers or booleans. */
    public Builder searched(Map<String, ?> value) {
      searched = new LinkedHashMap<>(value);
      return this;
    }

    /** Near-miss suggestions; see {@link Errors#didYouMean}. */
    public Builder didYouMean(List<String> value) {
      didYouMean = List.copyOf(value);
      return this;
    }

    /** The values that would have been accepted. */
    public Builder accepted(List<String> value) {
      accepted = List.copyOf(value);
      return this;
    }

    /** Whether anything was read or written before the failure. */
    public Builder state(State value) {
      state = value;
      return this;
    }

    /** Whether replaying with the same idempotency key is safe. */
    public Builder safeToReplay(boolean value) {
      safeToReplay = value;
      return this;
    }

    /**
     * The payload.
     *
     * @throws InvalidPayloadException when the code is unknown or the payload breaks the contract
     */
    public ErrorPayload build() {
      RecoveryEntry entry =
          RecoveryTable.entry(code.wire() == null ? "" : code.wire()).orElse(null);
      if (entry == null) {
        throw new InvalidPayloadException(
            List.of(
                new Problem(ProblemId.UNKNOWN_CODE, "code " + code + " is not in the registry")));
      }
      ErrorPayload payload =
          new ErrorPayload(
              entry.code(),
              entry.category(),
              entry.retryable(),
              retryAfterMs,
              scope == null ? entry.scope() : scope,
              resourceId,
              correlationId,
              message,
              searched,
              didYouMean,
              accepted,
              state,
              safeToReplay);
      List<Problem> problems = Verdicts.all(payload.toJson());
      if (!problems.isEmpty()) {
        throw new InvalidPayloadException(problems);
      }
      return payload;
    }
  }
}
