package errgen.runtime;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Calls again after a {@link ServiceException} whose decision ({@link ServiceException#decide},
 * with this retrier's limits) is to wait: a retry or a pause with a delay, a proxy's HTML 502 or a
 * bare 429 included (decided by their status). A transport failure ({@link TransportFailure#of}:
 * connection refused, TLS, reset, timeout) is retried as {@link Errors#decideFailure} says: always
 * when the request never left, otherwise only for an {@link #idempotent} call. Anything else
 * (another decision, another exception, attempts or patience run out) reaches the caller as it was
 * thrown. Each decided attempt goes to the {@link #onAttempt} observer and to the {@code
 * System.Logger} named after this class (level {@code DEBUG}). Immutable: each setting returns a
 * new retrier.
 *
 * <pre>{@code
 * HttpResponse<String> ok =
 *     Retrier.withDefaults().send(client, request, BodyHandlers.ofString());
 * }</pre>
 */
public final class Retrier {
  private static final Contract C = Contract.INSTANCE;

  /** Waits between attempts; tests replace it to record the delays instead of waiting. */
  @FunctionalInterface
  public interface Sleeper {
    /** The thread's sleep: {@link Thread#sleep}, and a timer (no blocked thread) when async. */
    Sleeper SYSTEM = new SystemSleeper();

    /**
     * Waits {@code delay}.
     *
     * @param delay how long to wait
     * @throws InterruptedException when the thread is interrupted while it waits
     */
    void sleep(Duration delay) throws InterruptedException;

    /**
     * A stage that completes after {@code delay}, for {@link Retrier#callAsync}; by default {@link
     * #sleep} on the calling thread, then completed.
     *
     * @param delay how long to wait
     * @return the stage
     */
    default CompletionStage<Void> after(Duration delay) {
      try {
        sleep(delay);
        return CompletableFuture.completedFuture(null);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return CompletableFuture.failedFuture(e);
      }
    }
  }

  private static final class SystemSleeper implements Sleeper {
    @Override
    public void sleep(Duration delay) throws InterruptedException {
      Thread.sleep(delay.toMillis());
    }

    @Override
    public CompletionStage<Void> after(Duration delay) {
      return CompletableFuture.runAsync(
          () -> {}, CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS));
    }
  }

  /**
   * One attempt: a call that returns a value or throws (a {@link ServiceException} to be decided
   * on, or an exception that goes to the caller). {@code InterruptedException} is declared apart so
   * that {@code X} is the call's own checked exception: {@code IOException} for {@code
   * HttpClient.send}, not {@code Exception}.
   *
   * @param <T> what the call returns
   * @param <X> the checked exception it may throw
   */
  @FunctionalInterface
  public interface Call<T, X extends Exception> {
    /**
     * Makes the call once.
     *
     * @return its result
     * @throws X when it fails other than with an error payload
     * @throws InterruptedException when interrupted
     */
    T call() throws X, InterruptedException;
  }

  /**
   * One decided attempt, as the {@link #onAttempt} observer sees it: what it threw and what the
   * retrier decided about it (before waiting, or before giving up).
   *
   * @param attempt the attempt, 1 for the first
   * @param error what it threw: a {@link ServiceException} or a transport failure
   * @param decision what to do about it; a wait when {@link #willRetry()}
   */
  public record Attempt(long attempt, Throwable error, Decision decision) {
    /** Whether the retrier waits {@code decision().delay()} and calls again. */
    public boolean willRetry() {
      return C.exhausted.containsKey(decision.action()) && decision.delayMs() != null;
    }

    /**
     * OpenTelemetry's {@code error.type} for this attempt: the code as the payload says it, the
     * status of a response without one ({@code "502"}), or the transport failure ({@code
     * "timeout"}). For a span at hand: {@code span.setAttribute("error.type", a.errorType())}.
     */
    public String errorType() {
      if (error instanceof ServiceException e) {
        return e.errorType();
      }
      return TransportFailure.of(error)
          .map(TransportFailure::wire)
          .orElse(error.getClass().getName());
    }
  }

  private static final System.Logger LOG = System.getLogger(Retrier.class.getName());

  private static final Retrier DEFAULTS =
      new Retrier(
          C.policy.defaultMaxAttempts(),
          C.policy.defaultMaxDelayMs(),
          null,
          Sleeper.SYSTEM,
          false,
          attempt -> {});

  private final long maxAttempts;
  private final long maxDelayMs;
  private final Random jitter;
  private final Sleeper sleeper;
  private final boolean idempotent;
  private final Consumer<? super Attempt> observer;

  private Retrier(
      long maxAttempts,
      long maxDelayMs,
      Random jitter,
      Sleeper sleeper,
      boolean idempotent,
      Consumer<? super Attempt> observer) {
    this.maxAttempts = maxAttempts;
    this.maxDelayMs = maxDelayMs;
    this.jitter = jitter;
    this.sleeper = sleeper;
    this.idempotent = idempotent;
    this.observer = observer;
  }

  /**
   * The registry's limits ({@link Policy#defaultMaxAttempts()}, {@link
   * Policy#defaultMaxDelayMs()}), no jitter, and the thread's sleep.
   *
   * @return the retrier
   */
  public static Retrier withDefaults() {
    return DEFAULTS;
  }

  /**
   * {@code call}'s result, with the defaults; see {@link #call}.
   *
   * @param <T> what the call returns
   * @param <X> the checked exception it may throw
   * @param call the call, made once per attempt
   * @return the first result
   * @throws X as the last attempt threw it
   * @throws InterruptedException when interrupted while waiting
   */
  public static <T, X extends Exception> T retry(Call<T, X> call) throws X, InterruptedException {
    return DEFAULTS.call(call);
  }

  /**
   * This retrier with another number of attempts (the first call counts).
   *
   * @param attempts at least 1
   * @return the new retrier
   */
  public Retrier maxAttempts(long attempts) {
    if (attempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, not " + attempts);
    }
    return new Retrier(attempts, maxDelayMs, jitter, sleeper, idempotent, observer);
  }

  /**
   * This retrier with another longest wait: a server asking for longer gets {@code escalate}.
   *
   * @param delay not negative
   * @return the new retrier
   */
  public Retrier maxDelay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("maxDelay must not be negative, not " + delay);
    }
    return new Retrier(maxAttempts, delay.toMillis(), jitter, sleeper, idempotent, observer);
  }

  /**
   * This retrier with full jitter: a backoff delay (never one the server or registry asked for) is
   * a uniform draw below it.
   *
   * @param random the source of the draws
   * @return the new retrier
   */
  public Retrier jitter(Random random) {
    return new Retrier(
        maxAttempts,
        maxDelayMs,
        Objects.requireNonNull(random, "random"),
        sleeper,
        idempotent,
        observer);
  }

  /**
   * This retrier waiting with {@code sleeper}.
   *
   * @param sleeper how to wait
   * @return the new retrier
   */
  public Retrier sleeper(Sleeper sleeper) {
    return new Retrier(
        maxAttempts,
        maxDelayMs,
        jitter,
        Objects.requireNonNull(sleeper, "sleeper"),
        idempotent,
        observer);
  }

  /**
   * This retrier for calls that may be applied twice (a GET, a PUT, a request carrying an {@code
   * Idempotency-Key}): a connection reset or a timeout after the request left is retried too;
   * otherwise those escalate as {@code outcome-unknown} and reach the caller. {@link #send} also
   * counts a request with an {@code Idempotency-Key} header as idempotent.
   *
   * @param idempotent whether the call may be sent again after it may have been applied
   * @return the new retrier
   */
  public Retrier idempotent(boolean idempotent) {
    return new Retrier(maxAttempts, maxDelayMs, jitter, sleeper, idempotent, observer);
  }

  /**
   * This retrier telling {@code observer} about each decided attempt (a metric, a log line, a
   * span's {@code error.type}), before it waits or gives up. It runs on the calling thread, or the
   * completing one for {@link #callAsync}; what it throws reaches the caller.
   *
   * @param observer what to tell
   * @return the new retrier
   */
  public Retrier onAttempt(Consumer<? super Attempt> observer) {
    return new Retrier(
        maxAttempts,
        maxDelayMs,
        jitter,
        sleeper,
        idempotent,
        Objects.requireNonNull(observer, "observer"));
  }

  /**
   * {@code call}'s first result, calling again after each {@link ServiceException} or transport
   * failure whose decision is to wait.
   *
   * @param <T> what the call returns
   * @param <X> the checked exception it may throw
   * @param call the call, made once per attempt
   * @return the first result
   * @throws X as the last attempt threw it (a {@link ServiceException} is unchecked)
   * @throws InterruptedException when interrupted while waiting
   */
  public <T, X extends Exception> T call(Call<T, X> call) throws X, InterruptedException {
    for (long attempt = 1; ; attempt++) {
      try {
        return call.call();
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        Optional<Duration> wait = waitBefore(e, attempt);
        if (wait.isEmpty()) {
          throw e;
        }
        sleeper.sleep(wait.get());
      }
    }
  }

  /**
   * Sends {@code request} with {@code client} until a response is no error ({@link
   * Errors#throwIfError}) or the decision is not to try again. The request counts as idempotent
   * when this retrier is, or when it carries an {@code Idempotency-Key} header.
   *
   * @param <T> the body type
   * @param client the client
   * @param request the request, sent once per attempt
   * @param handler the body handler (a String or byte[] body is read for the error)
   * @return the first response that is no error
   * @throws IOException as the last attempt's transport failure
   * @throws InterruptedException when interrupted
   */
  public <T> HttpResponse<T> send(
      HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    return forRequest(request)
        .call(
            () -> {
              HttpResponse<T> response = client.send(request, handler);
              Errors.throwIfError(response);
              return response;
            });
  }

  /**
   * As {@link #send}, without blocking a thread: {@link #callAsync} over {@code client.sendAsync}.
   * Cancelling the returned future stops further attempts.
   *
   * @param <T> the body type
   * @param client the client
   * @param request the request, sent once per attempt
   * @param handler the body handler
   * @return the first response that is no error
   */
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return forRequest(request)
        .callAsync(
            () ->
                client
                    .sendAsync(request, handler)
                    .thenApply(
                        response -> {
                          Errors.throwIfError(response);
                          return response;
                        }));
  }

  private Retrier forRequest(HttpRequest request) {
    boolean keyed = request.headers().firstValue("Idempotency-Key").isPresent();
    return keyed && !idempotent ? idempotent(true) : this;
  }

  /**
   * What this retrier decides about an exception a call threw at {@code attempt}: a {@link
   * ServiceException}'s own decision, a transport failure's ({@link Errors#decideFailure}), or
   * empty for any other exception (not the retrier's to retry).
   *
   * @param error what the call threw
   * @param attempt the attempt, 1 for the first
   * @return the decision
   */
  public Optional<Decision> decide(Throwable error, long attempt) {
    if (error instanceof ServiceException e) {
      return Optional.of(e.decide(attempt, maxAttempts, maxDelayMs, jitter));
    }
    return TransportFailure.of(error)
        .map(f -> Errors.decideFailure(f, idempotent, attempt, maxAttempts, maxDelayMs, jitter));
  }

  /**
   * As {@link #call}, for a call that returns a stage: the next attempt starts when the sleeper's
   * {@link Sleeper#after} stage completes, so no thread is blocked while waiting with the system
   * sleeper. The future fails with what the last attempt failed with (unwrapped from a {@link
   * CompletionException} or {@link ExecutionException}).
   *
   * @param <T> what the call's stage completes with
   * @param call the call, made once per attempt
   * @return the first result
   */
  public <T> CompletableFuture<T> callAsync(Supplier<? extends CompletionStage<T>> call) {
    CompletableFuture<T> result = new CompletableFuture<>();
    attemptAsync(call, 1, result);
    return result;
  }

  private <T> void attemptAsync(
      Supplier<? extends CompletionStage<T>> call, long attempt, CompletableFuture<T> result) {
    if (result.isDone()) {
      return; // cancelled (or completed by the caller): no further call
    }
    CompletionStage<T> stage;
    try {
      stage = call.get();
    } catch (RuntimeException e) {
      stage = CompletableFuture.failedFuture(e);
    }
    cancelWith(result, stage);
    stage.whenComplete(
        (value, failure) -> {
          if (result.isDone()) {
            return;
          }
          if (failure == null) {
            result.complete(value);
            return;
          }
          Throwable cause = unwrap(failure);
          Optional<Duration> wait = waitBefore(cause, attempt);
          if (wait.isEmpty()) {
            result.completeExceptionally(cause);
            return;
          }
          sleeper
              .after(wait.get())
              .whenComplete(
                  (ignored, interrupted) -> {
                    if (interrupted != null) {
                      result.completeExceptionally(unwrap(interrupted));
                    } else {
                      attemptAsync(call, attempt + 1, result);
                    }
                  });
        });
  }

  // Cancelling the caller's future cancels the attempt in flight (when its stage allows it).
  private static void cancelWith(CompletableFuture<?> result, CompletionStage<?> stage) {
    CompletableFuture<?> pending;
    try {
      pending = stage.toCompletableFuture();
    } catch (UnsupportedOperationException e) {
      return;
    }
    result.whenComplete(
        (value, failure) -> {
          if (result.isCancelled()) {
            pending.cancel(true);
          }
        });
  }

  private static Throwable unwrap(Throwable failure) {
    boolean wrapped =
        failure instanceof CompletionException || failure instanceof ExecutionException;
    return wrapped && failure.getCause() != null ? failure.getCause() : failure;
  }

  /**
   * How long to wait before the next attempt; empty when the decision is not to try again (or the
   * exception is not the retrier's). The observer and the logger hear of each decided attempt.
   */
  private Optional<Duration> waitBefore(Throwable error, long attempt) {
    Optional<Decision> decided = decide(error, attempt);
    if (decided.isEmpty()) {
      return Optional.empty();
    }
    Attempt seen = new Attempt(attempt, error, decided.get());
    LOG.log(System.Logger.Level.DEBUG, () -> describe(seen));
    if (!seen.willRetry()) {
      Telemetry.errorType(seen.errorType()); // the error the call ends with; a retried one is not
    }
    observer.accept(seen);
    return seen.willRetry() ? seen.decision().delay() : Optional.empty();
  }

  /**
   * OpenTelemetry's current span, when the OpenTelemetry API is on the class path (found by name:
   * no dependency): the decided attempt the retrier gives up on sets its {@code error.type}, as the
   * semantic conventions ask of an operation that ended with an error (and forbid on one that
   * succeeded: an error a later attempt recovered from sets nothing). Without the API, or if it
   * fails, nothing happens.
   */
  private static final class Telemetry {
    private static final MethodHandle CURRENT;
    private static final MethodHandle SET;

    static {
      MethodHandle current = null;
      MethodHandle set = null;
      try {
        Class<?> span = Class.forName("io.opentelemetry.api.trace.Span");
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        current = lookup.findStatic(span, "current", MethodType.methodType(span));
        set =
            lookup.findVirtual(
                span, "setAttribute", MethodType.methodType(span, String.class, String.class));
      } catch (ReflectiveOperationException | LinkageError e) {
        current = null; // no OpenTelemetry API here
      }
      CURRENT = current;
      SET = set;
    }

    private Telemetry() {}

    static void errorType(String value) {
      if (CURRENT == null || SET == null) {
        return;
      }
      try {
        Object span = CURRENT.invoke();
        Object ignored = SET.invoke(span, "error.type", value);
      } catch (Error e) {
        throw e;
      } catch (Throwable e) { // an observer's failure never fails the call
        LOG.log(System.Logger.Level.DEBUG, "cannot set error.type on the current span", e);
      }
    }
  }

  private static String describe(Attempt a) {
    Decision d = a.decision();
    return "attempt "
        + a.attempt()
        + ": "
        + a.errorType()
        + " -> "
        + d.action().wire()
        + " ("
        + d.reason().wire()
        + ")"
        + (a.willRetry() ? ", calling again in " + d.delayMs() + " ms" : ", giving up");
  }
}
