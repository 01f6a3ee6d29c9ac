package errgen.runtime;

import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Random;

/**
 * An error response with no payload this SDK can read: no payload at all (a proxy's or load
 * balancer's HTML 502, a gateway's bare 429, an empty 503, text), decided by its status, or a body
 * in the API's error shape that breaks the contract ({@link #problems()} says how), decided {@code
 * escalate}. {@link #decide} says which; the retry helpers retry what it says to retry. A status
 * the registry gives one category takes that category's exception instead (a bare 429 is its {@code
 * RateLimitException}, with the same message, decision and problems; see {@link
 * ErrorPayloadException}): this class is for a status no category has, or two share.
 */
public class NoPayloadException extends ServiceException {
  private static final long serialVersionUID = 1L;

  @SuppressWarnings("serial") // an immutable list of records
  private final List<Problem> problems;

  /**
   * An exception for a response read without a payload.
   *
   * @param reading what {@link Errors#readHttp} found
   * @param headers the response's headers
   * @param problems why the body is not a payload (empty when it claims none)
   */
  public NoPayloadException(HttpReading reading, HttpHeaders headers, List<Problem> problems) {
    super(message(reading, problems), null, reading, headers);
    this.problems = List.copyOf(problems);
  }

  // The status, why there is no payload, and the request id to quote when the response had one.
  static String message(HttpReading reading, List<Problem> problems) {
    StringBuilder text = new StringBuilder("HTTP ").append(reading.status());
    if (!reading.claimed()) {
      text.append(" without an error payload");
    } else {
      text.append(": an invalid error payload");
      for (Problem problem : problems) {
        text.append("; ").append(problem);
      }
    }
    if (reading.correlationId() != null && !reading.correlationId().isEmpty()) {
      text.append(" (request id ").append(reading.correlationId()).append(')');
    }
    return text.toString();
  }

  /** Why the body breaks the contract; empty for a response that carried no payload at all. */
  public List<Problem> problems() {
    return problems;
  }

  @Override
  Decision decideUnread(long attempt, long maxAttempts, long maxDelayMs, Random jitter) {
    return Errors.decideResponse(reading().orElseThrow(), attempt, maxAttempts, maxDelayMs, jitter);
  }

  @Override
  public String errorType() {
    return Integer.toString(status());
  }
}
