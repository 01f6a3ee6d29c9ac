package errgen.runtime;

import java.util.List;
import java.util.Optional;

/** The recovery table: for each code of the registry, what a caller does, per scope. */
public final class RecoveryTable {
  private RecoveryTable() {}

  /** Every row, in registry order. */
  public static List<RecoveryEntry> entries() {
    return List.copyOf(Contract.INSTANCE.codes.values());
  }

  /** The row of a wire code; empty for a code this SDK does not know. */
  public static Optional<RecoveryEntry> entry(String code) {
    return Optional.ofNullable(code == null ? null : Contract.INSTANCE.codes.get(code));
  }

  /** The row of a code. */
  public static Optional<RecoveryEntry> entry(Code code) {
    return entry(code.wire());
  }

  /** The registry's name. */
  public static String registry() {
    return Contract.INSTANCE.registry;
  }

  /**
   * This SDK's version (the registry's), from its jar's manifest: it lives in the package metadata
   * only, so a release changes the pom and nothing else. Empty when the classes are not loaded from
   * the jar.
   */
  public static Optional<String> version() {
    return Optional.ofNullable(RecoveryTable.class.getPackage().getImplementationVersion());
  }

  /** The policy every errgen SDK shares. */
  public static Policy policy() {
    return Contract.INSTANCE.policy;
  }
}
