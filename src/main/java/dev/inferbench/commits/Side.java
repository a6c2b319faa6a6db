package dev.inferbench.commits;

import dev.inferbench.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One side of a comparison of commits: what it was given as, the commit it is ({@link #WORKTREE} for this checkout as
 * it is, {@link #BUILT} for another checkout's jar, used as it is), and the folder whose target/benchmarks.jar it
 * runs: a worktree of its own, built with Maven, for a commit.
 */
final class Side {
    static final String WORKTREE = "worktree";
    static final String BUILT = "built";
    static final String JAR = "target/benchmarks.jar";
    private static final Pattern MISSING = Pattern.compile("could not be resolved: (\\S+)|Could not find artifact (\\S+)");

    final String name;
    final String given;
    final String sha;
    final List<String> build;
    Path tree;

    private Side(String name, String given, String sha, List<String> build, Path tree) {
        this.name = name;
        this.given = given;
        this.sha = sha;
        this.build = build;
        this.tree = tree;
    }

    /**
     * {@code given} as a side: {@code .} is the checkout at {@code repo}; a folder holding target/benchmarks.jar is
     * that build; anything else must name a commit.
     */
    static Side resolve(String name, String given, List<String> build, Path repo, Tools tools) throws Stop {
        checkOptions(name, build);
        Side side;
        Path folder = tools.cwd().resolve(given);
        if (given.equals(".")) {
            side = new Side(name, given, WORKTREE, build, repo);
        } else if (Files.isDirectory(folder) && Files.isRegularFile(folder.resolve(JAR))) {
            side = new Side(name, given, BUILT, build, folder.toAbsolutePath().normalize());
        } else {
            Commands c = Commands.run(List.of(tools.git(), "rev-parse", "--verify", "--quiet", given + "^{commit}"),
                    repo, null);
            if (!c.ok() || given.startsWith("-")) {
                throw Stop.badInput("unknown commit '" + given + "'; expected a branch, tag, sha, . (this checkout) or"
                        + " a checkout with " + JAR);
            }
            side = new Side(name, given, c.output().strip(), build, null);
        }
        if (!build.isEmpty() && side.tree != null) {
            throw Stop.badInput("--" + name + "-build needs a commit to build; the " + name + " side '" + given
                    + "' is a jar already built, used as it is");
        }
        return side;
    }

    /** A side's build arguments are Maven options (-Dname=value, -P profile ...), never a goal. */
    static void checkOptions(String name, List<String> build) throws Stop {
        for (int i = 0; i < build.size(); i++) {
            String word = build.get(i);
            String prev = i > 0 ? build.get(i - 1) : "";
            if (!word.startsWith("-") && !prev.equals("-P") && !prev.equals("-pl")) {
                throw Stop.badInput("--" + name + "-build '" + String.join(" ", build) + "' is not Maven options: '"
                        + word + "' is no option; expected e.g. -Donnxruntime.version=1.22.0");
            }
        }
    }

    boolean needsBuild() {
        return tree == null;
    }

    /** The sha's first 7, or how the side was given where it is no commit (never "worktre"). */
    String label() {
        return sha.equals(WORKTREE) || sha.equals(BUILT) ? given : sha.substring(0, 7);
    }

    String shortSha() {
        return sha.equals(WORKTREE) || sha.equals(BUILT) ? sha : sha.substring(0, 7);
    }

    /**
     * Checks the commit out into a worktree under {@code trees} and builds it, Maven's output in OUT/build-SIDE.log.
     * What a side's own arguments ask for (another engine version) may not be in the local repository yet: it is
     * fetched now, at build time, never by a run.
     */
    void build(Path trees, Path out, boolean offline, Tools tools, Path repo, java.io.PrintStream say) throws Stop {
        tree = trees.resolve(name);
        Commands.output(List.of(tools.git(), "worktree", "add", "--detach", "--quiet", tree.toString(), sha), repo);
        say.println("[compare-commits] building " + name + " " + sha.substring(0, 7)
                + (build.isEmpty() ? "" : " with " + String.join(" ", build)) + " ...");
        Path log = out.resolve("build-" + name + ".log");
        try {
            AtomicFile.write(log, new byte[0]);
        } catch (IOException e) {
            throw Stop.failure("cannot write " + log + ": " + e.getMessage());
        }
        int rc = mvn(offline, tools, log);
        if (rc != 0 && offline && !build.isEmpty() && read(log).contains("offline mode")) {
            say.println("[compare-commits] the local Maven repository lacks what " + String.join(" ", build)
                    + " needs; building " + name + " online");
            rc = mvn(false, tools, log);
        }
        if (rc != 0) {
            String missing = null;
            Matcher m = MISSING.matcher(read(log).replaceAll("\u001b\\[[0-9;]*m", ""));
            while (m.find()) {
                missing = (m.group(1) != null ? m.group(1) : m.group(2)).replaceAll("[:,]$", "");
            }
            throw Stop.badInput("commit " + sha.substring(0, 7) + " (" + name
                    + (build.isEmpty() ? "" : ", built with " + String.join(" ", build)) + ") does not build"
                    + (missing == null ? "" : ": Maven cannot get " + missing) + "; see " + log);
        }
    }

    private int mvn(boolean offline, Tools tools, Path log) throws Stop {
        List<String> cmd = new ArrayList<>(List.of(tools.mvn(), "-q"));
        if (offline) {
            cmd.add("-o");
        }
        cmd.addAll(List.of("package", "-DskipTests"));
        cmd.addAll(build);
        try {
            AtomicFile.appendLine(log, "mvn " + String.join(" ", cmd.subList(1, cmd.size())));
        } catch (IOException e) {
            throw Stop.failure("cannot write " + log + ": " + e.getMessage());
        }
        return Commands.run(cmd, tree, log).code();
    }

    /** What the side's jar says it bundles (the engine versions it holds, not the ones a build property asked for). */
    String versions(Tools tools) throws Stop {
        Commands c = Commands.stdout(tools.javaCommand(List.of(), List.of("-jar", JAR, "--version")), tree);
        List<String> lines = c.output().lines().toList();
        return c.ok() && lines.size() > 1 ? lines.get(1) : "its jar does not say its versions";
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
