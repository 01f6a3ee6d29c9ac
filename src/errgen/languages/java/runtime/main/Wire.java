package errgen.runtime;

/** A value with a spelling on the wire: every generated enum. */
public interface Wire {
  /** The value on the wire; null for the constant that stands for an unknown value. */
  String wire();
}
