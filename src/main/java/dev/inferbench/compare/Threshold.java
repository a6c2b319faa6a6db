package dev.inferbench.compare;

import dev.inferbench.ByteUnits;

import dev.inferbench.BenchException;
import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.stats.Direction;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An absolute limit on a metric, for CI gates: {@code [param=value[,param=value]:]metric OP value[unit]} with OP one of
 * {@code < <= > >=}, or the seeds' style {@code metric:value[unit]} where the metric's direction gives the OP
 * ({@code latency:100ms} means at most 100 ms, {@code throughput:1000samples/s} at least 1000). {@code latency} is
 * an alias of {@code time} (the mean call time) and {@code throughput} of {@code samples} (where a cell has no metric
 * of that literal name). A selector's values may hold colons ({@code device=cuda:0:p99<10ms}). Examples:
 * {@code batchSize=1:p99<100ms}, {@code samples>40}, {@code model=resnet50,batchSize=8:mem.rss.peak<2000MB}.
 */
public record Threshold(String text, Map<String, String> selector, String metric, String op, double value, String unit) {
    private static final Pattern LIMIT = Pattern.compile("([A-Za-z0-9_.·]+)\\s*(<=|>=|<|>)\\s*(.+)");
    private static final Pattern VALUE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)\\s*(\\S*)");
    private static final Map<String, String> ALIASES = Map.of("latency", "time", "throughput", "samples");

    public static Threshold parse(String text) throws BenchException {
        String all = text.trim();
        // the selector ends at a colon, but its values may hold colons too (device=cuda:0): the first colon after
        // which a limit follows is the end of the selector
        for (int colon = all.indexOf(':'); colon >= 0; colon = all.indexOf(':', colon + 1)) {
            String head = all.substring(0, colon);
            if (!head.contains("=") || head.contains("<") || head.contains(">")) {
                break; // no selector: the colon belongs to 'metric:value'
            }
            Map<String, String> selector = selector(head);
            Threshold t = selector == null ? null : limit(text, selector, all.substring(colon + 1).trim());
            if (t != null) {
                return t;
            }
        }
        Threshold t = limit(text, Map.of(), all);
        if (t == null) {
            throw bad(text);
        }
        return t;
    }

    /** {@code model=a,batchSize=1} as a map; null when a pair is not {@code name=value}. */
    private static Map<String, String> selector(String head) {
        Map<String, String> selector = new LinkedHashMap<>();
        for (String pair : head.split(",")) {
            String[] kv = pair.split("=", 2);
            if (kv.length != 2 || kv[0].isBlank() || kv[1].isBlank()) {
                return null;
            }
            selector.put(kv[0].trim(), kv[1].trim());
        }
        return selector;
    }

    /** {@code metric OP value[unit]} or {@code metric:value[unit]}; null when {@code rest} is neither. */
    private static Threshold limit(String text, Map<String, String> selector, String rest) throws BenchException {
        Matcher m = LIMIT.matcher(rest);
        String metric;
        String op;
        String limit;
        if (m.matches()) {
            metric = m.group(1);
            op = m.group(2);
            limit = m.group(3);
        } else {
            String[] seed = rest.split(":", 2);
            if (seed.length != 2 || !seed[0].trim().matches("[A-Za-z0-9_.\u00b7]+")) {
                return null;
            }
            metric = seed[0].trim();
            limit = seed[1];
            op = null;
        }
        Matcher v = VALUE.matcher(limit.trim());
        if (!v.matches()) {
            return null;
        }
        String unit = v.group(2);
        String canonical = ALIASES.getOrDefault(metric, metric);
        if (op == null) {
            Direction d = MetricCatalogue.of(canonical, unit).direction();
            if (d == Direction.UNKNOWN) {
                throw new BenchException("threshold '" + text + "': the direction of '" + metric + "' is unknown; "
                        + "expected an explicit limit, e.g. '" + metric + "<" + limit.trim() + "'");
            }
            op = d == Direction.LOWER_IS_BETTER ? "<=" : ">=";
        }
        return new Threshold(text, selector, metric, op, Double.parseDouble(v.group(1)), unit);
    }

    /**
     * The cell's metric this threshold reads: the name as written when the cell has it ({@code throughput} is the
     * main metric of a thrpt cell), else the alias's target ({@code latency} is {@code time}, {@code throughput}
     * is {@code samples} of an inference cell); null when the cell has neither.
     */
    public MetricSeries metricOf(CellResults cell) {
        MetricSeries m = cell.metrics().get(metric);
        return m != null ? m : cell.metrics().get(ALIASES.getOrDefault(metric, metric));
    }

    private static BenchException bad(String text) {
        return new BenchException("threshold '" + text + "' is not understood; expected [param=value[,...]:]metric"
                + " OP value[unit] with OP one of < <= > >=, e.g. 'batchSize=1:p99<100ms', 'samples>40', or 'latency:100ms'");
    }

    public boolean selects(CellKey cell) {
        return selector.entrySet().stream().allMatch(e -> e.getValue().equals(cell.params().get(e.getKey())));
    }

    /** @param limit the threshold's value in the metric's unit ({@link #limitIn}) */
    public boolean passes(double actual, double limit) {
        return switch (op) {
            case "<" -> actual < limit;
            case "<=" -> actual <= limit;
            case ">" -> actual > limit;
            default -> actual >= limit;
        };
    }

    /**
     * The limit in the metric's own unit: time units convert (100ms against us/op, 0.5s against ms), and so do memory
     * units (2000MB, 10^6 bytes each, against MiB), others must match.
     */
    public double limitIn(String metricUnit) throws BenchException {
        if (unit.isEmpty() || unit.equalsIgnoreCase(metricUnit)) {
            return value;
        }
        double fromBytes = ByteUnits.bytes(unit);
        double toBytes = ByteUnits.bytes(metricUnit);
        if (!Double.isNaN(fromBytes) && !Double.isNaN(toBytes)) {
            return value * fromBytes / toBytes;
        }
        Double from = seconds(unit);
        Double to = seconds(metricUnit.endsWith("/op") ? metricUnit.substring(0, metricUnit.length() - 3) : metricUnit);
        if (from == null || to == null) {
            throw new BenchException("threshold '" + text + "' is in " + unit + " but " + metric + " is in "
                    + metricUnit + "; expected a value in " + metricUnit + " or no unit");
        }
        return value * from / to;
    }

    private static Double seconds(String unit) {
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "ns" -> 1e-9;
            case "us", "µs" -> 1e-6;
            case "ms" -> 1e-3;
            case "s" -> 1.0;
            default -> null;
        };
    }
}
