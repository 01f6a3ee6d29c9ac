package errgen.runtime;

import java.net.http.HttpHeaders;
import java.util.Optional;
import java.util.Random;

/**
 * An error a service throws and a client catches, carrying its contract payload (the shape of the
 * AWS SDK's service exceptions and gRPC's {@code StatusRuntimeException}), and, when it was read
 * from a response, that response's status and headers ({@link ServiceException}). Each category of
 * the registry has a subclass, so a caller catches a category; {@link #of} picks it for a payload.
 */
public class ErrorPayloadException extends ServiceException {
  private static final long serialVersionUID = 1L;

  @SuppressWarnings("serial") // a record of immutable values
  private final ErrorPayload payload;

  /** An exception carrying a payload; its message is the payload's code and message. */
  public ErrorPayloadException(ErrorPayload payload) {
    this(payload, null);
  }

  /** As {@link #ErrorPayloadException(ErrorPayload)}, with the failure that caused it. */
  public ErrorPayloadException(ErrorPayload payload, Throwable cause) {
    this(payload, cause, null, null);
  }

  /**
   * As {@link #ErrorPayloadException(ErrorPayload, Throwable)}, read from a response.
   *
   * @param payload the payload
   * @param cause the failure that caused it, or null
   * @param reading what {@link Errors#readHttp} found, or null
   * @param headers the response's headers, or null
   */
  public ErrorPayloadException(
      ErrorPayload payload, Throwable cause, HttpReading reading, HttpHeaders headers) {
    super(message(payload, reading), cause, reading, headers);
    this.payload = payload;
  }

  // The code and message; read from a response, its status and request id too, as the AWS SDK's
  // "(Status Code: 429, Request ID: ...)": a log line that names the call to quote.
  private static String message(ErrorPayload payload, HttpReading reading) {
    String text =
        payload.message() == null ? payload.code() : payload.code() + ": " + payload.message();
    if (reading == null) {
      return text;
    }
    String id = reading.correlationId() != null ? reading.correlationId() : payload.correlationId();
    boolean quoted = id != null && !id.isEmpty();
    return text + " (HTTP " + reading.status() + (quoted ? ", request id " + id : "") + ")";
  }

  @Override
  Optional<String> payloadCorrelationId() {
    String id = payload.correlationId();
    return id == null || id.isEmpty() ? Optional.empty() : Optional.of(id);
  }

  /** The exception of the payload's category (this class itself for an unknown category). */
  public static ErrorPayloadException of(ErrorPayload payload) {
    return CategoryExceptions.of(payload, null, null, null);
  }

  /** As {@link #of(ErrorPayload)}, with the failure that caused it. */
  public static ErrorPayloadException of(ErrorPayload payload, Throwable cause) {
    return CategoryExceptions.of(payload, cause, null, null);
  }

  /** As {@link #of(ErrorPayload)}, for a payload read from a response. */
  static ErrorPayloadException of(ErrorPayload payload, HttpReading reading, HttpHeaders headers) {
    return CategoryExceptions.of(payload, null, reading, headers);
  }

  /** The payload's code; {@link Code#UNKNOWN_TO_SDK_VERSION} for a code this SDK does not know. */
  public Code code() {
    return payload.knownCode();
  }

  /** The payload's category, as the enum. */
  public Category category() {
    return payload.knownCategory();
  }

  /** Whether trying again may succeed (the payload's {@code retryable}). */
  public boolean isRetryable() {
    return payload.retryable();
  }

  @Override
  Decision decideUnread(long attempt, long maxAttempts, long maxDelayMs, Random jitter) {
    return Errors.decide(payload.toJson(), attempt, maxAttempts, maxDelayMs, jitter);
  }

  /** The code as the payload says it (OpenTelemetry's {@code error.type}). */
  @Override
  public String errorType() {
    return payload.code();
  }

  /** The HTTP response a service sends for this error; see {@link Errors#toHttp(ErrorPayload)}. */
  public HttpMessage toHttp() {
    return Errors.toHttp(payload);
  }

  /** As {@link #toHttp()}; with {@code problem} an RFC 9457 problem+json body. */
  public HttpMessage toHttp(boolean problem) {
    return Errors.toHttp(payload, problem);
  }

  /** The payload to send (as HTTP or MCP) or to act on with {@link Errors#decide}. */
  public ErrorPayload payload() {
    return payload;
  }
}
