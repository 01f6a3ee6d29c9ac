package errgen.runtime;

import java.util.List;
import java.util.stream.Collectors;

/** A payload the contract rejects, from {@link Errors#validateOrThrow} or a builder. */
public class InvalidPayloadException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The problems; never empty. */
  @SuppressWarnings("serial") // an immutable list of records
  private final List<Problem> problems;

  /** An exception for these problems. */
  public InvalidPayloadException(List<Problem> problems) {
    super(problems.stream().map(Problem::toString).collect(Collectors.joining("; ")));
    this.problems = List.copyOf(problems);
  }

  /** Every reason the payload was rejected. */
  public List<Problem> problems() {
    return problems;
  }
}
