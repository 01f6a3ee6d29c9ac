package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The tolerant verdict on a raw payload, from {@link Errors#parse}: never an exception.
 *
 * @param verdict known, unknown (a newer server's code or category) or invalid
 * @param payload the payload, or null when invalid
 * @param problems why the payload is invalid (empty otherwise)
 * @param raw the raw payload as received
 */
public record Parsed(Verdict verdict, ErrorPayload payload, List<Problem> problems, JsonNode raw) {

  /** Copies the problems. */
  public Parsed {
    problems = List.copyOf(problems);
  }

  /** Whether a payload came out of it. */
  public boolean ok() {
    return payload != null;
  }
}
