package errgen.runtime;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What to do about one error, from {@link Errors#decide}.
 *
 * @param action retry, pause, skip, fix, stop or escalate
 * @param reason which rule decided
 * @param code the payload's code, or null for an invalid payload
 * @param wireCode the code as the API sends it: a registry code's wire code when several codes
 *     share one (OpenAI's {@code rate_limit_exceeded} for its tokens and requests variants), else
 *     the code itself; null when the code is
 * @param delayMs how long to wait before a retry or after a pause, or null
 * @param correlationId the id to quote on an escalation, or null
 * @param resourceId the resource to skip, or null
 * @param didYouMean suggestions to build the next call from
 * @param accepted the values the server would accept
 * @param searched the parameters the server resolved
 */
public record Decision(
    Action action,
    Reason reason,
    String code,
    String wireCode,
    Long delayMs,
    String correlationId,
    String resourceId,
    List<String> didYouMean,
    List<String> accepted,
    Map<String, Object> searched) {

  /** Copies the collections. */
  public Decision {
    didYouMean = List.copyOf(didYouMean);
    accepted = List.copyOf(accepted);
    searched =
        searched.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(searched));
  }

  /**
   * The decision as before {@code wireCode} existed: its wire code derived from {@code code} (the
   * registry row's wire code for a known code, else the code itself).
   */
  public Decision(
      Action action,
      Reason reason,
      String code,
      Long delayMs,
      String correlationId,
      String resourceId,
      List<String> didYouMean,
      List<String> accepted,
      Map<String, Object> searched) {
    this(
        action,
        reason,
        code,
        wireCodeOf(code),
        delayMs,
        correlationId,
        resourceId,
        didYouMean,
        accepted,
        searched);
  }

  /** The code as the API sends it: its registry row's wire code, else itself; null for null. */
  static String wireCodeOf(String code) {
    return code == null ? null : Reading.WIRE_CODE.getOrDefault(code, code);
  }

  /** The code as the API sends it, when there is a code. */
  public Optional<String> optionalWireCode() {
    return Optional.ofNullable(wireCode);
  }

  /** How long to wait before a retry or after a pause, when the action waits. */
  public Optional<Duration> delay() {
    return delayMs == null ? Optional.empty() : Optional.of(Duration.ofMillis(delayMs));
  }

  /** The code, when there is one (none for an invalid payload or a response without one). */
  public Optional<String> optionalCode() {
    return Optional.ofNullable(code);
  }

  /** The delay in milliseconds, when the action waits; {@link #delay()} as a {@code Duration}. */
  public Optional<Long> optionalDelayMs() {
    return Optional.ofNullable(delayMs);
  }

  /** The id to quote on an escalation, when the payload gave one. */
  public Optional<String> optionalCorrelationId() {
    return Optional.ofNullable(correlationId);
  }

  /** The resource to skip, when the payload names one. */
  public Optional<String> optionalResourceId() {
    return Optional.ofNullable(resourceId);
  }

  /**
   * As {@link #optionalCorrelationId()}.
   *
   * @deprecated the accessor of a component that may be null is {@code optional} + its name
   */
  @Deprecated
  public Optional<String> correlation() {
    return optionalCorrelationId();
  }

  /**
   * As {@link #optionalResourceId()}.
   *
   * @deprecated the accessor of a component that may be null is {@code optional} + its name
   */
  @Deprecated
  public Optional<String> resource() {
    return optionalResourceId();
  }

  /** The decision with the wire names every errgen SDK prints. */
  public Map<String, Object> toMap() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("action", action.wire());
    out.put("reason", reason.wire());
    out.put("code", code);
    out.put("wire_code", wireCode);
    out.put("delay_ms", delayMs);
    out.put("correlation_id", correlationId);
    out.put("resource_id", resourceId);
    out.put("did_you_mean", didYouMean);
    out.put("accepted", accepted);
    out.put("searched", searched);
    return out;
  }
}
