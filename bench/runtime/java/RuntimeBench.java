// The Java side of bench/runtime_bench.py: the generated SDK's parse + validate + decide beside
// networknt json-schema-validator validating the same payloads against the generated schema.
//
// Usage: RuntimeBench SCHEMA BUDGET_MS CORPUS... (one JSON payload per line); prints one JSON
// object per corpus on standard output. Bytes allocated per payload from the thread's counter.

import com.example.syntheticerrors.Checked;
import com.example.syntheticerrors.Errors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

public final class RuntimeBench {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static long sink;

  public static void main(String[] args) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    Schema schema =
        SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(mapper.readTree(Files.readAllBytes(Path.of(args[0]))));
    long budgetNs = Long.parseLong(args[1]) * 1_000_000L;
    for (int f = 2; f < args.length; f++) {
      List<byte[]> lines = new ArrayList<>();
      long size = 0;
      for (String line : Files.readAllLines(Path.of(args[f]))) {
        if (!line.isEmpty()) {
          byte[] bytes = line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
          lines.add(bytes);
          size += bytes.length;
        }
      }
      List<JsonNode> parsed = new ArrayList<>();
      for (byte[] line : lines) {
        parsed.add(mapper.readTree(line));
      }
      // What a client calls on a received body: one parse, the strict verdict and the decision.
      IntPredicate sdk =
          i -> {
            Checked checked = Errors.check(lines.get(i), 1);
            sink += checked.decision().hashCode();
            return checked.valid();
          };
      IntPredicate peer = i -> schema.validate(parsed.get(i)).isEmpty();
      IntPredicate parse =
          i -> {
            try {
              return mapper.readTree(lines.get(i)) != null;
            } catch (java.io.IOException e) {
              return false;
            }
          };
      int n = lines.size();
      double[][] r =
          rates(new IntPredicate[] {sdk, peer, parse}, new double[] {1, 1, 0.5}, n, budgetNs);
      double[] s = r[0];
      double[] p = r[1];
      double[] q = r[2];
      System.out.printf(
          java.util.Locale.ROOT,
          "{\"file\": \"%s\", \"n\": %d, \"bytes\": %d, \"sdk_per_s\": %f, \"peer_per_s\": %f,"
              + " \"parse_per_s\": %f, \"sdk_valid\": %d, \"peer_valid\": %d, \"sdk_alloc_bytes\":"
              + " %f, \"peer_alloc_bytes\": %f}%n",
          args[f].replace("\\", "\\\\").replace("\"", "\\\""),
          n,
          size,
          s[0],
          p[0],
          q[0],
          count(sdk, n),
          count(peer, n),
          s[1],
          p[1]);
    }
  }

  /** How many payloads one side accepts, over at most 2,000 of them (untimed). */
  private static int count(IntPredicate one, int n) {
    int k = 0;
    for (int i = 0; i < Math.min(n, 2000); i++) {
      if (one.test(i)) {
        k++;
      }
    }
    return k;
  }

  /**
   * Payloads per second of each side over its share of the budget, and bytes per payload: every
   * side warmed up first (half its share), then the sides take turns in ten rounds (each going on
   * round the corpus where it stopped), so a change in the machine's load or the JIT's background
   * work falls on all of them alike.
   */
  private static double[][] rates(IntPredicate[] sides, double[] share, int n, long budgetNs) {
    for (int k = 0; k < sides.length; k++) {
      run(sides[k], n, 0, (long) (budgetNs * share[k] / 2));
    }
    long[] done = new long[sides.length];
    long[] nanos = new long[sides.length];
    long[] bytes = new long[sides.length];
    int rounds = 10;
    for (int round = 0; round < rounds; round++) {
      for (int k = 0; k < sides.length; k++) {
        long allocated = THREADS.getCurrentThreadAllocatedBytes();
        long start = System.nanoTime();
        done[k] += run(sides[k], n, done[k], (long) (budgetNs * share[k] / rounds));
        nanos[k] += System.nanoTime() - start;
        bytes[k] += THREADS.getCurrentThreadAllocatedBytes() - allocated;
      }
    }
    double[][] out = new double[sides.length][];
    for (int k = 0; k < sides.length; k++) {
      out[k] = new double[] {done[k] / (nanos[k] / 1e9), bytes[k] / (double) done[k]};
    }
    return out;
  }

  // Payloads done in the budget, round the corpus from payload number `from`.
  private static long run(IntPredicate one, int n, long from, long budgetNs) {
    long start = System.nanoTime();
    long done = 0;
    while (true) {
      if (one.test((int) ((from + done) % n))) {
        sink++;
      }
      done++;
      if (System.nanoTime() - start >= budgetNs) {
        return done;
      }
    }
  }
}
