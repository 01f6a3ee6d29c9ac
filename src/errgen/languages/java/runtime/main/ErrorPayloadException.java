package errgen.runtime;

/**
 * An error a service throws and a client catches, carrying its contract payload (the shape of the
 * AWS SDK's service exceptions and gRPC's {@code StatusRuntimeException}). Each category of the
 * registry has a subclass, so a caller catches a category; {@link #of} picks it for a payload.
 */
public class ErrorPayloadException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  @SuppressWarnings("serial") // a record of immutable values
  private final ErrorPayload payload;

  /** An exception carrying a payload; its message is the payload's code and message. */
  public ErrorPayloadException(ErrorPayload payload) {
    this(payload, null);
  }

  /** As {@link #ErrorPayloadException(ErrorPayload)}, with the failure that caused it. */
  public ErrorPayloadException(ErrorPayload payload, Throwable cause) {
    super(
        payload.message() == null ? payload.code() : payload.code() + ": " + payload.message(),
        cause);
    this.payload = payload;
  }

  /** The exception of the payload's category (this class itself for an unknown category). */
  public static ErrorPayloadException of(ErrorPayload payload) {
    return CategoryExceptions.of(payload, null);
  }

  /** As {@link #of(ErrorPayload)}, with the failure that caused it. */
  public static ErrorPayloadException of(ErrorPayload payload, Throwable cause) {
    return CategoryExceptions.of(payload, cause);
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

  /** What to do about this error at this attempt (1 for the first), with the policy's limits. */
  public Decision decide(long attempt) {
    return Errors.decide(payload.toJson(), attempt);
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
