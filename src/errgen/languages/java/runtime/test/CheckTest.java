package errgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Errors#check} and the byte reader it uses agree with the calls they stand for. */
class CheckTest {
  private static String wire(String name) {
    return Contract.INSTANCE.wire(name);
  }

  // Valid payloads of the first codes and, from each, a broken one of every kind the verdicts
  // tell apart (plus JSON that is no object at all).
  private static List<JsonNode> payloads() {
    List<JsonNode> out = new ArrayList<>();
    List<RecoveryEntry> entries = RecoveryTable.entries();
    for (RecoveryEntry entry : entries.subList(0, Math.min(entries.size(), 40))) {
      ObjectNode valid =
          Errors.newError(
                  entry.knownCode(),
                  "c-1",
                  b -> entry.scope() == Scope.RESOURCE ? b.resourceId("r-1") : b)
              .toJson();
      out.add(valid);
      out.add(valid.deepCopy().put(wire("retryable"), !entry.retryable()));
      out.add(valid.deepCopy().put(wire("retry_after_ms"), 250));
      out.add(valid.deepCopy().put(wire("retry_after_ms"), 2.0));
      out.add(valid.deepCopy().put(wire("code"), "NOT_A_CODE_OF_THIS_REGISTRY"));
      out.add(valid.deepCopy().put(wire("category"), "not_a_category"));
      out.add(valid.deepCopy().put("not_a_field", 1));
      out.add(valid.deepCopy().put(wire("scope"), "resource"));
      out.add(valid.deepCopy().put(wire("scope"), "nowhere"));
      out.add(valid.deepCopy().put(wire("message"), 7));
      ObjectNode hints = valid.deepCopy();
      hints.putObject(wire("searched")).put("q", "x").put("n", 3).put("ok", true);
      hints.putArray(wire("did_you_mean")).add("a").add("b");
      hints.putArray(wire("accepted")).add("c");
      out.add(hints);
      ObjectNode missing = valid.deepCopy();
      missing.remove(wire("correlation_id"));
      out.add(missing);
    }
    out.add(Json.NODES.arrayNode().add(1));
    out.add(Json.NODES.textNode("not an object"));
    out.add(Json.NODES.nullNode());
    return out;
  }

  @Test
  void checkGivesValidatesProblemsAndDecidesDecision() {
    for (JsonNode raw : payloads()) {
      String text = Json.write(raw);
      for (long attempt : new long[] {1, 2, 1_000}) {
        Checked checked = Errors.check(raw, attempt);
        assertEquals(Errors.validate(raw), checked.problems(), text);
        assertEquals(Errors.decide(raw, attempt), checked.decision(), text);
        assertEquals(checked.problems().isEmpty(), checked.valid(), text);
        assertEquals(raw, checked.raw(), text);
        assertEquals(checked, Errors.check(text, attempt), text);
        assertEquals(checked, Errors.check(text.getBytes(StandardCharsets.UTF_8), attempt), text);
      }
      Checked limited = Errors.check(raw, 2, 2, 0, null);
      assertEquals(Errors.decide(raw, 2, 2, 0), limited.decision(), text);
    }
  }

  @Test
  void checkOfTextThatIsNotJsonIsAnInvalidPayload() {
    for (byte[] body :
        new byte[][] {
          "not json".getBytes(StandardCharsets.UTF_8),
          {(byte) 0xC3},
          {},
          "{} {}".getBytes(StandardCharsets.UTF_8)
        }) {
      Checked checked = Errors.check(body, 1);
      assertFalse(checked.valid());
      assertEquals(ProblemId.NOT_AN_OBJECT, checked.problems().get(0).id());
      assertEquals(Reason.INVALID_PAYLOAD, checked.decision().reason());
      assertEquals(Errors.parse(body).raw(), checked.raw());
    }
  }

  // What the strict decoder makes of the bytes, then Jackson of the text: the reader's old way.
  private static Optional<JsonNode> decodedThenRead(byte[] bytes) {
    return Json.utf8(bytes).flatMap(Json::read);
  }

  @Test
  void bytesReadAsTheirStrictlyDecodedText() {
    List<byte[]> bodies = new ArrayList<>();
    for (String text :
        List.of(
            "{\"a\":\"\u00e9\u20ac\ud83d\ude00\"}",
            "{\"\u00e9\":[1,2.5,-0.0,1e400,\"\\u0000\"]}",
            "\ufeff{}",
            "{}\u0000",
            "\u0000{}",
            "[\"\u2028\"]",
            " 12 ",
            "")) {
      bodies.add(text.getBytes(StandardCharsets.UTF_8));
    }
    bodies.add("{}".getBytes(StandardCharsets.UTF_16LE)); // Jackson alone would guess UTF-16
    bodies.add("{}".getBytes(StandardCharsets.UTF_16BE));
    bodies.add(new byte[] {'{', '}', 0, 0});
    int[][] malformed = {
      {0xC0, 0x80}, // overlong NUL
      {0xC1, 0xBF}, // overlong
      {0xE0, 0x80, 0xAF}, // overlong
      {0xED, 0xA0, 0x80}, // a surrogate
      {0xF4, 0x90, 0x80, 0x80}, // past U+10FFFF
      {0xF5, 0x80, 0x80, 0x80},
      {0xE2, 0x82}, // cut short
      {0x80}, // a lone continuation byte
      {0xFF},
      {0xEF, 0xBF, 0xBF}, // U+FFFF: well formed
      {0xF0, 0x90, 0x80, 0x80}, // U+10000: well formed
    };
    for (int[] sequence : malformed) {
      byte[] body = new byte[sequence.length + 4];
      body[0] = '[';
      body[1] = '"';
      for (int i = 0; i < sequence.length; i++) {
        body[i + 2] = (byte) sequence[i];
      }
      body[body.length - 2] = '"';
      body[body.length - 1] = ']';
      bodies.add(body);
    }
    for (byte[] body : bodies) {
      String shown = java.util.Arrays.toString(body);
      assertEquals(decodedThenRead(body), Json.read(body), shown);
      // The fast path is taken only for bytes the strict decoder accepts.
      assertTrue(!Json.plainUtf8(body) || Json.utf8(body).isPresent(), shown);
    }
    assertTrue(Json.read("{}".getBytes(StandardCharsets.UTF_16LE)).isEmpty());
    assertTrue(Json.plainUtf8(bodies.get(0)));
    assertTrue(Json.plainUtf8(bodies.get(bodies.size() - 1)));
    assertFalse(Json.plainUtf8(bodies.get(2))); // the byte-order mark
  }
}
