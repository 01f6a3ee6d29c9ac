package errgen.runtime;

import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * Every error this SDK throws for an API's error response, and every error a service throws with
 * it: the HTTP status and headers of the response it was read from (as {@code openai-java}'s and
 * the AWS SDK's service exceptions carry them), the reading, and {@link #decide}. Its subclasses:
 * {@link ErrorPayloadException} (a payload, with one subclass per category, which also stands for a
 * response of its category's status without a payload: a gateway's bare 429) and {@link
 * NoPayloadException} (a response with no payload this SDK can read at a status no category has: a
 * proxy's HTML 502, a body that breaks the contract). A transport failure is no {@code
 * ServiceException}: it surfaces as the {@code IOException} the client threw ({@link
 * TransportFailure#of} names it).
 */
public abstract class ServiceException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private static final HttpHeaders NONE = HttpHeaders.of(Map.of(), (name, value) -> true);

  @SuppressWarnings("serial") // a record of immutable values
  private final HttpReading reading;

  @SuppressWarnings("serial") // java.net.http's immutable headers
  private final HttpHeaders headers;

  /**
   * An exception with a message, a cause, and the response it was read from.
   *
   * @param message the detail message
   * @param cause the failure that caused it, or null
   * @param reading what {@link Errors#readHttp} found, or null for an error a service raised
   * @param headers the response's headers, or null for none
   */
  protected ServiceException(
      String message, Throwable cause, HttpReading reading, HttpHeaders headers) {
    super(message, cause);
    this.reading = reading;
    this.headers = headers == null ? NONE : headers;
  }

  /** The HTTP status of the response this error was read from; 0 for one a service raised. */
  public int status() {
    return reading == null ? 0 : reading.status();
  }

  /**
   * The response's headers (read-only; names compared case-insensitively, {@code
   * headers().firstValue("x-request-id")}); empty for an error a service raised.
   */
  public HttpHeaders headers() {
    return headers;
  }

  /** What {@link Errors#readHttp} found in the response; empty for an error a service raised. */
  public Optional<HttpReading> reading() {
    return Optional.ofNullable(reading);
  }

  /**
   * The id to quote to the API's support (Stripe's {@code Request-Id}, AWS's {@code
   * x-amzn-RequestId}): where the registry's {@code wire.response} says the response carries it,
   * else the payload's {@code correlation_id}; empty when neither says one.
   */
  public Optional<String> requestId() {
    String id = reading == null ? null : reading.correlationId();
    return id == null || id.isEmpty() ? payloadCorrelationId() : Optional.of(id);
  }

  /** The payload's correlation id, for {@link #requestId()}; a response without one has none. */
  Optional<String> payloadCorrelationId() {
    return Optional.empty();
  }

  /** What to do about this error at this attempt (1 for the first), with the policy's limits. */
  public Decision decide(long attempt) {
    Policy p = Contract.INSTANCE.policy;
    return decide(attempt, p.defaultMaxAttempts(), p.defaultMaxDelayMs(), null);
  }

  /**
   * What to do about this error: {@link Errors#decideResponse} on the response it was read from (a
   * response without a payload is decided by its status), else {@link Errors#decide} on its
   * payload.
   *
   * @param attempt this attempt, 1 for the first
   * @param maxAttempts attempts before a retry escalates and a pause stops
   * @param maxDelayMs a longer wait gets {@code escalate}
   * @param jitter with a source, a backoff delay is a uniform draw below it; null for none
   * @return the decision
   */
  public Decision decide(long attempt, long maxAttempts, long maxDelayMs, Random jitter) {
    if (reading != null) {
      return Errors.decideResponse(reading, attempt, maxAttempts, maxDelayMs, jitter);
    }
    return decideUnread(attempt, maxAttempts, maxDelayMs, jitter);
  }

  /** The decision on an error no response was read for: its payload's. */
  abstract Decision decideUnread(long attempt, long maxAttempts, long maxDelayMs, Random jitter);

  /**
   * The name OpenTelemetry's {@code error.type} attribute takes for this error: the code as the
   * payload says it, else the status ({@code "502"}).
   */
  public abstract String errorType();

  /**
   * A client's headers as {@link HttpHeaders}; a null name (the status line {@code
   * HttpURLConnection} lists) or value is left out.
   */
  static HttpHeaders headersOf(Map<String, ? extends List<String>> map) {
    if (map == null) {
      return NONE;
    }
    // HttpHeaders takes each name once, compared without regard to case.
    Map<String, List<String>> kept = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    map.forEach(
        (name, values) -> {
          if (name != null && values != null) {
            List<String> present = new ArrayList<>();
            values.forEach(
                value -> {
                  if (value != null) {
                    present.add(value);
                  }
                });
            kept.merge(
                name,
                present,
                (a, b) -> {
                  a.addAll(b);
                  return a;
                });
          }
        });
    return HttpHeaders.of(kept, (name, value) -> true);
  }
}
