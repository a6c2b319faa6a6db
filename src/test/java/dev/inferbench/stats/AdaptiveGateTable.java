package dev.inferbench.stats;

import dev.inferbench.BenchException;

import java.util.Locale;

/**
 * docs/evidence/adaptive-gate.md's table: the A/A fail rate of the gate under each stopping rule at the README's CI
 * settings, and how many pairs each ran. Run with the test classpath (the command is in that file); arguments:
 * trials per row (default 6000) and rules (default all).
 */
final class AdaptiveGateTable {
    private AdaptiveGateTable() {
    }

    public static void main(String[] args) throws BenchException {
        int trials = args.length > 0 ? Integer.parseInt(args[0]) : 6000;
        double[] sds = {0.025, 0.03, 0.042};
        System.out.printf(Locale.ROOT, "| rule | machine | A/A fail rate (95 %% binomial) | mean pairs |%n|---|---|---|---|%n");
        for (AdaptiveGate.Rule rule : AdaptiveGate.Rule.values()) {
            if (args.length > 1 && !args[1].contains(rule.name())) {
                continue;
            }
            AdaptiveGate gate = new AdaptiveGate(rule, 60, 0, true);
            for (int i = 0; i < sds.length; i++) {
                NoisyMachine[] machines = {NoisyMachine.gaussianPairs(sds[i]), NoisyMachine.BURSTS.withPairSd(sds[i]),
                        NoisyMachine.TAILS.withPairSd(sds[i])};
                for (NoisyMachine m : machines) {
                    double[] r = gate.failRate(m, 0, trials, 100 + i);
                    double se = Math.sqrt(r[0] * (1 - r[0]) / trials);
                    System.out.printf(Locale.ROOT, "| %s | %s | %.2f %% (± %.2f) | %.1f |%n", rule, m.name(),
                            100 * r[0], 196 * se, r[1]);
                }
            }
        }
    }
}
