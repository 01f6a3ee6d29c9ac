package errgen.runtime;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How this SDK times and bounds its decisions; the same numbers in every errgen SDK.
 *
 * @param defaultMaxAttempts attempts before a retry escalates and a pause stops
 * @param defaultMaxDelayMs a server asking for a longer wait gets {@code escalate}
 * @param backoffBaseMs the first backoff delay
 * @param backoffMaxMs the longest backoff delay
 * @param backoffMaxExponent the largest doubling of the backoff
 * @param jitter the jitter kind ({@code full}: a uniform draw below the delay)
 * @param maxSuggestions the most {@code did_you_mean} entries a payload may carry
 * @param didYouMeanLimit the most suggestions {@link Errors#didYouMean} returns
 * @param maxDelayValueMs every delay saturates here (2^53 - 1)
 * @param maxJsonDepth nesting deeper than this is not JSON to this SDK
 * @param maxBodyBytes a response body longer than this (UTF-8) is unreadable
 * @param maxNumberChars a JSON number with a longer text is out of range (never converted)
 * @param maxHeaders only this many headers are looked at
 * @param maxHeaderChars a longer header value counts as absent
 * @param maxXmlDepth XML elements nested deeper than this are unreadable
 * @param problemBase the prefix of each code's RFC 9457 type URI
 */
public record Policy(
    long defaultMaxAttempts,
    long defaultMaxDelayMs,
    long backoffBaseMs,
    long backoffMaxMs,
    int backoffMaxExponent,
    String jitter,
    int maxSuggestions,
    int didYouMeanLimit,
    long maxDelayValueMs,
    int maxJsonDepth,
    int maxBodyBytes,
    int maxNumberChars,
    int maxHeaders,
    int maxHeaderChars,
    int maxXmlDepth,
    String problemBase) {

  static Policy of(JsonNode p) {
    return new Policy(
        p.get("default_max_attempts").asLong(),
        p.get("default_max_delay_ms").asLong(),
        p.get("backoff_base_ms").asLong(),
        p.get("backoff_max_ms").asLong(),
        p.get("backoff_max_exponent").asInt(),
        p.get("jitter").asText(),
        p.get("max_suggestions").asInt(),
        p.get("did_you_mean_limit").asInt(),
        p.get("max_delay_value_ms").asLong(),
        p.get("max_json_depth").asInt(),
        p.get("max_body_bytes").asInt(),
        p.get("max_number_chars").asInt(),
        p.get("max_headers").asInt(),
        p.get("max_header_chars").asInt(),
        p.get("max_xml_depth").asInt(),
        p.get("problem_base").asText());
  }
}
