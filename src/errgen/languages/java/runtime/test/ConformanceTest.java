package errgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The conformance vectors: {@code -Dvectors=FILE} (errgen's {@code conformance/vectors.json}), else
 * a {@code vectors.json} test resource beside this class. Nothing outside the project is read, so
 * the project builds when copied alone; without vectors the test is skipped and says so.
 */
class ConformanceTest {
  @TestFactory
  Stream<DynamicTest> vectors() throws IOException, URISyntaxException {
    String given = System.getProperty("vectors");
    URL resource = ConformanceTest.class.getResource("vectors.json");
    if ((given == null || given.isEmpty()) && resource == null) {
      // One skipped test, so that the report says why no vector ran.
      return Stream.of(
          DynamicTest.dynamicTest(
              "vectors",
              () ->
                  assumeTrue(
                      false, "no vectors: run with -Dvectors=PATH/conformance/vectors.json")));
    }
    Path file = given != null && !given.isEmpty() ? Path.of(given) : Path.of(resource.toURI());
    return ConformanceRunner.vectors(file).stream()
        .map(
            v ->
                DynamicTest.dynamicTest(
                    v.get("name").asText(),
                    () -> assertEquals(List.of(), ConformanceRunner.failures(v))));
  }
}
