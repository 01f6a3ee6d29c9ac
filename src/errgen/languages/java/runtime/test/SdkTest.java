package errgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.Test;

/** The SDK's API on whatever registry it was built from. */
class SdkTest {
  private static final RecoveryEntry FIRST = RecoveryTable.entries().get(0);

  // Field names on the wire come from the registry (`wire:` may rename them).
  private static String wire(String name) {
    return Contract.INSTANCE.wire(name);
  }

  private static ErrorPayload payload(RecoveryEntry entry) {
    return Errors.newError(
        entry.knownCode(),
        "c-1",
        b -> entry.scope() == Scope.RESOURCE ? b.resourceId("item-1") : b);
  }

  @Test
  void fromWireNeverThrowsAndRoundTrips() {
    for (String junk : Arrays.asList(null, "", "NOT A CODE \u2028", "\u0000")) {
      assertSame(Code.UNKNOWN_TO_SDK_VERSION, Code.fromWire(junk));
      assertSame(Category.UNKNOWN_TO_SDK_VERSION, Category.fromWire(junk));
      assertSame(Scope.UNKNOWN_TO_SDK_VERSION, Scope.fromWire(junk));
      assertSame(Action.UNKNOWN_TO_SDK_VERSION, Action.fromWire(junk));
    }
    for (Code code : Code.values()) {
      if (code != Code.UNKNOWN_TO_SDK_VERSION) {
        assertSame(code, Code.fromWire(code.wire()));
        assertTrue(RecoveryTable.entry(code).isPresent(), code.wire());
      }
    }
    assertEquals(RecoveryTable.entries().size() + 1, Code.values().length);
  }

  @Test
  void newErrorFillsTheTableAndDecidesByTheRegistry() {
    for (RecoveryEntry entry : RecoveryTable.entries()) {
      ErrorPayload p = payload(entry);
      assertEquals(entry.category(), p.category());
      assertEquals(entry.retryable(), p.retryable());
      assertEquals(List.of(), Errors.validate(p.toJson()));
      assertSame(Verdict.KNOWN, Errors.parse(p.toString()).verdict());
      // No limit on the delay: a registry may ask for longer than the default maximum.
      Decision d = Errors.decide(p, 1, 5, Long.MAX_VALUE);
      assertEquals(Reason.REGISTRY, d.reason());
      assertEquals(entry.actions().get(entry.scope()), d.action());
    }
  }

  @Test
  void newErrorRejectsWhatTheContractRejects() {
    InvalidPayloadException unknown =
        assertThrows(
            InvalidPayloadException.class,
            () -> Errors.newError(Code.UNKNOWN_TO_SDK_VERSION, "c-1"));
    assertEquals(ProblemId.UNKNOWN_CODE, unknown.problems().get(0).id());
    Optional<Scope> other =
        Arrays.stream(Scope.values())
            .filter(s -> s != Scope.UNKNOWN_TO_SDK_VERSION && !FIRST.scopes().contains(s))
            .findFirst();
    assumeTrue(other.isPresent(), "the first code allows every scope");
    InvalidPayloadException bad =
        assertThrows(
            InvalidPayloadException.class,
            () ->
                Errors.newError(
                    FIRST.knownCode(), "c-1", b -> b.scope(other.get()).resourceId("r-1")));
    assertTrue(bad.problems().stream().anyMatch(p -> p.id() == ProblemId.SCOPE_NOT_ALLOWED));
  }

  @Test
  void theExceptionCarriesThePayload() {
    ErrorPayload p = payload(FIRST);
    ErrorPayloadException e =
        assertThrows(
            ErrorPayloadException.class,
            () -> {
              throw new ErrorPayloadException(p);
            });
    assertSame(p, e.payload());
    assertTrue(e.getMessage().startsWith(FIRST.code()));
    assertEquals(Errors.toHttp(p), e.toHttp());
    assertEquals(Errors.toHttp(p, true), e.toHttp(true));
  }

  @Test
  void eachCategoryHasItsExceptionAndAResponseThrowsIt() {
    for (RecoveryEntry entry : RecoveryTable.entries()) {
      ErrorPayload p = payload(entry);
      ErrorPayloadException e = ErrorPayloadException.of(p);
      assertTrue(e.getClass() != ErrorPayloadException.class, entry.code());
      assertEquals(entry.knownCode(), e.code());
      assertEquals(entry.retryable(), e.isRetryable());
      assertEquals(p.knownCategory(), e.category());
      HttpMessage out = Errors.toHttp(p);
      HttpResponse<String> response = new FakeResponse<>(out.status(), headerMap(out), out.body());
      ErrorPayloadException thrown =
          assertThrows(ErrorPayloadException.class, () -> Errors.throwIfError(response));
      assertSame(e.getClass(), thrown.getClass());
      assertEquals(entry.knownCode(), thrown.code());
    }
    Errors.throwIfError(new FakeResponse<>(200, Map.of(), "{}"));
    // A registry may read the code from the status itself: then even "[1]" is its error.
    HttpResponse<String> junk = new FakeResponse<>(500, Map.of(), "[1]");
    Class<? extends ServiceException> expected =
        Errors.parse(Errors.readHttp(junk).payload()).ok()
                || CategoryExceptions.ofStatus(500) != Category.UNKNOWN_TO_SDK_VERSION
            ? ErrorPayloadException.class
            : NoPayloadException.class;
    assertThrows(expected, () -> Errors.throwIfError(junk));
  }

  // The category an exception class stands for (its CATEGORY); unknown for the base classes.
  private static Category categoryOfClass(Class<?> type) {
    try {
      return (Category) type.getField("CATEGORY").get(null);
    } catch (ReflectiveOperationException e) {
      return Category.UNKNOWN_TO_SDK_VERSION;
    }
  }

  @Test
  void aResponseWithoutAKnownCategoryTakesTheClassOfItsStatusAndNothingElse() {
    ObjectNode raw = payload(FIRST).toJson();
    raw.put(wire("code"), "CODE_FROM_A_NEWER_SERVER");
    raw.put(wire("category"), "category_from_a_newer_server");
    Contract.INSTANCE.fields.stream().filter(FieldSpec::hint).forEach(f -> raw.remove(f.wire()));
    Parsed parsed = Errors.parse(raw);
    assertTrue(parsed.ok(), parsed.problems().toString());
    ErrorPayload unknown = parsed.payload();
    assertSame(Category.UNKNOWN_TO_SDK_VERSION, unknown.knownCategory());
    // A service's own error has no status to take a class from.
    assertSame(ErrorPayloadException.class, ErrorPayloadException.of(unknown).getClass());
    Map<String, List<String>> retryAfter = Map.of("Retry-After", List.of("2"));
    Set<Category> seen = new HashSet<>();
    for (int status = 400; status < 600; status++) {
      Category byStatus = CategoryExceptions.ofStatus(status);
      seen.add(byStatus);
      String at = "HTTP " + status;
      HttpReading reading = Errors.readHttp(status, List.of(Map.entry("Retry-After", "2")), "", 0);
      // A payload of a category this SDK does not know: the status's class, the payload kept.
      ErrorPayloadException newer = ErrorPayloadException.of(unknown, reading, null);
      assertEquals(byStatus, categoryOfClass(newer.getClass()), at);
      assertSame(unknown, newer.payload());
      assertSame(Category.UNKNOWN_TO_SDK_VERSION, newer.category());
      assertEquals("CODE_FROM_A_NEWER_SERVER", newer.errorType());
      if (reading.claimed()) {
        continue; // this registry reads a code from the status: a payload, of its category
      }
      // A gateway's bare response (no body, Retry-After), through the response helpers.
      int s = status;
      ServiceException bare =
          assertThrows(ServiceException.class, () -> Errors.throwIfError(s, retryAfter, ""));
      assertEquals(byStatus, categoryOfClass(bare.getClass()), at);
      if (byStatus == Category.UNKNOWN_TO_SDK_VERSION) {
        assertSame(NoPayloadException.class, bare.getClass(), at);
      } else {
        ErrorPayloadException e = assertInstanceOf(ErrorPayloadException.class, bare, at);
        assertEquals(Optional.empty(), e.optionalPayload());
        assertThrows(IllegalStateException.class, e::payload);
        assertThrows(IllegalStateException.class, e::toHttp);
        assertSame(Code.UNKNOWN_TO_SDK_VERSION, e.code());
        assertSame(Category.UNKNOWN_TO_SDK_VERSION, e.category());
        assertFalse(e.isRetryable());
        assertEquals(List.of(), e.problems());
        assertEquals(Optional.empty(), e.requestId());
      }
      // Only the class comes from the status: the message, error type and decision are a bare
      // response's, its Retry-After read.
      assertEquals(NoPayloadException.message(reading, List.of()), bare.getMessage());
      assertEquals(Integer.toString(status), bare.errorType());
      assertEquals(status, bare.status());
      assertEquals(Optional.of("2"), bare.headers().firstValue("retry-after"));
      assertEquals(
          Errors.decideResponse(reading, 1, 5, Long.MAX_VALUE, null),
          bare.decide(1, 5, Long.MAX_VALUE, null));
      assertEquals(Reason.STATUS_FALLBACK, bare.decide(1).reason());
    }
    // A status two categories share, or none has, stays the base class: 600 is no HTTP status.
    assertSame(Category.UNKNOWN_TO_SDK_VERSION, CategoryExceptions.ofStatus(600));
    assertTrue(seen.contains(Category.UNKNOWN_TO_SDK_VERSION));
  }

  @Test
  void optionalAccessorsSayWhatTheWireSaid() {
    // From JSON, not the canonical constructor: a field the contract adds needs no edit here.
    ObjectNode envelope = Json.NODES.objectNode();
    envelope.put(wire("code"), "X").put(wire("category"), "y").put(wire("retryable"), true);
    envelope.put(wire("scope"), Scope.REQUEST.wire()).put(wire("correlation_id"), "c-1");
    ErrorPayload bare = ErrorPayload.fromJson(envelope);
    assertEquals(Optional.empty(), bare.retryAfter());
    assertEquals(Optional.empty(), bare.optionalRetryAfterMs());
    assertEquals(Optional.empty(), bare.optionalResourceId());
    assertEquals(Optional.empty(), bare.optionalMessage());
    assertEquals(Optional.empty(), bare.optionalSearched());
    assertEquals(Optional.empty(), bare.optionalDidYouMean());
    assertEquals(Optional.empty(), bare.optionalAccepted());
    assertEquals(Optional.empty(), bare.optionalState());
    assertEquals(Optional.empty(), bare.optionalSafeToReplay());
    ObjectNode every = envelope.deepCopy().put(wire("scope"), Scope.RESOURCE.wire());
    every.put(wire("retry_after_ms"), 1500).put(wire("resource_id"), "r-1");
    every.put(wire("message"), "m").put(wire("safe_to_replay"), false);
    every.put(wire("state"), State.values()[0].wire());
    every.putObject(wire("searched")).put("q", 1);
    every.putArray(wire("did_you_mean"));
    every.putArray(wire("accepted")).add("a");
    ErrorPayload full = ErrorPayload.fromJson(every);
    assertEquals(Optional.of(Duration.ofMillis(1500)), full.retryAfter());
    assertEquals(Optional.of(1500L), full.optionalRetryAfterMs());
    assertEquals(Optional.of("r-1"), full.optionalResourceId());
    assertEquals(Optional.of("m"), full.optionalMessage());
    assertEquals(Optional.of(Map.of("q", 1L)), full.optionalSearched());
    assertEquals(Optional.of(List.of()), full.optionalDidYouMean());
    assertEquals(Optional.of(List.of("a")), full.optionalAccepted());
    assertEquals(Optional.of(State.values()[0]), full.optionalState());
    assertEquals(Optional.of(false), full.optionalSafeToReplay());
    // The wire is unchanged: an absent field stays absent, an empty list stays an empty list.
    assertEquals(List.of("code", "category", "retryable", "scope", "correlation_id"), names(bare));
    assertEquals(every.size(), names(full).size());
    assertTrue(full.toJson().get(wire("did_you_mean")).isEmpty());
  }

  private static List<String> names(ErrorPayload p) {
    List<String> out = new ArrayList<>();
    p.toJson().fieldNames().forEachRemaining(out::add);
    List<String> plain = new ArrayList<>();
    for (FieldSpec f : Contract.INSTANCE.fields) {
      if (out.contains(f.wire())) {
        plain.add(f.name());
      }
    }
    assertEquals(out.size(), plain.size());
    return plain;
  }

  /** A code whose decision waits and retries (or pauses) at its default scope, if any. */
  private static Optional<RecoveryEntry> waiting(boolean waits) {
    return RecoveryTable.entries().stream()
        .filter(e -> Contract.INSTANCE.exhausted.containsKey(e.actions().get(e.scope())) == waits)
        .findFirst();
  }

  @Test
  void theRetrierWaitsAsDecideSaysThenReturns() throws Exception {
    Optional<RecoveryEntry> entry = waiting(true);
    assumeTrue(entry.isPresent(), "no code waits");
    ErrorPayloadException error = ErrorPayloadException.of(payload(entry.get()));
    List<Duration> slept = new ArrayList<>();
    // No limit on the delay: a registry may ask for longer than the default maximum.
    Retrier retrier =
        Retrier.withDefaults()
            .maxAttempts(3)
            .maxDelay(Duration.ofMillis(Long.MAX_VALUE))
            .jitter(new Random(7))
            .sleeper(slept::add);
    AtomicInteger calls = new AtomicInteger();
    String ok =
        retrier.call(
            () -> {
              if (calls.incrementAndGet() < 3) {
                throw error;
              }
              return "ok";
            });
    assertEquals("ok", ok);
    assertEquals(3, calls.get());
    Random same = new Random(7);
    List<Duration> expected = new ArrayList<>();
    for (long attempt = 1; attempt <= 2; attempt++) {
      expected.add(
          Errors.decide(error.payload().toJson(), attempt, 3, Long.MAX_VALUE, same)
              .delay()
              .orElseThrow());
    }
    assertEquals(expected, slept);

    calls.set(0);
    slept.clear();
    ErrorPayloadException last =
        assertThrows(
            ErrorPayloadException.class,
            () ->
                retrier.call(
                    () -> {
                      calls.incrementAndGet();
                      throw error;
                    }));
    assertSame(error, last);
    assertEquals(3, calls.get());
    assertEquals(2, slept.size());
  }

  @Test
  void theRetrierGivesUpAtOnceOnWhatItMustNotRetry() {
    List<Duration> slept = new ArrayList<>();
    Retrier retrier = Retrier.withDefaults().sleeper(slept::add);
    AtomicInteger calls = new AtomicInteger();
    waiting(false)
        .ifPresent(
            entry -> {
              ErrorPayloadException error = ErrorPayloadException.of(payload(entry));
              assertSame(
                  error,
                  assertThrows(
                      ErrorPayloadException.class,
                      () ->
                          retrier.call(
                              () -> {
                                calls.incrementAndGet();
                                throw error;
                              })));
            });
    IOException io = new IOException("connection reset");
    assertSame(
        io,
        assertThrows(
            IOException.class,
            () ->
                retrier.call(
                    () -> {
                      calls.incrementAndGet();
                      throw io;
                    })));
    assertEquals(waiting(false).isPresent() ? 2 : 1, calls.get());
    assertEquals(List.of(), slept);
    assertThrows(IllegalArgumentException.class, () -> retrier.maxAttempts(0));
  }

  @Test
  void anInterruptedWaitStopsTheRetrier() {
    Optional<RecoveryEntry> entry = waiting(true);
    assumeTrue(entry.isPresent(), "no code waits");
    ErrorPayloadException error = ErrorPayloadException.of(payload(entry.get()));
    Retrier retrier =
        Retrier.withDefaults()
            .maxDelay(Duration.ofMillis(Long.MAX_VALUE))
            .sleeper(
                d -> {
                  throw new InterruptedException();
                });
    assertThrows(
        InterruptedException.class,
        () ->
            retrier.call(
                () -> {
                  throw error;
                }));
  }

  @Test
  void theAsyncRetrierWaitsWithoutBlockingThenCompletes() throws Exception {
    Optional<RecoveryEntry> entry = waiting(true);
    assumeTrue(entry.isPresent(), "no code waits");
    ErrorPayloadException error = ErrorPayloadException.of(payload(entry.get()));
    List<Duration> slept = new ArrayList<>();
    Retrier retrier =
        Retrier.withDefaults()
            .maxAttempts(3)
            .maxDelay(Duration.ofMillis(Long.MAX_VALUE))
            .sleeper(slept::add);
    AtomicInteger calls = new AtomicInteger();
    CompletableFuture<String> ok =
        retrier.callAsync(
            () ->
                calls.incrementAndGet() < 3
                    ? CompletableFuture.failedFuture(error)
                    : CompletableFuture.supplyAsync(() -> "ok"));
    assertEquals("ok", ok.get());
    assertEquals(3, calls.get());
    assertEquals(2, slept.size());
    CompletableFuture<String> failed =
        retrier.callAsync(
            () ->
                CompletableFuture.supplyAsync(
                    () -> {
                      throw error;
                    }));
    ExecutionException thrown = assertThrows(ExecutionException.class, failed::get);
    assertSame(error, thrown.getCause());
    assertEquals(4, slept.size());
  }

  @Test
  void theCaughtErrorCarriesTheStatusTheHeadersAndDecidesByTheResponse() {
    for (RecoveryEntry entry : RecoveryTable.entries()) {
      HttpMessage out = Errors.toHttp(payload(entry));
      Map<String, List<String>> headers = new HashMap<>(headerMap(out));
      headers.put("X-Errgen-Probe", List.of("p-1"));
      ServiceException e =
          assertThrows(
              ServiceException.class,
              () -> Errors.throwIfError(new FakeResponse<>(out.status(), headers, out.body())));
      assertEquals(entry.httpStatus(), e.status());
      assertEquals(Optional.of("p-1"), e.headers().firstValue("x-errgen-probe"));
      assertTrue(e.reading().isPresent());
      assertEquals(
          Errors.decideResponse(e.reading().orElseThrow(), 1, 5, Long.MAX_VALUE, null),
          e.decide(1, 5, Long.MAX_VALUE, null));
      assertEquals(entry.code(), e.errorType());
    }
    // A service's own error carries no response.
    ErrorPayloadException raised = ErrorPayloadException.of(payload(FIRST));
    assertEquals(0, raised.status());
    assertEquals(Map.of(), raised.headers().map());
    assertEquals(Optional.empty(), raised.reading());
    Map<String, List<String>> html = Map.of("Content-Type", List.of("text/html"));
    ServiceException proxy =
        assertThrows(
            ServiceException.class,
            () -> Errors.throwIfError(502, html, "<html><body>502 Bad Gateway</body></html>"));
    assertEquals(502, proxy.status());
    if (!proxy.reading().orElseThrow().claimed()) {
      // The class of the category the registry gives 502, if one; else NoPayloadException.
      assertEquals(CategoryExceptions.ofStatus(502), categoryOfClass(proxy.getClass()));
      assertTrue(proxy instanceof NoPayloadException || proxy instanceof ErrorPayloadException);
      assertEquals(
          List.of(),
          proxy instanceof NoPayloadException n
              ? n.problems()
              : ((ErrorPayloadException) proxy).problems());
      assertEquals(Reason.STATUS_FALLBACK, proxy.decide(1).reason());
      assertEquals(Errors.statusAction(502), proxy.decide(1).action());
      assertEquals("502", proxy.errorType());
    }
    Errors.throwIfError(204, (Map<String, List<String>>) null, (String) null);
  }

  @Test
  void theRetrierRetriesACodelessServerErrorAndTellsTheObserver() throws Exception {
    String page = "<html>Bad Gateway</html>";
    if (Errors.statusAction(502) != Action.RETRY
        || Errors.readHttp(502, List.of(), page, 0).claimed()) {
      return; // this registry does not retry a 502, or reads a code from its status
    }
    List<Duration> slept = new ArrayList<>();
    List<Retrier.Attempt> seen = new ArrayList<>();
    Retrier retrier = Retrier.withDefaults().sleeper(slept::add).onAttempt(seen::add);
    AtomicInteger calls = new AtomicInteger();
    String ok =
        retrier.call(
            () -> {
              if (calls.incrementAndGet() == 1) {
                Errors.throwIfError(502, Map.of(), page);
              }
              return "ok";
            });
    assertEquals("ok", ok);
    assertEquals(2, calls.get());
    assertEquals(1, slept.size());
    assertEquals(1, seen.size());
    assertTrue(seen.get(0).willRetry());
    assertEquals(Reason.STATUS_FALLBACK, seen.get(0).decision().reason());
    assertEquals(Optional.of(slept.get(0)), seen.get(0).decision().delay());
  }

  @Test
  void theRetrierRetriesATransportFailureWhenItMay() throws Exception {
    List<Duration> slept = new ArrayList<>();
    List<String> types = new ArrayList<>();
    Retrier retrier =
        Retrier.withDefaults().sleeper(slept::add).onAttempt(a -> types.add(a.errorType()));
    AtomicInteger calls = new AtomicInteger();
    // Refused: the request never left, so it is sent again whatever the call.
    String ok =
        retrier.call(
            () -> {
              if (calls.incrementAndGet() == 1) {
                throw new ConnectException("refused");
              }
              return "ok";
            });
    assertEquals("ok", ok);
    assertEquals(List.of(Duration.ofMillis(Errors.backoffMs(1))), slept);
    // A timeout after the request left: only an idempotent call is sent again.
    calls.set(0);
    HttpTimeoutException timeout = new HttpTimeoutException("request timed out");
    Retrier.Call<String, IOException> timesOutOnce =
        () -> {
          if (calls.incrementAndGet() == 1) {
            throw timeout;
          }
          return "ok";
        };
    assertSame(timeout, assertThrows(HttpTimeoutException.class, () -> retrier.call(timesOutOnce)));
    calls.set(0);
    assertEquals("ok", retrier.idempotent(true).call(timesOutOnce));
    assertEquals(List.of("refused", "timeout", "timeout"), types);
    Decision unknown = retrier.decide(timeout, 1).orElseThrow();
    assertEquals(Reason.OUTCOME_UNKNOWN, unknown.reason());
    assertEquals(Optional.empty(), retrier.decide(new IllegalStateException(), 1));
  }

  @Test
  void cancellingTheAsyncRetrierStopsFurtherCalls() throws Exception {
    CompletableFuture<Void> wait = new CompletableFuture<>();
    Retrier retrier =
        Retrier.withDefaults()
            .sleeper(
                new Retrier.Sleeper() {
                  @Override
                  public void sleep(Duration delay) {}

                  @Override
                  public CompletableFuture<Void> after(Duration delay) {
                    return wait;
                  }
                });
    AtomicInteger calls = new AtomicInteger();
    CompletableFuture<String> result =
        retrier.callAsync(
            () -> {
              calls.incrementAndGet();
              return CompletableFuture.failedFuture(new ConnectException("refused"));
            });
    assertFalse(result.isDone());
    assertTrue(result.cancel(true));
    wait.complete(null);
    assertEquals(1, calls.get());
  }

  @Test
  void anInputStreamBodyIsReadNoFurtherThanTheLimit() {
    int limit = RecoveryTable.policy().maxBodyBytes();
    HttpMessage out = Errors.toHttp(payload(FIRST));
    byte[] body = out.body().getBytes(StandardCharsets.UTF_8);
    HttpReading small =
        Errors.readHttp(
            new FakeResponse<>(out.status(), headerMap(out), new ByteArrayInputStream(body)));
    assertEquals(FIRST.code(), small.payload().get(wire("code")).asText());
    ByteArrayInputStream endless = new ByteArrayInputStream(new byte[limit * 3]);
    HttpReading large = Errors.readHttp(new FakeResponse<>(500, Map.of(), endless));
    assertNull(large.document());
    assertEquals(limit * 2 - 1, endless.available());
    // An error's stream is closed once read: java.net.http then releases the connection.
    AtomicInteger closed = new AtomicInteger();
    InputStream page =
        new ByteArrayInputStream("<html>502</html>".getBytes(StandardCharsets.UTF_8)) {
          @Override
          public void close() {
            closed.incrementAndGet();
          }
        };
    ServiceException e =
        assertThrows(
            ServiceException.class,
            () -> Errors.throwIfError(new FakeResponse<>(502, Map.of(), page)));
    assertEquals(502, e.status());
    assertEquals(1, closed.get());
  }

  @Test
  void jacksonReadsAndWritesTheWireNames() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    ErrorPayload p = payload(FIRST);
    JsonNode written = mapper.readTree(mapper.writeValueAsString(p));
    assertEquals(p.toJson(), written);
    assertEquals(p, mapper.readValue(p.toString(), ErrorPayload.class));
  }

  @Test
  void httpRoundTrip() {
    // An XML body is the API's own, not errgen's payload: the reading builds the payload from the
    // code read and its registry row, and reads the delay in the API's unit.
    boolean xml = Contract.INSTANCE.response.get("format").asText().equals("xml");
    for (boolean problem : new boolean[] {false, true}) {
      for (RecoveryEntry entry : RecoveryTable.entries()) {
        ErrorPayload p = payload(entry);
        HttpMessage out = Errors.toHttp(p, problem);
        assertEquals(entry.httpStatus(), out.status());
        assertEquals(Boolean.toString(entry.retryable()), out.header("x-should-retry"));
        ObjectNode expected = p.toJson();
        if (entry.retryable() && entry.retryAfterMs() != null) {
          assertEquals(
              Long.toString((entry.retryAfterMs() + 999) / 1000), out.header("retry-after"));
          expected.put(wire("retry_after_ms"), entry.retryAfterMs());
        }
        JsonNode read = Errors.fromHttp(out);
        // No maximum delay: a code's own delay may exceed the default (Stripe's, a hostile one's).
        assertEquals(
            Reason.REGISTRY, Errors.decide(read, 1, 5, Long.MAX_VALUE).reason(), entry.code());
        if (xml) {
          assertEquals(p.code(), read.get(wire("code")).asText());
          assertEquals(p.correlationId(), read.get(wire("correlation_id")).asText());
        } else {
          assertEquals(expected, read);
        }
      }
    }
  }

  @Test
  void toHttpWritesOnlyVisibleAsciiHeaderValues() {
    String[] hostile = {
      "c-1\r\nSet-Cookie: a=b", "c\u0000d", "\u00e9t\u00e9", "x".repeat(100_000), "\u2028"
    };
    // The hostile values over the first code of each category (what a header carries follows
    // from the category and the API's shape, not the code): 5,000 codes times a 100,000-character
    // value took 20 s. The clean value is checked on every code.
    Set<String> categories = new HashSet<>();
    for (RecoveryEntry entry : RecoveryTable.entries()) {
      for (String bad : categories.add(entry.category()) ? hostile : new String[0]) {
        ErrorPayload p =
            Errors.newError(
                entry.knownCode(), bad, b -> b.message(bad).resourceId(bad).scope(entry.scope()));
        HttpMessage out = Errors.toHttp(p);
        for (Map.Entry<String, String> h : out.headers()) {
          assertTrue(Errors.writable(h.getValue()), h.getKey() + " carries an unsafe value");
        }
        // Where the API's shape puts a fact in a header, a clean value is written there.
        for (String fact : List.of("correlation_id", "message", "resource_id")) {
          for (JsonNode source : Contract.INSTANCE.response.get(fact)) {
            if (source.get("in").asText().equals("header")) {
              assertNull(out.header(source.get("name").asText()), fact);
              break;
            }
          }
        }
      }
      HttpMessage clean = Errors.toHttp(payload(entry));
      for (JsonNode source : Contract.INSTANCE.response.get("correlation_id")) {
        if (source.get("in").asText().equals("header")) {
          assertEquals("c-1", clean.header(source.get("name").asText()));
          break;
        }
      }
    }
    assertFalse(Errors.writable(""));
    assertTrue(Errors.writable("x".repeat(RecoveryTable.policy().maxHeaderChars())));
    assertFalse(Errors.writable("x".repeat(RecoveryTable.policy().maxHeaderChars() + 1)));
    assertTrue(Errors.writable(" ~"));
    assertFalse(Errors.writable("\u007f"));
  }

  @Test
  void javaNetHttpResponse() {
    RecoveryEntry retryable =
        RecoveryTable.entries().stream()
            .filter(e -> e.retryable() && e.scopes().contains(Scope.REQUEST))
            .findFirst()
            .orElse(null);
    assumeTrue(retryable != null, "no retryable code");
    ErrorPayload p = Errors.newError(retryable.knownCode(), "c-2", b -> b.scope(Scope.REQUEST));
    ObjectNode withoutDelay = p.toJson();
    withoutDelay.remove(wire("retry_after_ms"));
    HttpResponse<String> response =
        new FakeResponse<>(503, Map.of("Retry-After", List.of(" 7 ")), withoutDelay.toString());
    JsonNode raw = Errors.fromHttp(response);
    assertEquals(7000, raw.get(wire("retry_after_ms")).asLong());
    assertEquals(7000L, Errors.decide(raw, 1, 5).delayMs());
    assertEquals(Optional.of(Duration.ofSeconds(7)), Errors.decide(raw, 1, 5).delay());
    assertEquals(Optional.of("c-2"), Errors.decide(raw, 1, 5).optionalCorrelationId());
    assertEquals(Optional.of(7000L), Errors.decide(raw, 1, 5).optionalDelayMs());
    assertEquals(Optional.empty(), Errors.decide(raw, 5, 5).delay());
  }

  @Test
  void mcpRoundTrip() {
    ErrorPayload p = payload(FIRST);
    ObjectNode result = Errors.toMcpResult(p);
    assertTrue(result.get("isError").booleanValue());
    assertEquals(p.toJson(), Errors.fromMcpResult(result));
    result.remove("structuredContent");
    assertEquals(p.toJson(), Errors.fromMcpResult(result));
    assertTrue(Errors.fromMcpResult(Json.NODES.textNode("x")).isNull());
  }

  @Test
  void aLoneSurrogateIsWrittenAsTheReplacementCharacter() {
    // Vectors pin the reading; a Java string given to toHttp may hold one too, and the body (JSON
    // or XML) must still encode as UTF-8 (as Python's to_http writes it).
    ErrorPayload p =
        Errors.newError(
            Code.fromWire(FIRST.code()),
            "c-\ud800",
            b -> b.message("\udc00x\ud83d\ude00").resourceId("r"));
    String body = Errors.toHttp(p).body();
    // Whatever of them the registry's body shape holds, no lone surrogate is left in it.
    assertEquals(Json.mended(body), body);
    assertEquals(body, new String(body.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
  }

  @Test
  void parseNeverThrows() {
    Random random = new Random(17);
    for (int i = 0; i < 2000; i++) {
      byte[] junk = new byte[random.nextInt(40)];
      random.nextBytes(junk);
      Parsed parsed = Errors.parse(junk);
      assertFalse(parsed.ok() && parsed.payload() == null);
      String text = new String(junk, StandardCharsets.ISO_8859_1);
      assertSame(Verdict.INVALID, Errors.parse("{\"x\":" + text).verdict());
      Errors.decide(Errors.fromHttp(500, List.of(), junk, 0), 1, 5);
    }
    assertSame(Verdict.INVALID, Errors.parse((JsonNode) null).verdict());
    String deep = "[".repeat(65) + "]".repeat(65);
    assertTrue(Errors.parse(deep).raw().isTextual());
  }

  @Test
  void unknownCodesAreKept() {
    ObjectNode raw = payload(FIRST).toJson();
    raw.put(wire("code"), "CODE_FROM_A_NEWER_SERVER");
    Contract.INSTANCE.fields.stream().filter(FieldSpec::hint).forEach(f -> raw.remove(f.wire()));
    Parsed parsed = Errors.parse(raw);
    assertSame(Verdict.UNKNOWN, parsed.verdict());
    assertEquals("CODE_FROM_A_NEWER_SERVER", parsed.payload().code());
    assertSame(Code.UNKNOWN_TO_SDK_VERSION, parsed.payload().knownCode());
    assertEquals(Reason.UNKNOWN_CODE, Errors.decide(raw, 1, 5).reason());
  }

  @Test
  void didYouMeanOnlySuggestsAllowedValues() {
    List<String> allowed = List.of("acme-prod", "acme-dev", "globex", "acme-prd");
    assertEquals(List.of("acme-prd", "acme-prod"), Errors.didYouMean("acme-prdo", allowed));
    assertEquals(List.of(), Errors.didYouMean("initech", allowed));
    assertEquals(List.of("acme-prd"), Errors.didYouMean("acme-prdo", allowed, 1));
  }

  @Test
  void headerDelays() {
    assertEquals(1500L, delay("retry-after-ms", "1500"));
    assertEquals(2000L, delay("Retry-After", "2"));
    assertNull(delay("Retry-After", "-2"));
    // Decimal seconds (Microsoft Graph's 2.128), rounded up to a whole millisecond, exactly.
    assertEquals(1500L, delay("Retry-After", "1.5"));
    assertEquals(2128L, delay("Retry-After", "2.128"));
    assertEquals(1001L, delay("Retry-After", "1.0001"));
    assertEquals(64570L, delay("Retry-After", "64.57"));
    assertNull(delay("Retry-After", "1.0000000001"));
    assertNull(delay("Retry-After", "1."));
    assertNull(delay("Retry-After", ".5"));
    assertNull(delay("Retry-After", "1.5e3"));
    assertNull(delay("Retry-After", "Sunday, 06-Nov-94 08:49:37 GMT"));
    assertEquals(2000L, delay("Retry-After", "Thu, 01 Jan 1970 00:00:03 GMT"));
    assertEquals(0L, delay("Retry-After", "Thu, 01 Jan 1970 00:00:00 GMT"));
    assertNull(delay("Retry-After", "Thu, 30 Feb 1970 00:00:00 GMT"));
    assertEquals(59000L, delay("Retry-After", "Thu, 01 Jan 1970 00:00:60 GMT"));
    long max = RecoveryTable.policy().maxDelayValueMs();
    assertEquals(max, delay("retry-after-ms", "9".repeat(40)));
    assertEquals(max, delay("Retry-After", "9".repeat(40)));
  }

  @Test
  void transportFailuresAreNamedFromTheirExceptions() {
    assertEquals(
        Optional.of(TransportFailure.REFUSED), TransportFailure.of(new ConnectException()));
    assertEquals(
        Optional.of(TransportFailure.REFUSED), TransportFailure.of(new UnknownHostException("x")));
    assertEquals(
        Optional.of(TransportFailure.REFUSED),
        TransportFailure.of(new HttpConnectTimeoutException("connect")));
    assertEquals(
        Optional.of(TransportFailure.TLS), TransportFailure.of(new SSLHandshakeException("h")));
    assertEquals(
        Optional.of(TransportFailure.TIMEOUT), TransportFailure.of(new HttpTimeoutException("t")));
    assertEquals(
        Optional.of(TransportFailure.TIMEOUT),
        TransportFailure.of(new CompletionException(new SocketTimeoutException())));
    assertEquals(
        Optional.of(TransportFailure.REFUSED),
        TransportFailure.of(new IOException("wrapped", new ConnectException())));
    assertEquals(
        Optional.of(TransportFailure.RESET),
        TransportFailure.of(new IOException("HTTP/1.1 header parser received no bytes")));
    assertEquals(
        Optional.of(TransportFailure.RESET),
        TransportFailure.of(new UncheckedIOException(new EOFException())));
    assertEquals(Optional.empty(), TransportFailure.of(new IllegalStateException()));
    assertEquals(Optional.empty(), TransportFailure.of(new InterruptedException()));
    assertSame(TransportFailure.RESET, TransportFailure.fromWire("something-else"));
    assertSame(TransportFailure.TLS, TransportFailure.fromWire("tls"));
  }

  @Test
  void aTransportFailureIsRetriedOnlyWhenTheRequestNeverLeftOrMayBeRepeated() {
    Decision unknown = Errors.decideFailure(TransportFailure.RESET, false, 1);
    assertEquals(Action.ESCALATE, unknown.action());
    assertEquals(Reason.OUTCOME_UNKNOWN, unknown.reason());
    assertNull(unknown.delayMs());
    for (TransportFailure failure : TransportFailure.values()) {
      Decision d = Errors.decideFailure(failure, true, 1);
      assertEquals(Action.RETRY, d.action(), failure.wire());
      assertEquals(Reason.TRANSPORT_FAILURE, d.reason());
      assertEquals(Errors.backoffMs(1), d.delayMs());
      assertEquals(failure.neverSent(), Errors.decideFailure(failure, false, 1).equals(d));
    }
    long last = RecoveryTable.policy().defaultMaxAttempts();
    assertEquals(
        Reason.ATTEMPTS_EXHAUSTED,
        Errors.decideFailure("tls", true, last, last, 1000, null).reason());
  }

  @Test
  void aResponseWithoutAPayloadIsDecidedByItsStatus() {
    String html = "<html><body><h1>502 Bad Gateway</h1></body></html>";
    HttpReading bad = Errors.readHttp(502, List.of(), html, 0);
    // Unless this registry reads a code from the status or the markup.
    if (!bad.claimed()) {
      Decision d = Errors.decideResponse(bad, 1);
      assertEquals(Reason.STATUS_FALLBACK, d.reason());
      assertEquals(Errors.statusAction(502), d.action());
    }
    HttpReading limited = Errors.readHttp(429, List.of(Map.entry("Retry-After", "2.5")), "", 0);
    if (!limited.claimed()) {
      Decision wait = Errors.decideResponse(limited, 1, 5, 60_000);
      assertEquals(Errors.statusAction(429), wait.action());
      assertEquals(Reason.STATUS_FALLBACK, wait.reason());
      if (Contract.INSTANCE.exhausted.containsKey(wait.action())) {
        assertEquals(2500L, wait.delayMs());
      }
    }
    assertEquals(Action.ESCALATE, Errors.statusAction(99));
    assertEquals(Action.ESCALATE, Errors.statusAction(600));
    // A body in the API's own error shape that breaks the contract stays invalid.
    ObjectNode broken = payload(FIRST).toJson();
    broken.put(wire("retryable"), "yes");
    // An array envelope's first entry holding every required field is the payload, the API's own
    // entries before it notwithstanding.
    String inner =
        Contract.INSTANCE.envelopeArray
            ? "[{\"" + wire("code") + "\":\"X\"}," + broken + "]"
            : broken.toString();
    String claimed =
        Contract.INSTANCE.envelope == null
            ? broken.toString()
            : "{\"" + Contract.INSTANCE.envelope + "\":" + inner + "}";
    HttpReading invalid = Errors.readHttp(502, List.of(), claimed, 0);
    if (invalid.claimed()) {
      assertEquals(Reason.INVALID_PAYLOAD, Errors.decideResponse(invalid, 1).reason());
    }
    // Thrown, it takes the class of its status's category, if any, and keeps its problems.
    for (int status : new int[] {429, 502}) {
      if (Errors.readHttp(status, List.of(), claimed, 0).claimed()) {
        ServiceException e = Errors.errorOf(status, Map.of(), claimed).orElseThrow();
        assertEquals(CategoryExceptions.ofStatus(status), categoryOfClass(e.getClass()));
        List<Problem> problems =
            e instanceof NoPayloadException n
                ? n.problems()
                : assertInstanceOf(ErrorPayloadException.class, e).problems();
        assertFalse(problems.isEmpty());
        assertEquals(Reason.INVALID_PAYLOAD, e.decide(1).reason());
      }
    }
  }

  private static Long delay(String name, String value) {
    List<Map.Entry<String, String>> headers = List.of(Map.entry(name, value));
    return Reading.delayMs(null, headers, 1000, Contract.INSTANCE.response.get("own_retry_after"));
  }

  private static HttpReading hostile(String body) {
    HttpReading reading = Errors.readHttp(500, List.of(), body, 0);
    assertTrue(reading.error());
    Errors.decide(reading.payload(), 1, 5);
    Errors.decideResponse(reading, 1);
    return reading;
  }

  @Test
  void hostileResponsesAreDecidedWithinTheLimits() {
    // Each hostile body meets its limit before any costly work, and what the reading keeps shows
    // which limit: deterministic, where a wall-clock bound failed on a loaded machine (how long
    // the reading takes is for bench/ to measure).
    Policy policy = RecoveryTable.policy();
    int size = policy.maxBodyBytes();
    // Nesting past max_json_depth or max_xml_depth, or a body past max_body_bytes: no document.
    List<String> unread =
        List.of(
            "[".repeat(size / 2) + "]".repeat(size / 2),
            "{\"a\":".repeat(size / 5),
            "<a>".repeat(size / 3),
            "<a>".repeat(size / 6) + "</a>".repeat(size / 6),
            "1".repeat(size + 1));
    for (String body : unread) {
      assertNull(hostile(body).document(), body.substring(0, 8));
    }
    // A number longer than max_number_chars is never converted (big-number parsing is quadratic):
    // it reads as out of range, where a conversion would give its exact value.
    assertEquals(Double.POSITIVE_INFINITY, hostile("1".repeat(size)).document().doubleValue());
    assertEquals(
        Double.NEGATIVE_INFINITY, hostile("-" + "1".repeat(size - 1)).document().doubleValue());
    JsonNode inObject = hostile("{\"n\":" + "1".repeat(size - 6) + "}").document();
    assertEquals(Double.POSITIVE_INFINITY, inObject.get("n").doubleValue());
    assertEquals(
        size - 2, hostile("\"" + "7".repeat(size - 2) + "\"").document().textValue().length());
    hostile("<a " + "b='1' ".repeat(size / 7) + "/>");
    List<Map.Entry<String, String>> many = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      many.add(Map.entry("x-" + i, "v"));
    }
    many.add(Map.entry("retry-after-ms", "5"));
    assertNull(Reading.header(many, "retry-after-ms"));
    String longValue = "1".repeat(policy.maxHeaderChars() + 1);
    assertNull(Reading.header(List.of(Map.entry("Retry-After-Ms", longValue)), "retry-after-ms"));
    assertEquals("5", Reading.header(List.of(Map.entry("Retry-After-Ms", "5")), "retry-after-ms"));
  }

  private static JsonNode bodySource(Object... path) {
    ObjectNode source = Json.NODES.objectNode().put("in", "body");
    var steps = source.putArray("path");
    for (Object step : path) {
      if (step instanceof Integer i) {
        steps.add(i);
      } else {
        steps.add((String) step);
      }
    }
    return source;
  }

  @Test
  void theKnownCodeWinsOverAnUnknownOneAtAnEarlierSourceOrEntry() {
    String known = FIRST.code();
    String unknown = "code_from_a_newer_server";
    assertTrue(Reading.known(known));
    assertFalse(Reading.known(unknown));
    List<Map.Entry<String, String>> none = List.of();
    // Microsoft Graph: a generic outer code, then the specific innerError.code this SDK knows.
    JsonNode nested =
        Json.NODES
            .arrayNode()
            .add(bodySource("error", "code"))
            .add(bodySource("error", "innerError", "code"));
    ObjectNode graph = Json.NODES.objectNode();
    ObjectNode error = graph.putObject("error").put("code", unknown);
    error.putObject("innerError").put("code", known);
    assertEquals(known, Reading.readCode(nested, graph, none, 400));
    // No source holds a known code: the first usable one, as before.
    error.putObject("innerError").put("code", "another_new_code");
    assertEquals(unknown, Reading.readCode(nested, graph, none, 400));
    // Through `[*]`: the first known entry of the array, else its first usable one.
    JsonNode each = Json.NODES.arrayNode().add(bodySource("errors", -1, "code"));
    ObjectNode google = Json.NODES.objectNode();
    var errors = google.putArray("errors");
    errors.addObject().put("code", unknown);
    errors.addObject().put("reason", known);
    assertEquals(unknown, Reading.readCode(each, google, none, 400));
    errors.addObject().put("code", known);
    assertEquals(known, Reading.readCode(each, google, none, 400));
    // A later status source is known only when the registry knows the status as a code.
    JsonNode status =
        Json.NODES
            .arrayNode()
            .add(bodySource("code"))
            .add(Json.NODES.objectNode().put("in", "status"));
    ObjectNode flat = Json.NODES.objectNode().put("code", unknown);
    String expected = Reading.known("503") ? "503" : unknown;
    assertEquals(expected, Reading.readCode(status, flat, none, 503));
  }

  @Test
  void everyDecisionCarriesTheCodeAsTheApiSendsIt() {
    for (RecoveryEntry entry : RecoveryTable.entries()) {
      Decision d = Errors.decide(payload(entry).toJson(), 1, 5, Long.MAX_VALUE);
      assertEquals(entry.code(), d.code());
      assertEquals(Reading.WIRE_CODE.getOrDefault(entry.code(), entry.code()), d.wireCode());
      assertEquals(d.wireCode(), d.toMap().get("wire_code"));
    }
    // Each code several registry codes share (OpenAI's rate_limit_exceeded) is every one's wire
    // code.
    Contract.INSTANCE
        .response
        .get("variants")
        .properties()
        .forEach(
            e ->
                e.getValue()
                    .forEach(
                        row -> {
                          RecoveryEntry entry = Contract.INSTANCE.codes.get(row.get(0).asText());
                          Decision d = Errors.decide(payload(entry).toJson(), 1, 5, Long.MAX_VALUE);
                          assertEquals(e.getKey(), d.wireCode(), entry.code());
                        }));
    ObjectNode newer = payload(FIRST).toJson().put(wire("code"), "code_from_a_newer_server");
    assertEquals("code_from_a_newer_server", Errors.decide(newer, 1).wireCode());
    Decision invalid = Errors.decide(Json.NODES.objectNode(), 1);
    assertNull(invalid.code());
    assertNull(invalid.wireCode());
    assertTrue(invalid.optionalWireCode().isEmpty());
    assertNull(Errors.decideFailure(TransportFailure.fromWire("reset"), true, 1).wireCode());
    // The constructor without a wire code derives it from the code.
    Decision old =
        new Decision(
            Action.FIX,
            Reason.REGISTRY,
            FIRST.code(),
            null,
            null,
            null,
            List.of(),
            List.of(),
            Map.of());
    assertEquals(Reading.WIRE_CODE.getOrDefault(FIRST.code(), FIRST.code()), old.wireCode());
    List<String> keys = new ArrayList<>(old.toMap().keySet());
    assertEquals(keys.indexOf("code") + 1, keys.indexOf("wire_code"));
  }

  @Test
  void aLongNumberIsOutOfRangeButTheDocumentReads() {
    String digits = "1".repeat(RecoveryTable.policy().maxNumberChars() + 1);
    JsonNode document = Json.read("{\"n\":" + digits + ",\"m\":-" + digits + "}").orElseThrow();
    assertEquals(Double.POSITIVE_INFINITY, document.get("n").doubleValue());
    assertEquals(Double.NEGATIVE_INFINITY, document.get("m").doubleValue());
    String fits = "1".repeat(RecoveryTable.policy().maxNumberChars());
    assertEquals(fits, Json.read(fits).orElseThrow().bigIntegerValue().toString());
  }

  private static Map<String, List<String>> headerMap(HttpMessage message) {
    Map<String, List<String>> headers = new HashMap<>();
    message.headers().forEach(h -> headers.put(h.getKey(), List.of(h.getValue())));
    return headers;
  }

  private record FakeResponse<T>(int statusCode, Map<String, List<String>> headerMap, T body)
      implements HttpResponse<T> {
    @Override
    public HttpRequest request() {
      return HttpRequest.newBuilder(URI.create("http://localhost/")).build();
    }

    @Override
    public Optional<HttpResponse<T>> previousResponse() {
      return Optional.empty();
    }

    @Override
    public HttpHeaders headers() {
      return HttpHeaders.of(headerMap, (a, b) -> true);
    }

    @Override
    public Optional<SSLSession> sslSession() {
      return Optional.empty();
    }

    @Override
    public URI uri() {
      return request().uri();
    }

    @Override
    public HttpClient.Version version() {
      return HttpClient.Version.HTTP_1_1;
    }
  }
}
