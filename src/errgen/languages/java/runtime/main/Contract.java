package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The registry as data: policy, payload fields with their wire names, categories, the recovery
 * table and the recovery rule for unknown codes. Read once from {@code contract.json}, which errgen
 * renders from its contract view; nothing here restates a vocabulary, a limit or a rule.
 */
final class Contract {
  static final Contract INSTANCE = load();

  final String registry;
  final Policy policy;
  final String envelope;
  // Whether the envelope's value is an array of entries (`errors[*]`: OCI, JSON:API).
  final boolean envelopeArray;
  final List<FieldSpec> fields;
  final Map<String, FieldSpec> byName;
  final Map<String, FieldSpec> byWire;
  // Each field's position in fields, by wire name: a payload walk's one lookup per member.
  final Map<String, Integer> indexByWire;
  final Set<String> categories;
  final Map<String, RecoveryEntry> codes;
  // The recovery rule for a code this SDK does not know: retryable -> scope -> action.
  final Map<Boolean, Map<Scope, Action>> fallback;
  // The timed actions (retry, pause) and what each becomes when the attempts run out.
  final Map<Action, Action> exhausted;
  // Where a real response carries each fact (docs/conformance.md, "Reading a real response").
  final JsonNode response;

  private Contract(JsonNode data) {
    registry = data.get("registry").asText();
    policy = Policy.of(data.get("policy"));
    envelope = data.get("envelope").isNull() ? null : data.get("envelope").asText();
    envelopeArray = data.get("envelope_array").asBoolean();
    List<FieldSpec> specs = new ArrayList<>();
    Map<String, FieldSpec> names = new LinkedHashMap<>();
    Map<String, FieldSpec> wires = new LinkedHashMap<>();
    Map<String, Integer> positions = new HashMap<>();
    for (JsonNode field : data.get("fields")) {
      FieldSpec spec = FieldSpec.of(field);
      positions.put(spec.wire(), specs.size());
      specs.add(spec);
      names.put(spec.name(), spec);
      wires.put(spec.wire(), spec);
    }
    fields = List.copyOf(specs);
    byName = Collections.unmodifiableMap(names);
    byWire = Collections.unmodifiableMap(wires);
    indexByWire = Collections.unmodifiableMap(positions);
    Set<String> categoryNames = new LinkedHashSet<>();
    data.get("categories").forEach(c -> categoryNames.add(c.get("name").asText()));
    categories = Collections.unmodifiableSet(categoryNames);
    Map<String, RecoveryEntry> entries = new LinkedHashMap<>();
    data.get("codes").forEach(c -> entries.put(c.get("code").asText(), RecoveryEntry.of(c)));
    codes = Collections.unmodifiableMap(entries);
    Map<Boolean, Map<Scope, Action>> rule = new LinkedHashMap<>();
    for (boolean retryable : new boolean[] {true, false}) {
      Map<Scope, Action> byScope = new EnumMap<>(Scope.class);
      data.get("fallback_actions")
          .properties()
          .forEach(
              e ->
                  byScope.put(
                      Scope.fromWire(e.getKey()),
                      Action.fromWire(e.getValue().get(Boolean.toString(retryable)).asText())));
      rule.put(retryable, Collections.unmodifiableMap(byScope));
    }
    fallback = Collections.unmodifiableMap(rule);
    Map<Action, Action> last = new EnumMap<>(Action.class);
    data.get("exhausted")
        .properties()
        .forEach(
            e -> last.put(Action.fromWire(e.getKey()), Action.fromWire(e.getValue().asText())));
    exhausted = Collections.unmodifiableMap(last);
    response = data.get("response");
  }

  private static Contract load() {
    try (InputStream in = Contract.class.getResourceAsStream("contract.json")) {
      if (in == null) {
        throw new IllegalStateException("contract.json is missing beside " + Contract.class);
      }
      return new Contract(new ObjectMapper().readTree(in));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The wire name of a field, by its canonical (snake_case) name. */
  String wire(String name) {
    return byName.get(name).wire();
  }

  /** The position of a field in {@link #fields}, by its canonical (snake_case) name. */
  int index(String name) {
    return indexByWire.get(wire(name));
  }
}
