package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A received error body checked once, from {@link Errors#check}: what the strict contract says
 * about it and what to do about it, from one parse and one walk of the payload.
 *
 * @param raw the payload as parsed (text that is not JSON is kept as a JSON string)
 * @param problems every reason the strict contract rejects it, as {@link Errors#validate} gives
 *     them; empty when it is valid
 * @param decision the recovery decision, as {@link Errors#decide} gives it
 */
public record Checked(JsonNode raw, List<Problem> problems, Decision decision) {

  /** Copies the problems. */
  public Checked {
    problems = List.copyOf(problems);
  }

  /** Whether the strict contract accepts the payload. */
  public boolean valid() {
    return problems.isEmpty();
  }
}
