package dev.inferbench.stats;

import dev.inferbench.BenchException;

import java.util.Locale;

/**
 * docs/evidence/adaptive-gate.md's table: the A/A fail rate of the gate under each stopping rule at the README's CI
 * settings, and how many pairs each ran. Run with the test classpath (the command is in that file); arguments:
 * trials per row (default 6000), rules (default all), the most pairs (default 60) and the true slowdown (default 0:
 * A/A; 0.03 gives the share of comparisons that found 3 %), each may be left as {@code -} for its default.
 */
final class AdaptiveGateTable {
    private AdaptiveGateTable() {
    }

    public static void main(String[] args) throws BenchException {
        int trials = arg(args, 0) == null ? 6000 : Integer.parseInt(args[0]);
        int maxPairs = arg(args, 2) == null ? 60 : Integer.parseInt(args[2]);
        double slowdown = arg(args, 3) == null ? 0 : Double.parseDouble(args[3]);
        double[] sds = slowdown > 0 ? new double[]{0.03, 0.04} : new double[]{0.025, 0.03, 0.042};
        System.out.printf(Locale.ROOT, "| rule | machine | %s (95 %% binomial) | mean pairs |%n|---|---|---|---|%n",
                slowdown > 0 ? String.format(Locale.ROOT, "%.0f %% slowdown found", 100 * slowdown) : "A/A fail rate");
        for (AdaptiveGate.Rule rule : AdaptiveGate.Rule.values()) {
            if (arg(args, 1) != null && !args[1].contains(rule.name())) {
                continue;
            }
            AdaptiveGate gate = new AdaptiveGate(rule, maxPairs, 0, true);
            for (int i = 0; i < sds.length; i++) {
                NoisyMachine[] machines = {NoisyMachine.gaussianPairs(sds[i]), NoisyMachine.BURSTS.withPairSd(sds[i]),
                        NoisyMachine.TAILS.withPairSd(sds[i])};
                for (NoisyMachine m : machines) {
                    double[] r = gate.failRate(m, slowdown, trials, 100 + i);
                    double se = Math.sqrt(r[0] * (1 - r[0]) / trials);
                    System.out.printf(Locale.ROOT, "| %s | %s | %.2f %% (± %.2f) | %.1f |%n", rule, m.name(),
                            100 * r[0], 196 * se, r[1]);
                }
            }
        }
    }

    private static String arg(String[] args, int i) {
        return args.length > i && !args[i].equals("-") ? args[i] : null;
    }
}
