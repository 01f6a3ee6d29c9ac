package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writing a payload in the API's own shape (docs/conformance.md, "Writing in the API's own shape"):
 * each fact at the first body source and the first header source the registry reads it from, every
 * {@code equals} condition made true, and for {@code format: xml} a flat XML document of those
 * writes alone.
 */
final class Writing {
  private static final JsonNode R = Contract.INSTANCE.response;
  private static final String[] FACTS = {"code", "message", "correlation_id", "resource_id"};
  // Characters the flat XML reader does not accept in an element name.
  private static final String NOT_NAME = " \t\r\n/>=<\"'&!?";

  private Writing() {}

  /** A value to write at a source. */
  record Write(JsonNode source, JsonNode value) {}

  /**
   * The writes in the order they apply: the facts (code as sent, message, correlation id, resource
   * id) at their first body then first header source, then the {@code error_when} conditions, then
   * the code's own {@code when} conditions, each {@code equals} one made true.
   *
   * @param facts the value of each fact by its name; a null value is not written
   */
  static List<Write> writes(Map<String, String> facts, List<JsonNode> variant) {
    List<Write> out = new ArrayList<>();
    for (String fact : FACTS) {
      String value = facts.get(fact);
      if (value == null) {
        continue;
      }
      for (String kind : new String[] {"body", "header"}) {
        for (JsonNode source : R.get(fact)) {
          if (source.get("in").asText().equals(kind)) {
            out.add(new Write(source, TextNode.valueOf(value)));
            break;
          }
        }
      }
    }
    List<JsonNode> conditions = new ArrayList<>();
    R.get("error_when").forEach(conditions::add);
    conditions.addAll(variant);
    for (JsonNode condition : conditions) {
      if (condition.has("equals")) {
        out.add(new Write(condition.get("at"), condition.get("equals")));
      }
    }
    return out;
  }

  /**
   * The body with each body write put in it (the body may be changed in place); each header write
   * set in {@code headers}.
   */
  static JsonNode apply(JsonNode body, List<Map.Entry<String, String>> headers, List<Write> todo) {
    for (Write write : todo) {
      String in = write.source().get("in").asText();
      if (in.equals("header")) {
        if (write.value().isTextual()) {
          Errors.putHeader(headers, write.source().get("name").asText(), write.value().textValue());
        }
      } else if (in.equals("body")) {
        body = put(body, write.source().get("path"), 0, write.value());
      }
    }
    return body;
  }

  /**
   * {@code node} with {@code value} at the path from step {@code from}: objects and arrays made on
   * the way (an array padded with empty objects, {@code [*]} as index 0), a value in the way that
   * is not the container the step needs replaced. A new key goes after the existing ones.
   */
  static JsonNode put(JsonNode node, JsonNode path, int from, JsonNode value) {
    if (from == path.size()) {
      return value.deepCopy(); // never shared: a later write may put inside it
    }
    JsonNode step = path.get(from);
    if (step.isTextual()) {
      ObjectNode object =
          node != null && node.isObject() ? (ObjectNode) node : Json.NODES.objectNode();
      object.set(step.textValue(), put(object.get(step.textValue()), path, from + 1, value));
      return object;
    }
    int index = Math.max(step.asInt(), 0); // -1 is [*]
    ArrayNode array = node != null && node.isArray() ? (ArrayNode) node : Json.NODES.arrayNode();
    while (array.size() <= index) {
      array.addObject();
    }
    array.set(index, put(array.get(index), path, from + 1, value));
    return array;
  }

  /** The first member of {@code document} as the root element, or "" when it has none. */
  static String toXml(JsonNode document) {
    if (!document.isObject() || document.isEmpty()) {
      return "";
    }
    Map.Entry<String, JsonNode> first = document.properties().iterator().next();
    StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    element(first.getKey(), first.getValue(), out);
    return out.toString();
  }

  // Strings only: an XML reader reads every value as text, so a number or boolean written here
  // could never equal what a condition compares it with.
  private static void element(String name, JsonNode value, StringBuilder out) {
    if (name.isEmpty() || name.chars().anyMatch(c -> NOT_NAME.indexOf(c) >= 0)) {
      return;
    }
    if (value.isArray()) {
      value.forEach(item -> element(name, item, out));
    } else if (value.isObject()) {
      out.append('<').append(name).append('>');
      value.properties().forEach(e -> element(e.getKey(), e.getValue(), out));
      out.append("</").append(name).append('>');
    } else if (value.isTextual()) {
      out.append('<').append(name).append('>');
      text(value.textValue(), out);
      out.append("</").append(name).append('>');
    }
  }

  // NUL has no XML form; it is written as U+FFFD.
  private static void text(String text, StringBuilder out) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '\0' -> out.append('\uFFFD');
        default -> {
          if (c < 0x20) {
            out.append("&#").append((int) c).append(';');
          } else {
            out.append(c);
          }
        }
      }
    }
  }
}
