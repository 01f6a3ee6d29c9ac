package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * What {@link Errors#readHttp} found in a response, as docs/conformance.md ("Reading a real
 * response") specifies.
 *
 * @param error whether the response is an error (a status of 300 or more, or an {@code error_when}
 *     condition of the registry)
 * @param payload the raw payload {@link Errors#fromHttp} returns (judge it with {@link
 *     Errors#parse} or {@link Errors#decide}); JSON null when the response is no error
 * @param code the code the registry's sources yield, or null
 * @param correlationId the request id the registry's sources yield, or null
 * @param delayMs the delay the registry's sources yield, in milliseconds, or null
 * @param document the whole parsed body (JSON, or XML as nested objects), or null when unreadable:
 *     the API's own fields, kept for the caller
 * @param status the HTTP status the response was read with
 * @param claimed whether the body claims to be the API's error shape (a code was read, or a JSON
 *     object holds where the code would be): {@link Errors#decideResponse} then decides its
 *     payload, and otherwise its status
 * @param fallbackDelayMs the delay a response that claims no payload asks for (the registry's delay
 *     sources, else {@code retry-after-ms} or {@code Retry-After}), or null
 */
public record HttpReading(
    boolean error,
    JsonNode payload,
    String code,
    String correlationId,
    Long delayMs,
    JsonNode document,
    int status,
    boolean claimed,
    Long fallbackDelayMs) {

  /**
   * A reading of a body that claims the API's error shape, with no status (0): as this record was
   * before it carried the status.
   */
  public HttpReading(
      boolean error,
      JsonNode payload,
      String code,
      String correlationId,
      Long delayMs,
      JsonNode document) {
    this(error, payload, code, correlationId, delayMs, document, 0, true, null);
  }

  /** The code read, when a source yields one. */
  public Optional<String> optionalCode() {
    return Optional.ofNullable(code);
  }

  /** The request id read, when a source yields one. */
  public Optional<String> optionalCorrelationId() {
    return Optional.ofNullable(correlationId);
  }

  /** The delay read, when a source yields one. */
  public Optional<Long> optionalDelayMs() {
    return Optional.ofNullable(delayMs);
  }

  /** The parsed body, when it reads as JSON or flat XML. */
  public Optional<JsonNode> optionalDocument() {
    return Optional.ofNullable(document);
  }

  /** The delay a response without a payload asks for, when it names one. */
  public Optional<Long> optionalFallbackDelayMs() {
    return Optional.ofNullable(fallbackDelayMs);
  }

  /**
   * As {@link #optionalCode()}.
   *
   * @deprecated the accessor of a component that may be null is {@code optional} + its name
   */
  @Deprecated
  public Optional<String> codeRead() {
    return optionalCode();
  }

  /**
   * As {@link #optionalCorrelationId()}.
   *
   * @deprecated the accessor of a component that may be null is {@code optional} + its name
   */
  @Deprecated
  public Optional<String> correlationIdRead() {
    return optionalCorrelationId();
  }

  /**
   * As {@link #optionalDelayMs()}.
   *
   * @deprecated the accessor of a component that may be null is {@code optional} + its name
   */
  @Deprecated
  public Optional<Long> delayRead() {
    return optionalDelayMs();
  }

  /**
   * As {@link #optionalDocument()}.
   *
   * @deprecated the accessor of a component that may be null is {@code optional} + its name
   */
  @Deprecated
  public Optional<JsonNode> documentRead() {
    return optionalDocument();
  }
}
