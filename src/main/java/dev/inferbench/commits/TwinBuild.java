package dev.inferbench.commits;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One commit built twice, in two worktrees of its own with a jar each, for A/A comparisons of two builds: what a CI
 * gate compares is two builds, and whatever differs between two builds of the same source (the layout of the jar, the
 * order of class loading) is part of its false-alarm rate, which a checkout compared against its own jar cannot show.
 * The worktrees share the checkout's models/ (each cell's model is generated once), and go on {@link #close}.
 */
final class TwinBuild implements AutoCloseable {
    /** Builds {@code sha} twice and gives the two folders; tests give folders without building. */
    @FunctionalInterface
    interface Builder {
        TwinBuild build(String sha, boolean offline, Path logs) throws BenchException, IOException;
    }

    private final GitCall repo;
    private final Path trees;
    private final List<Path> sides;

    TwinBuild(GitCall repo, Path trees, List<Path> sides) {
        this.repo = repo;
        this.trees = trees;
        this.sides = List.copyOf(sides);
    }

    /** The two built folders, each holding target/benchmarks.jar. */
    List<Path> sides() {
        return sides;
    }

    /** The production builder: git worktrees of the checkout at {@code checkout}, built with {@code mvn}. */
    static Builder inWorktrees(Path checkout, PrintStream say) {
        return (sha, offline, logs) -> {
            GitCall repo = new GitCall(checkout);
            Path trees = Files.createTempDirectory("power-ledger-builds.");
            List<Path> sides = new ArrayList<>();
            TwinBuild twin = new TwinBuild(repo, trees, sides);
            try {
                for (String name : List.of("a", "b")) {
                    Path tree = trees.resolve(name);
                    repo.must("worktree", "add", "--detach", "--quiet", tree.toString(), sha);
                    sides.add(tree);
                    say.println("[power-ledger] building " + sha.substring(0, 7) + " (" + name + ") ...");
                    List<String> cmd = new ArrayList<>(List.of("mvn", "-q"));
                    if (offline) {
                        cmd.add("-o");
                    }
                    cmd.addAll(List.of("package", "-DskipTests"));
                    Path log = logs.resolve("build-" + name + ".log");
                    Commands c = Commands.run(cmd, tree, null);
                    AtomicFile.write(log, c.output().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    if (!c.ok()) {
                        throw new BenchException(sha.substring(0, 7) + " does not build; see " + log);
                    }
                    // a cell's model is generated into models/ on first use: one copy for both builds
                    Path models = tree.resolve("models");
                    deleteTree(models);
                    Files.createDirectories(checkout.resolve("models"));
                    Files.createSymbolicLink(models, checkout.resolve("models").toAbsolutePath());
                }
                return new TwinBuild(repo, trees, sides);
            } catch (Stop e) {
                twin.close();
                throw new BenchException(e.getMessage(), e);
            } catch (BenchException | IOException | RuntimeException e) {
                twin.close();
                throw e;
            }
        };
    }

    /** Both worktrees go, whatever the ending. */
    @Override
    public void close() {
        for (Path tree : sides) {
            try {
                repo.run("worktree", "remove", "--force", tree.toString());
            } catch (BenchException e) {
                // the folder goes below all the same; git prunes the entry
            }
        }
        try {
            deleteTree(trees);
            repo.run("worktree", "prune");
        } catch (IOException | BenchException e) {
            // a temporary folder left behind costs disk, not a figure
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (Files.isSymbolicLink(root)) {
            Files.delete(root); // the shared models/, never what it points at
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
