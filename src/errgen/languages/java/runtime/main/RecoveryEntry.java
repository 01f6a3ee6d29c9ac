package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One row of the recovery table: what the registry says about a code, and the action a caller takes
 * for each scope the code may carry.
 *
 * @param code the code's wire value
 * @param category its category
 * @param retryable whether the identical call may succeed later
 * @param scope the default scope, used by {@link ErrorPayload#builder}
 * @param scopes every scope the code may carry
 * @param actions the action for each allowed scope
 * @param retryAfterMs the registry's default delay, or null
 * @param httpStatus the HTTP status a service answers with
 * @param hints the hint fields the code may carry, by canonical name
 * @param description what the code means, for people
 * @param typeUri the RFC 9457 problem type
 * @param deprecatedSince the version that deprecated the code, or null
 * @param replacedBy the code that replaces it, or null
 */
public record RecoveryEntry(
    String code,
    String category,
    boolean retryable,
    Scope scope,
    List<Scope> scopes,
    Map<Scope, Action> actions,
    Long retryAfterMs,
    int httpStatus,
    List<String> hints,
    String description,
    String typeUri,
    String deprecatedSince,
    String replacedBy) {

  static RecoveryEntry of(JsonNode c) {
    List<Scope> scopes = new ArrayList<>();
    c.get("scopes").forEach(s -> scopes.add(Scope.fromWire(s.asText())));
    Map<Scope, Action> actions = new EnumMap<>(Scope.class);
    c.get("actions")
        .properties()
        .forEach(
            e -> actions.put(Scope.fromWire(e.getKey()), Action.fromWire(e.getValue().asText())));
    List<String> hints = new ArrayList<>();
    c.get("hints").forEach(h -> hints.add(h.asText()));
    JsonNode deprecated = c.get("deprecated");
    return new RecoveryEntry(
        c.get("code").asText(),
        c.get("category").asText(),
        c.get("retryable").asBoolean(),
        Scope.fromWire(c.get("scope").asText()),
        List.copyOf(scopes),
        Collections.unmodifiableMap(actions),
        c.get("retry_after_ms").isNull() ? null : c.get("retry_after_ms").asLong(),
        c.get("http_status").asInt(),
        List.copyOf(hints),
        c.get("description").asText(),
        c.get("type_uri").asText(),
        deprecated.isNull() ? null : deprecated.get("since").asText(),
        deprecated.isNull() || deprecated.get("replaced_by").isNull()
            ? null
            : deprecated.get("replaced_by").asText());
  }

  /** The code as this SDK's enum. */
  public Code knownCode() {
    return Code.fromWire(code);
  }
}
