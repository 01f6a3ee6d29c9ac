package errgen.runtime;

/**
 * One reason the contract rejects a payload.
 *
 * @param id a stable id, the same in every SDK
 * @param message what is wrong, for people
 */
public record Problem(ProblemId id, String message) {
  @Override
  public String toString() {
    return id.wire() + ": " + message;
  }
}
