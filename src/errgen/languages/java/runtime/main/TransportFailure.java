package errgen.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * What went wrong when no response came (docs/conformance.md, "Transport failures"), the input of
 * {@link Errors#decideFailure}: the first two before the request left, the others possibly after
 * the server applied it. {@link #of} names the failure of a {@code java.net}, {@code java.net.http}
 * or {@code javax.net.ssl} exception.
 */
public enum TransportFailure {
  /** The connection was never made: refused, no such host, no route, a connect timeout. */
  REFUSED("refused"),
  /** The TLS handshake failed, before any of the request was written. */
  TLS("tls"),
  /** The connection broke after the request may have been written (reset, closed, EOF). */
  RESET("reset"),
  /** No answer in time once the request was sent. */
  TIMEOUT("timeout");

  // How far a cause chain is followed: wrappers nest a few levels, a cycle never ends.
  private static final int MAX_CAUSES = 16;

  private final String wire;

  TransportFailure(String wire) {
    this.wire = wire;
  }

  /** The failure's name in the vectors and in every errgen SDK. */
  public String wire() {
    return wire;
  }

  /** Whether the request surely never reached the server, so sending it again is always safe. */
  public boolean neverSent() {
    return this == REFUSED || this == TLS;
  }

  /** The failure of a wire name; anything else (null too) counts as {@link #RESET}. */
  public static TransportFailure fromWire(String wire) {
    for (TransportFailure failure : values()) {
      if (failure.wire.equals(wire)) {
        return failure;
      }
    }
    return RESET;
  }

  /**
   * The failure an exception means, along its chain of causes (a {@code CompletionException} from
   * {@code sendAsync}, an {@code UncheckedIOException}): {@code ConnectException}, {@code
   * UnknownHostException}, {@code NoRouteToHostException} and {@code HttpConnectTimeoutException}
   * are {@link #REFUSED}, {@code SSLException} {@link #TLS}, {@code HttpTimeoutException} and
   * {@code SocketTimeoutException} {@link #TIMEOUT}, any other {@code IOException} {@link #RESET};
   * empty for anything else (a bug in the caller, an API error, an interruption).
   *
   * @param error what a call threw
   * @return the failure, or empty when the exception is not a transport failure
   */
  public static Optional<TransportFailure> of(Throwable error) {
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    TransportFailure found = null;
    for (Throwable t = error; t != null && seen.size() < MAX_CAUSES; t = t.getCause()) {
      if (seen.put(t, Boolean.TRUE) != null) {
        break;
      }
      TransportFailure named = named(t);
      if (named != null) {
        return Optional.of(named);
      }
      if (t instanceof IOException || t instanceof UncheckedIOException) {
        found = RESET; // a cause may still say more (a ConnectException inside an IOException)
      }
    }
    return Optional.ofNullable(found);
  }

  // The failure a class says by itself, most specific first; null for a plain IOException.
  private static TransportFailure named(Throwable t) {
    if (t instanceof HttpConnectTimeoutException
        || t instanceof ConnectException
        || t instanceof UnknownHostException
        || t instanceof NoRouteToHostException
        || t instanceof PortUnreachableException) {
      return REFUSED;
    }
    if (t instanceof SSLException) {
      return TLS;
    }
    if (t instanceof HttpTimeoutException || t instanceof SocketTimeoutException) {
      return TIMEOUT;
    }
    return null;
  }
}
