package errgen.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.Manifest;

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
   * the jar. On the module path too, where a named module's packages carry no manifest values: the
   * module's own {@code META-INF/MANIFEST.MF} is read then.
   */
  public static Optional<String> version() {
    String version = RecoveryTable.class.getPackage().getImplementationVersion();
    Module module = RecoveryTable.class.getModule();
    if (version == null && module.isNamed()) {
      try (InputStream in = module.getResourceAsStream("META-INF/MANIFEST.MF")) {
        if (in != null) {
          version =
              new Manifest(in).getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_VERSION);
        }
      } catch (IOException e) {
        version = null; // no readable manifest: no version to tell
      }
    }
    return Optional.ofNullable(version);
  }

  /** The policy every errgen SDK shares. */
  public static Policy policy() {
    return Contract.INSTANCE.policy;
  }
}
