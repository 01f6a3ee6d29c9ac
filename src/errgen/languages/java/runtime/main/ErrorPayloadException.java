package errgen.runtime;

import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;

/**
 * An error a service throws and a client catches, carrying its contract payload (the shape of the
 * AWS SDK's service exceptions and gRPC's {@code StatusRuntimeException}), and, when it was read
 * from a response, that response's status and headers ({@link ServiceException}). Each category of
 * the registry has a subclass, so a caller catches a category; {@link #of} picks it for a payload.
 *
 * <p>A response read without a payload of a category this SDK knows (a gateway's bare 429, a
 * proxy's HTML 502, a newer server's category) takes the subclass of the category the registry
 * gives its HTTP status, as stripe-java's {@code RateLimitException} is any 429: {@code catch
 * (RateLimitException e)} catches a bare 429 too. Only the class comes from the status: a payload
 * of an unknown category keeps it ({@link #category()} is {@code UNKNOWN_TO_SDK_VERSION}), and a
 * response without one has none ({@link #optionalPayload()} is empty, {@link #code()} and {@link
 * #category()} are {@code UNKNOWN_TO_SDK_VERSION}, {@link #decide} goes by the status). A status
 * the registry gives no category, or two, leaves {@code ErrorPayloadException} itself and {@link
 * NoPayloadException}.
 */
public class ErrorPayloadException extends ServiceException {
  private static final long serialVersionUID = 1L;

  // Null for a response read without a payload (the class then comes from its status).
  @SuppressWarnings("serial") // a record of immutable values
  private final ErrorPayload payload;

  @SuppressWarnings("serial") // an immutable list of records
  private final List<Problem> problems;

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
    super(message(Objects.requireNonNull(payload, "payload"), reading), cause, reading, headers);
    this.payload = payload;
    this.problems = List.of();
  }

  /**
   * An exception for a response read without a payload, of the category the registry gives its
   * status (a subclass's); its message is {@link NoPayloadException}'s.
   *
   * @param reading what {@link Errors#readHttp} found
   * @param headers the response's headers, or null
   * @param problems why the body is not a payload (empty when it claims none)
   */
  protected ErrorPayloadException(
      HttpReading reading, HttpHeaders headers, List<Problem> problems) {
    super(
        NoPayloadException.message(Objects.requireNonNull(reading, "reading"), problems),
        null,
        reading,
        headers);
    this.payload = null;
    this.problems = List.copyOf(problems);
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
    String id = payload == null ? null : payload.correlationId();
    return id == null || id.isEmpty() ? Optional.empty() : Optional.of(id);
  }

  /**
   * The exception of the payload's category (this class itself for an unknown category: with no
   * response, no status to take the class from).
   */
  public static ErrorPayloadException of(ErrorPayload payload) {
    return CategoryExceptions.of(payload, null, null, null);
  }

  /** As {@link #of(ErrorPayload)}, with the failure that caused it. */
  public static ErrorPayloadException of(ErrorPayload payload, Throwable cause) {
    return CategoryExceptions.of(payload, cause, null, null);
  }

  /**
   * As {@link #of(ErrorPayload)}, for a payload read from a response: an unknown category takes the
   * class of the category the registry gives the status.
   */
  static ErrorPayloadException of(ErrorPayload payload, HttpReading reading, HttpHeaders headers) {
    return CategoryExceptions.of(payload, null, reading, headers);
  }

  /**
   * The payload's code; {@link Code#UNKNOWN_TO_SDK_VERSION} for a code this SDK does not know, or
   * without a payload.
   */
  public Code code() {
    return payload == null ? Code.UNKNOWN_TO_SDK_VERSION : payload.knownCode();
  }

  /**
   * The payload's category, as the enum; {@link Category#UNKNOWN_TO_SDK_VERSION} for a category
   * this SDK does not know, or without a payload, whatever class the status gave this exception.
   */
  public Category category() {
    return payload == null ? Category.UNKNOWN_TO_SDK_VERSION : payload.knownCategory();
  }

  /**
   * Whether trying again may succeed (the payload's {@code retryable}); false without a payload:
   * {@link #decide} then says, by the status, whether and when to try again.
   */
  public boolean isRetryable() {
    return payload != null && payload.retryable();
  }

  @Override
  Decision decideUnread(long attempt, long maxAttempts, long maxDelayMs, Random jitter) {
    if (payload == null) {
      return Errors.decideResponse(
          reading().orElseThrow(), attempt, maxAttempts, maxDelayMs, jitter);
    }
    return Errors.decide(payload.toJson(), attempt, maxAttempts, maxDelayMs, jitter);
  }

  /**
   * The code as the payload says it (OpenTelemetry's {@code error.type}); without a payload, the
   * status ({@code "429"}).
   */
  @Override
  public String errorType() {
    return payload == null ? Integer.toString(status()) : payload.code();
  }

  /**
   * The HTTP response a service sends for this error; see {@link Errors#toHttp(ErrorPayload)}.
   *
   * @throws IllegalStateException without a payload: there is nothing to send
   */
  public HttpMessage toHttp() {
    return Errors.toHttp(payload());
  }

  /**
   * As {@link #toHttp()}; with {@code problem} an RFC 9457 problem+json body.
   *
   * @throws IllegalStateException without a payload: there is nothing to send
   */
  public HttpMessage toHttp(boolean problem) {
    return Errors.toHttp(payload(), problem);
  }

  /**
   * The payload to send (as HTTP or MCP) or to act on with {@link Errors#decide}.
   *
   * @throws IllegalStateException for a response read without a payload ({@link #optionalPayload()}
   *     is empty): its class came from its status
   */
  public ErrorPayload payload() {
    if (payload == null) {
      throw new IllegalStateException(getMessage() + ": the class comes from the status");
    }
    return payload;
  }

  /** The payload; empty for a response read without one (its class came from its status). */
  public Optional<ErrorPayload> optionalPayload() {
    return Optional.ofNullable(payload);
  }

  /**
   * Why the response's body is not a payload ({@link NoPayloadException#problems()}); empty with a
   * payload, or for a body that claimed none.
   */
  public List<Problem> problems() {
    return problems;
  }
}
