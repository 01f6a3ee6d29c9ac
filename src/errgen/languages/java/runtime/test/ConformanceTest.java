package errgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The conformance vectors: {@code -Dvectors=FILE}, by default the build's own vectors. */
class ConformanceTest {
  @TestFactory
  Stream<DynamicTest> vectors() throws IOException {
    Path file = Path.of(System.getProperty("vectors", "../conformance/vectors.json"));
    return ConformanceRunner.vectors(file).stream()
        .map(
            v ->
                DynamicTest.dynamicTest(
                    v.get("name").asText(),
                    () -> assertEquals(List.of(), ConformanceRunner.failures(v))));
  }
}
