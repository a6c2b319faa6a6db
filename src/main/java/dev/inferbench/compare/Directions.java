package dev.inferbench.compare;

import dev.inferbench.generate.GenerationFigures;
import dev.inferbench.metrics.TrainingProfiler;
import dev.inferbench.stats.Direction;

import java.util.Locale;

/**
 * Which way each metric improves, by its name and then its unit; anything else is UNKNOWN and compared by ratio only.
 * The one rule for compare's verdicts, thresholds and the reports' exports.
 */
public final class Directions {
    private Directions() {
    }

    public static Direction of(String name, String unit) {
        String n = name.toLowerCase(Locale.ROOT);
        String u = unit == null ? "" : unit.toLowerCase(Locale.ROOT);
        if (n.startsWith("serve.")) {
            // open-loop serving: rates (output tokens/s too; the SLO met, 1 or 0, the step valid) up; latencies (TTFT,
            // TPOT, ITL too), queues, late and dropped down; the offered rate, the search's steps, bracket and ceiling,
            // the late bound, what set the knee and the requests per call (dynamic batching) describe, not judge
            return n.equals("serve.rate") || n.equals("serve.sustainable") || n.equals("serve.slo")
                    || n.equals("serve.goodput") || n.equals("serve.valid") || n.equals("serve.tokens.output")
                    ? Direction.HIGHER_IS_BETTER
                    : n.equals("serve.offered") || n.equals("serve.steps") || n.equals("serve.batch")
                    || n.equals("serve.failing") || n.equals("serve.ceiling") || n.equals("serve.late.bound")
                    || n.equals("serve.slo.unsure") || n.equals("serve.nonmonotone") || n.startsWith("serve.limit.")
                    ? Direction.UNKNOWN : Direction.LOWER_IS_BETTER;
        }
        if (n.startsWith(GenerationFigures.PREFIX)) {
            int d = GenerationFigures.direction(n);
            return d > 0 ? Direction.HIGHER_IS_BETTER : d < 0 ? Direction.LOWER_IS_BETTER : Direction.UNKNOWN;
        }
        if (n.equals("fidelity.samples")) {
            return Direction.UNKNOWN; // a count the others stand on, not a quality
        }
        if (n.equals("samples") || n.equals("throughput") || n.startsWith("accuracy") || n.startsWith("top1")
                || n.startsWith("top5") || n.endsWith(".accuracy") || n.equals("gmacs")
                || n.startsWith("fidelity.") && !n.equals("fidelity.maxabs")) {
            return Direction.HIGHER_IS_BETTER;
        }
        if (n.equals("time") || n.matches("p\\d+(\\.\\d+)?") || n.startsWith("mem.") || n.startsWith("io.") || n.endsWith(".time")
                || n.startsWith(TrainingProfiler.PREFIX)
                || n.contains("alloc") || n.contains("latency") || n.equals("fidelity.maxabs")
                || n.equals("first.inference") || n.startsWith("coldstart.")) {
            return Direction.LOWER_IS_BETTER;
        }
        if (u.endsWith("/op")) {
            return Direction.LOWER_IS_BETTER;
        }
        if (u.startsWith("ops/") || u.endsWith("/s") && !u.startsWith("mb") && !u.startsWith("mib")) {
            return Direction.HIGHER_IS_BETTER;
        }
        return Direction.UNKNOWN;
    }

    /** Time metrics say faster/slower; others better/worse. */
    public static boolean isTime(String name, String unit) {
        String u = unit == null ? "" : unit;
        return name.equals("time") || name.equals("throughput") || GenerationFigures.isTime(name) || name.matches("p\\d+(\\.\\d+)?")
                || u.matches("(ns|us|ms|s)/op") || u.matches("ops/(ns|us|ms|s|min|hr)");
    }
}
