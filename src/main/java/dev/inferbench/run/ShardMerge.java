package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.results.RunLayout;
import org.openjdk.jmh.results.RunResult;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Joins the folders of a sharded run (each ran {@code --shard i/n} of the same plan) into one run folder, as if one
 * machine had run the whole plan. Folders of different plans are refused: their cells were measured with
 * different settings and must not be pooled.
 */
public final class ShardMerge {
    /** The merged folder, and which slices were missing. */
    public record Merged(RunStore store, List<RunResult> results, List<String> missingShards) {
    }

    /** Where the merged run goes; asked only once every input has been checked, so bad input leaves no folder. */
    public interface Target {
        Path create() throws IOException;
    }

    private ShardMerge() {
    }

    public static Merged merge(List<Path> dirs, Target target) throws BenchException, IOException {
        if (dirs.isEmpty()) {
            throw new BenchException("merge needs run folders; expected e.g. merge results/*-shard-*");
        }
        Map<String, RunStore> byShard = new LinkedHashMap<>();
        Plan first = null;
        for (Path dir : dirs) {
            RunStore store = RunStore.read(dir);
            Plan plan = store.plan();
            if (first == null) {
                first = plan;
            } else if (!plan.id().equals(first.id())) {
                throw new BenchException(dir + " is from plan " + plan.id() + " but " + dirs.get(0) + " is from plan "
                        + first.id() + "; expected shards of one run (same command line and settings)");
            }
            if (byShard.put(plan.shard(), store) != null) {
                throw new BenchException("shard " + plan.shard() + " is given twice (" + dir
                        + "); expected each slice once");
            }
        }
        for (RunStore shard : byShard.values()) {
            shard.forks().check(first.runnableCells());
        }
        int forks = byShard.values().stream().mapToInt(s -> uncheckedForks(s)).max().orElse(first.forks());
        Plan whole = new Plan(first.format(), first.id(), first.args(), first.config(), forks, first.settings(),
                Shard.WHOLE.toString(), first.cells(), first.skipped(), first.keepDisturbed(),
                first.tail());
        Path out = target.create();
        RunStore merged = RunStore.create(out, whole);
        for (RunStore shard : byShard.values()) {
            for (String sub : List.of(RunLayout.FORKS, RunLayout.FAILED)) {
                copyTree(shard.dir().resolve(sub), out.resolve(sub));
            }
        }
        List<String> missing = new ArrayList<>();
        int count = first.shardSlice().count();
        for (int i = 1; i <= count; i++) {
            if (!byShard.containsKey(i + "/" + count)) {
                missing.add(i + "/" + count);
            }
        }
        return new Merged(merged, merged.result().rebuild(whole.runnableCells()), missing);
    }

    private static int uncheckedForks(RunStore store) {
        try {
            return store.plan().forks();
        } catch (BenchException e) {
            return 1;
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.REPLACE_EXISTING,
                        LinkOption.NOFOLLOW_LINKS);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
