package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** One payload field as the contract view describes it: names, type and bounds. */
record FieldSpec(
    String name,
    String wire,
    String type,
    boolean required,
    List<String> values,
    boolean hint,
    Long minimum,
    Long maximum,
    Integer maxItems) {

  static FieldSpec of(JsonNode f) {
    List<String> values = new ArrayList<>();
    f.get("values").forEach(v -> values.add(v.asText()));
    return new FieldSpec(
        f.get("name").asText(),
        f.get("wire").asText(),
        f.get("type").asText(),
        f.get("required").asBoolean(),
        List.copyOf(values),
        f.get("hint").asBoolean(),
        f.get("minimum").isNull() ? null : f.get("minimum").asLong(),
        f.get("maximum").isNull() ? null : f.get("maximum").asLong(),
        f.get("max_items").isNull() ? null : f.get("max_items").asInt());
  }
}
