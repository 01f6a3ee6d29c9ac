package errgen.runtime;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * JSON in and out, the same way in every errgen SDK: text that is not exactly one JSON value, or
 * nests deeper than the policy's limit, is not JSON; output is compact, with the escapes and number
 * spellings of Python's {@code json.dumps}, so two SDKs print the same bytes.
 */
public final class Json {
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final Policy LIMITS = Contract.INSTANCE.policy;
  // Every parse is bounded by the policy: no text, string, name or number longer than a body, no
  // nesting past maxJsonDepth. A number longer than maxNumberChars is then read as text but never
  // converted (no quadratic big-number parsing): it is out of range, like 1e400.
  // Field names are neither interned nor kept in a symbol table: a body of many distinct names
  // (a large `searched`) costs one string each, not a growing table (twice as fast at 1 MB), and
  // never fills the JVM's string pool.
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
          .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(LIMITS.maxJsonDepth())
                  .maxNumberLength(LIMITS.maxBodyBytes())
                  .maxStringLength(LIMITS.maxBodyBytes())
                  .maxNameLength(LIMITS.maxBodyBytes())
                  .build())
          .build();

  private Json() {}

  /** The JSON value of a text, or empty when the text is not exactly one (bounded) JSON value. */
  public static Optional<JsonNode> read(String text) {
    try (JsonParser parser = FACTORY.createParser(text)) {
      return whole(parser);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  // The parser's one value, or empty when there is none or something follows it.
  private static Optional<JsonNode> whole(JsonParser parser) throws IOException {
    if (parser.nextToken() == null) {
      return Optional.empty();
    }
    JsonNode value = value(parser);
    return parser.nextToken() == null ? Optional.of(value) : Optional.empty();
  }

  // The parser's current value as a tree; nesting is bounded by the factory's constraints.
  private static JsonNode value(JsonParser parser) throws IOException {
    switch (parser.currentToken()) {
      case START_OBJECT -> {
        ObjectNode object = NODES.objectNode();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = mended(parser.currentName());
          parser.nextToken();
          object.set(name, value(parser));
        }
        return object;
      }
      case START_ARRAY -> {
        ArrayNode array = NODES.arrayNode();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(parser));
        }
        return array;
      }
      case VALUE_STRING -> {
        return NODES.textNode(mended(parser.getText()));
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return number(parser);
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return NODES.booleanNode(parser.getBooleanValue());
      }
      case VALUE_NULL -> {
        return NODES.nullNode();
      }
      default -> throw new IOException("not JSON: " + parser.currentToken());
    }
  }

  private static JsonNode number(JsonParser parser) throws IOException {
    if (parser.getTextLength() > LIMITS.maxNumberChars()) {
      boolean negative = parser.getTextCharacters()[parser.getTextOffset()] == '-';
      return NODES.numberNode(negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
    }
    if (parser.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
      return NODES.numberNode(parser.getDoubleValue());
    }
    return switch (parser.getNumberType()) {
      case INT -> NODES.numberNode(parser.getIntValue());
      case LONG -> NODES.numberNode(parser.getLongValue());
      default -> NODES.numberNode(parser.getBigIntegerValue());
    };
  }

  /**
   * {@code s} with each half of a surrogate pair whose other half is missing as U+FFFD: a JSON
   * escape such as {@code "\\ud800"} reads so in every SDK, as no UTF-8 text can hold it.
   */
  static String mended(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        return mended(s, i);
      }
    }
    return s;
  }

  private static String mended(String s, int from) {
    StringBuilder out = new StringBuilder(s.length()).append(s, 0, from);
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        out.append(c).append(s.charAt(++i));
      } else {
        out.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return out.toString();
  }

  /** As {@link #read(String)}, for bytes: invalid UTF-8 is not JSON. */
  public static Optional<JsonNode> read(byte[] bytes) {
    if (!plainUtf8(bytes)) {
      return utf8(bytes).flatMap(Json::read);
    }
    // Parsed from the bytes themselves: no decoded copy of the text.
    try (JsonParser parser = FACTORY.createParser(bytes)) {
      return whole(parser);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;
  private static final long LOW_BITS = 0x7F7F7F7F7F7F7F7FL;

  // Whether eight bytes are all 1..127: no high bit set, and adding 127 to each (no carry out of a
  // byte below 128) sets every high bit, which only a zero byte would not.
  private static boolean ascii(long word) {
    return (word & HIGH_BITS) == 0 && ((word + LOW_BITS) & HIGH_BITS) == HIGH_BITS;
  }

  /**
   * Whether Jackson's byte parser reads these bytes as exactly the text the strict decoder gives:
   * well-formed UTF-8 (RFC 3629: no overlong form, surrogate or code point past U+10FFFF) with no
   * NUL byte (from which Jackson would guess UTF-16 or UTF-32; a NUL is never in JSON text) and no
   * byte-order mark. Anything else is read through the strict decoder, as before.
   */
  static boolean plainUtf8(byte[] bytes) {
    int n = bytes.length;
    if (n >= 3 && bytes[0] == (byte) 0xEF && bytes[1] == (byte) 0xBB && bytes[2] == (byte) 0xBF) {
      return false;
    }
    int i = 0;
    while (i < n) {
      if (i + 8 <= n && ascii((long) WORDS.get(bytes, i))) {
        i += 8;
        continue;
      }
      int lead = bytes[i];
      if (lead > 0) {
        i++;
        continue;
      }
      lead &= 0xFF;
      int more;
      int low = 0x80;
      int high = 0xBF;
      if (lead >= 0xC2 && lead <= 0xDF) {
        more = 1;
      } else if (lead >= 0xE0 && lead <= 0xEF) {
        more = 2;
        low = lead == 0xE0 ? 0xA0 : low;
        high = lead == 0xED ? 0x9F : high;
      } else if (lead >= 0xF0 && lead <= 0xF4) {
        more = 3;
        low = lead == 0xF0 ? 0x90 : low;
        high = lead == 0xF4 ? 0x8F : high;
      } else {
        return false; // NUL, a continuation byte, C0, C1 or F5..FF
      }
      if (i + more >= n) {
        return false;
      }
      int second = bytes[i + 1] & 0xFF;
      if (second < low || second > high) {
        return false;
      }
      for (int k = 2; k <= more; k++) {
        int next = bytes[i + k] & 0xFF;
        if (next < 0x80 || next > 0xBF) {
          return false;
        }
      }
      i += more + 1;
    }
    return true;
  }

  /** The text of a body: its JSON value, else the text itself as a JSON string. */
  static JsonNode readOrText(String text) {
    return read(text).orElseGet(() -> TextNode.valueOf(text));
  }

  // Not JSON: the text, as decoded (malformed UTF-8 replaced).
  static JsonNode readOrText(byte[] bytes) {
    return read(bytes).orElseGet(() -> TextNode.valueOf(new String(bytes, StandardCharsets.UTF_8)));
  }

  static Optional<String> utf8(byte[] bytes) {
    try {
      return Optional.of(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  /** Compact JSON text of a tree, as Python's {@code json.dumps(ensure_ascii=False)} spells it. */
  public static String write(JsonNode node) {
    StringBuilder out = new StringBuilder();
    write(node, out);
    return out.toString();
  }

  /** Compact JSON text of plain Java values (maps, lists, strings, numbers, booleans, null). */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    writeValue(value, out);
    return out.toString();
  }

  private static void write(JsonNode node, StringBuilder out) {
    if (node.isObject()) {
      out.append('{');
      Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        string(e.getKey(), out);
        out.append(':');
        write(e.getValue(), out);
        if (it.hasNext()) {
          out.append(',');
        }
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(node.get(i), out);
      }
      out.append(']');
    } else if (node.isTextual()) {
      string(node.textValue(), out);
    } else if (node.isIntegralNumber()) {
      out.append(node.bigIntegerValue());
    } else if (node.isNumber()) {
      out.append(pythonFloat(node.doubleValue()));
    } else {
      out.append(node.toString());
    }
  }

  private static void writeValue(Object value, StringBuilder out) {
    if (value instanceof JsonNode node) {
      write(node, out);
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        string(String.valueOf(e.getKey()), out);
        out.append(':');
        writeValue(e.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        writeValue(list.get(i), out);
      }
      out.append(']');
    } else if (value instanceof String s) {
      string(s, out);
    } else if (value instanceof Double d) {
      out.append(pythonFloat(d));
    } else if (value instanceof Float f) {
      out.append(pythonFloat(f.doubleValue()));
    } else if (value instanceof Wire w && w.wire() != null) {
      string(w.wire(), out);
    } else {
      out.append(value);
    }
  }

  // A lone surrogate is written as U+FFFD (mended), so the text always encodes as UTF-8.
  private static void string(String s, StringBuilder out) {
    out.append('"');
    String text = mended(s);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * A double as Python's {@code repr} spells it: shortest digits, exponent form outside 1e-4..1e16.
   */
  static String pythonFloat(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0.0" : "0.0";
    }
    BigDecimal exact = shortest(Math.abs(d));
    String digits = exact.unscaledValue().toString();
    int exponent = digits.length() - 1 - exact.scale();
    String sign = d < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      String e = Integer.toString(Math.abs(exponent));
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
    }
    if (exponent >= digits.length() - 1) {
      return sign + digits + "0".repeat(exponent - digits.length() + 1) + ".0";
    }
    if (exponent >= 0) {
      return sign + digits.substring(0, exponent + 1) + "." + digits.substring(exponent + 1);
    }
    return sign + "0." + "0".repeat(-exponent - 1) + digits;
  }

  /** The fewest significant digits that read back as {@code d}, rounded from its exact value. */
  private static BigDecimal shortest(double d) {
    BigDecimal exact = new BigDecimal(d);
    for (int precision = 1; precision < 17; precision++) {
      BigDecimal rounded = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      if (rounded.doubleValue() == d) {
        return rounded.stripTrailingZeros();
      }
    }
    return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
  }

  /** A JSON number or string, boolean, list or map value as a plain Java value. */
  static Object plain(JsonNode node) {
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isInt() || node.isLong()) {
      return node.longValue();
    }
    if (node.isIntegralNumber()) {
      BigInteger big = node.bigIntegerValue();
      return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    return node;
  }

  /** A plain Java value (as {@link #plain} returns) as a JSON node. */
  static JsonNode node(Object value) {
    if (value instanceof JsonNode n) {
      return n;
    }
    if (value instanceof String s) {
      return NODES.textNode(s);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof BigInteger b) {
      return NODES.numberNode(b);
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d);
    }
    if (value instanceof Float f) {
      return NODES.numberNode(f.doubleValue());
    }
    if (value instanceof Number n) {
      return NODES.numberNode(n.longValue());
    }
    return NODES.nullNode();
  }
}
