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
 */
public record HttpReading(
    boolean error,
    JsonNode payload,
    String code,
    String correlationId,
    Long delayMs,
    JsonNode document) {

  /** The code read, when a source yields one. */
  public Optional<String> codeRead() {
    return Optional.ofNullable(code);
  }

  /** The request id read, when a source yields one. */
  public Optional<String> correlationIdRead() {
    return Optional.ofNullable(correlationId);
  }

  /** The delay read, when a source yields one. */
  public Optional<Long> delayRead() {
    return Optional.ofNullable(delayMs);
  }

  /** The parsed body, when it reads as JSON or flat XML. */
  public Optional<JsonNode> documentRead() {
    return Optional.ofNullable(document);
  }
}
