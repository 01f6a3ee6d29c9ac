package errgen.runtime;

import java.util.List;
import java.util.Map;

/**
 * A plain HTTP response: status, headers as name/value pairs in order, and body text.
 *
 * @param status the status code
 * @param headers the headers, in order; a name may repeat
 * @param body the body text
 */
public record HttpMessage(int status, List<Map.Entry<String, String>> headers, String body) {

  /** Copies the headers. */
  public HttpMessage {
    headers = List.copyOf(headers);
  }

  /** The first value of a header, names compared ASCII case-insensitively; null when absent. */
  public String header(String name) {
    for (Map.Entry<String, String> h : headers) {
      String key = h.getKey();
      if (key.chars().allMatch(c -> c < 0x80) && key.equalsIgnoreCase(name)) {
        return h.getValue();
      }
    }
    return null;
  }
}
