package dev.inferbench.report;

import dev.inferbench.Json;
import dev.inferbench.results.Headline;
import dev.inferbench.results.ReceivedFolder;
import java.util.Set;
import java.util.HashSet;
import java.util.HashMap;
import com.fasterxml.jackson.databind.JsonNode;
import dev.inferbench.results.CallFigures;
import dev.inferbench.results.RunLayout;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhJson;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What a report shows: one or more runs, each with its cells and its environment. Run folders that are shards of
 * one plan (same plan id in plan.json) become one run, as if one machine had run the whole plan.
 *
 * @param runs in the order given; the first run's folder is where the report goes by default
 */
public record ReportInput(List<Run> runs) {
    private static final ObjectMapper JSON = Json.mapper();

    /**
     * @param files       the JMH result files the cells came from (one per shard)
     * @param cells       the cells as their figures read them: each cell's quiet forks ({@link Headline})
     * @param environment run.properties and environment.json flattened to key/value pairs, in a stable order
     * @param allForks    the cells with every landed fork, disturbed ones too (what the machine's line reads)
     * @param headline    the headline's line of each folder, where it has one
     */
    public record Run(String label, Path dir, List<Path> files, List<MeasuredCell> cells, Map<String, String> environment,
                      List<MeasuredCell> allForks, List<String> headline) {
    }

    public static ReportInput load(List<Path> dirs) throws BenchException {
        if (dirs.isEmpty()) {
            throw new BenchException("report needs a run folder; expected e.g. report results/20261122-171500-abc1234");
        }
        Map<String, Run> byPlan = new LinkedHashMap<>();
        Map<String, Set<String>> slicesByPlan = new HashMap<>();
        for (Path dir : dirs) {
            ReceivedFolder.refuseLinks(dir);
            Path json = RunLayout.resultOf(dir);
            Path runDir = Files.isDirectory(dir) ? dir : dir.toAbsolutePath().getParent();
            List<MeasuredCell> all = JmhJson.read(json);
            Headline headline = Headline.ofFolder(dir, all);
            List<MeasuredCell> cells = headline.cells();
            // shards of one plan join into one run: folders of one plan id with different slices of a sharded plan.
            // Two runs of the same command (same plan id, unsharded, or the same slice twice) stay two runs.
            String key = "folder " + runDir.toAbsolutePath().normalize();
            String[] plan = plan(runDir);
            if (plan != null && plan[1].matches("\\d+/\\d+") && !plan[1].endsWith("/1")
                    && slicesByPlan.computeIfAbsent(plan[0], k -> new HashSet<>()).add(plan[1])) {
                key = "plan " + plan[0];
            }
            Run earlier = byPlan.get(key);
            if (earlier == null) {
                byPlan.put(key, new Run(String.valueOf(runDir.getFileName()), runDir, new ArrayList<>(List.of(json)),
                        new ArrayList<>(cells), environment(runDir), new ArrayList<>(all),
                        new ArrayList<>(headline.line().stream().toList())));
            } else {
                earlier.files().add(json);
                earlier.cells().addAll(cells);
                earlier.allForks().addAll(all);
                headline.line().ifPresent(earlier.headline()::add);
            }
        }
        List<Run> runs = new ArrayList<>(byPlan.values());
        uniqueLabels(runs);
        return new ReportInput(List.copyOf(runs));
    }

    /**
     * Runs are told apart by their folder's name; two folders of one name (hostA/run1, hostB/run1) get their parent
     * folder's name in front, and a number when that is not enough.
     */
    private static void uniqueLabels(List<Run> runs) {
        for (int pass = 0; pass < 2; pass++) {
            Map<String, Long> counts = new HashMap<>();
            runs.forEach(r -> counts.merge(r.label(), 1L, Long::sum));
            for (int i = 0; i < runs.size(); i++) {
                Run r = runs.get(i);
                if (counts.get(r.label()) > 1) {
                    String label;
                    if (pass == 0) {
                        Path parent = r.dir().toAbsolutePath().normalize().getParent();
                        label = (parent == null || parent.getFileName() == null ? "" : parent.getFileName() + "/") + r.label();
                    } else {
                        label = r.label() + " (" + (i + 1) + ")";
                    }
                    runs.set(i, new Run(label, r.dir(), r.files(), r.cells(), r.environment(), r.allForks(),
                            r.headline()));
                }
            }
        }
    }

    public List<ReportRow> rows() {
        return rows(CallFigures.DEFAULT_PERCENTILES);
    }

    /** The rows with the calls' figures at the percentiles a user chose ({@code --percentiles}). */
    public List<ReportRow> rows(double[] percentiles) {
        List<ReportRow> rows = new ArrayList<>();
        for (Run run : runs) {
            for (MeasuredCell c : run.cells()) {
                rows.add(ReportRows.of(run.label(), c, percentiles));
            }
        }
        return rows;
    }

    /** The plan id and shard ("2/4") of a run folder's plan.json; null without one. */
    private static String[] plan(Path runDir) {
        Path plan = runDir.resolve(RunLayout.PLAN);
        if (!Files.isRegularFile(plan)) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(plan.toFile());
            String id = n.path("id").textValue();
            return id == null ? null : new String[]{id, n.path("shard").asText("")};
        } catch (IOException e) {
            return null;
        }
    }

    /** run.properties then environment.json (nested keys joined with dots); missing files give nothing. */
    static Map<String, String> environment(Path runDir) throws BenchException {
        Map<String, String> env = new LinkedHashMap<>();
        Path env1 = runDir.resolve(RunLayout.ENVIRONMENT);
        if (Files.isRegularFile(env1)) {
            try {
                flatten("", JSON.readTree(env1.toFile()), env);
            } catch (IOException e) {
                throw new BenchException(env1 + " is not valid JSON (" + e.getMessage().lines().findFirst().orElse("")
                        + "); expected the environment fingerprint written at the start of the run", e);
            }
        }
        Path props = RunLayout.of(runDir).runInfo();
        if (Files.isRegularFile(props)) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(props, StandardCharsets.ISO_8859_1)) {
                p.load(r);
            } catch (IOException e) {
                throw new BenchException("cannot read " + props + ": " + e.getMessage(), e);
            } catch (IllegalArgumentException e) {
                throw new BenchException(props + " is not a valid properties file (" + e.getMessage()
                        + "); expected the run settings written at the start of the run", e);
            }
            new TreeMap<>(p).forEach((k, v) -> env.putIfAbsent("run." + k, String.valueOf(v)));
        }
        return env;
    }

    private static void flatten(String prefix, JsonNode n, Map<String, String> out) {
        if (n.isMissingNode() || prefix.isEmpty() && !n.isObject()) {
            return; // an empty environment.json, or one that is not an object: no keys
        }
        if (n.isObject()) {
            n.fields().forEachRemaining(e -> flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(),
                    e.getValue(), out));
        } else if (n.isArray()) {
            List<String> items = new ArrayList<>();
            n.forEach(i -> items.add(i.isValueNode() ? i.asText() : i.toString()));
            out.put(prefix, String.join(" ", items));
        } else {
            out.put(prefix, n.asText());
        }
    }
}
