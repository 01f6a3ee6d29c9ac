package errgen.runtime;

/**
 * An error a service throws and a client catches, carrying its contract payload (the shape of the
 * AWS SDK's service exceptions and gRPC's {@code StatusRuntimeException}).
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

  /** The payload to send (as HTTP or MCP) or to act on with {@link Errors#decide}. */
  public ErrorPayload payload() {
    return payload;
  }
}
