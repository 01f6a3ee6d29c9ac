package errgen.runtime;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Calls again after an {@link ErrorPayloadException} whose decision ({@link Errors#decide}, with
 * this retrier's limits) is to wait: a retry or a pause with a delay. Anything else (another
 * decision, another exception, attempts or patience run out) reaches the caller as it was thrown.
 * Immutable: each setting returns a new retrier.
 *
 * <pre>{@code
 * HttpResponse<String> ok =
 *     Retrier.withDefaults()
 *         .call(
 *             () -> {
 *               HttpResponse<String> r = client.send(request, BodyHandlers.ofString());
 *               Errors.throwIfError(r);
 *               return r;
 *             });
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
   * One attempt: a call that returns a value or throws (an {@link ErrorPayloadException} to be
   * decided on, or an exception that goes to the caller). {@code InterruptedException} is declared
   * apart so that {@code X} is the call's own checked exception: {@code IOException} for {@code
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

  private static final Retrier DEFAULTS =
      new Retrier(
          C.policy.defaultMaxAttempts(), C.policy.defaultMaxDelayMs(), null, Sleeper.SYSTEM);

  private final long maxAttempts;
  private final long maxDelayMs;
  private final Random jitter;
  private final Sleeper sleeper;

  private Retrier(long maxAttempts, long maxDelayMs, Random jitter, Sleeper sleeper) {
    this.maxAttempts = maxAttempts;
    this.maxDelayMs = maxDelayMs;
    this.jitter = jitter;
    this.sleeper = sleeper;
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
    return new Retrier(attempts, maxDelayMs, jitter, sleeper);
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
    return new Retrier(maxAttempts, delay.toMillis(), jitter, sleeper);
  }

  /**
   * This retrier with full jitter: a backoff delay (never one the server or registry asked for) is
   * a uniform draw below it.
   *
   * @param random the source of the draws
   * @return the new retrier
   */
  public Retrier jitter(Random random) {
    return new Retrier(maxAttempts, maxDelayMs, Objects.requireNonNull(random, "random"), sleeper);
  }

  /**
   * This retrier waiting with {@code sleeper}.
   *
   * @param sleeper how to wait
   * @return the new retrier
   */
  public Retrier sleeper(Sleeper sleeper) {
    return new Retrier(maxAttempts, maxDelayMs, jitter, Objects.requireNonNull(sleeper, "sleeper"));
  }

  /**
   * {@code call}'s first result, calling again after each {@link ErrorPayloadException} whose
   * decision is to wait.
   *
   * @param <T> what the call returns
   * @param <X> the checked exception it may throw
   * @param call the call, made once per attempt
   * @return the first result
   * @throws X as the last attempt threw it (an {@link ErrorPayloadException} is unchecked)
   * @throws InterruptedException when interrupted while waiting
   */
  public <T, X extends Exception> T call(Call<T, X> call) throws X, InterruptedException {
    for (long attempt = 1; ; attempt++) {
      try {
        return call.call();
      } catch (ErrorPayloadException e) {
        sleeper.sleep(waitBefore(e, attempt).orElseThrow(() -> e));
      }
    }
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
    CompletionStage<T> stage;
    try {
      stage = call.get();
    } catch (RuntimeException e) {
      stage = CompletableFuture.failedFuture(e);
    }
    stage.whenComplete(
        (value, failure) -> {
          if (failure == null) {
            result.complete(value);
            return;
          }
          Throwable cause = unwrap(failure);
          Optional<Duration> wait =
              cause instanceof ErrorPayloadException e ? waitBefore(e, attempt) : Optional.empty();
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

  private static Throwable unwrap(Throwable failure) {
    boolean wrapped =
        failure instanceof CompletionException || failure instanceof ExecutionException;
    return wrapped && failure.getCause() != null ? failure.getCause() : failure;
  }

  /** How long to wait before the next attempt; empty when the decision is not to try again. */
  private Optional<Duration> waitBefore(ErrorPayloadException error, long attempt) {
    Decision d = Errors.decide(error.payload().toJson(), attempt, maxAttempts, maxDelayMs, jitter);
    return C.exhausted.containsKey(d.action()) ? d.delay() : Optional.empty();
  }
}
