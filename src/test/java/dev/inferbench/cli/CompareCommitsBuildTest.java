package dev.inferbench.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each side of compare-commits built as the README builds it, in a worktree of its own, with its own arguments. */
class CompareCommitsBuildTest extends CompareCommitsFixture {
    @Test
    void eachSideIsBuiltAsTheReadmeBuildsItOfflineOnlyWhenAsked() throws Exception {
        assertThat(run(Map.of(), "HEAD", "HEAD", "--forks", "3", "--out", out()).code()).isZero();
        assertThat(read(log + ".mvn").lines()).containsExactly("-q package -DskipTests", "-q package -DskipTests");
        Files.delete(Path.of(log + ".mvn"));
        assertThat(run(Map.of(), "HEAD", "HEAD", "--forks", "3", "--offline", "--out", out() + "2").code()).isZero();
        assertThat(read(log + ".mvn").lines()).containsExactly("-q -o package -DskipTests", "-q -o package -DskipTests");
        Ended broken = run(Map.of("FAKE_MVN_FAIL", "1"), "HEAD", "HEAD", "--forks", "3", "--out", out() + "3");
        assertThat(broken.code()).isEqualTo(2);
        assertThat(broken.err().lines()).singleElement().asString().contains("(base) does not build");
    }
    /**
     * An engine upgrade on one commit: each side is built in a worktree of its own with its own Maven arguments, and
     * says what its jar holds before the forks run.
     */
    @Test
    void eachSideIsBuiltWithItsOwnArgumentsInAWorktreeOfItsOwn() throws Exception {
        Ended e = run(Map.of(), "HEAD", "HEAD", "--forks", "3", "--base-build", "-Donnxruntime.version=1.22.0",
                "--head-build", "-Donnxruntime.version=1.29.0 -Ddjl.version=0.36.0", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(read(log + ".mvn").lines()).containsExactly("-q package -DskipTests -Donnxruntime.version=1.22.0",
                "-q package -DskipTests -Donnxruntime.version=1.29.0 -Ddjl.version=0.36.0");
        List<String> dirs = read(log + ".mvn-dir").lines().toList();
        assertThat(dirs).hasSize(2).doesNotHaveDuplicates().noneMatch(d -> d.equals(repo.toString()));
        assertThat(e.out()).contains("[compare-commits] base ", " (-Donnxruntime.version=1.22.0): JMH fake, built in base")
                .contains(" (-Donnxruntime.version=1.29.0 -Ddjl.version=0.36.0): JMH fake, built in head");
        assertThat(read(out() + "/build-base.log")).startsWith("mvn -q package -DskipTests -Donnxruntime.version=1.22.0");
    }

    /** --offline: a side whose arguments name what the local repository lacks is built online, once, and says so. */
    @Test
    void aVersionTheLocalRepositoryLacksIsFetchedAtBuildTime() throws Exception {
        Map<String, String> lacks = Map.of("FAKE_MVN_LACKS", "onnxruntime.version=1.22.0");
        Ended e = run(lacks, "HEAD", "HEAD", "--forks", "3", "--offline",
                "--base-build", "-Donnxruntime.version=1.22.0", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(read(log + ".mvn").lines()).containsExactly("-q -o package -DskipTests -Donnxruntime.version=1.22.0",
                "-q package -DskipTests -Donnxruntime.version=1.22.0", "-q -o package -DskipTests");
        assertThat(e.out()).contains("[compare-commits] the local Maven repository lacks what"
                + " -Donnxruntime.version=1.22.0 needs; building base online");

        Map<String, String> nowhere = Map.of("FAKE_MVN_LACKS", "onnxruntime.version=9.9.9", "FAKE_MVN_MISSING", "1");
        Ended missing = run(nowhere, "HEAD", "HEAD", "--forks", "3", "--offline",
                "--base-build", "-Donnxruntime.version=9.9.9", "--out", out() + "2");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err().lines()).singleElement().asString()
                .contains("(base, built with -Donnxruntime.version=9.9.9) does not build: Maven cannot get"
                        + " com.microsoft.onnxruntime:onnxruntime:jar:9.9.9; see ");
    }

    @Test
    void buildArgumentsThatAreNoMavenOptionsOrNoBuildAreRefusedInOneLine() throws Exception {
        Ended goal = run(Map.of(), "HEAD", "HEAD", "--base-build", "onnxruntime.version=1.22.0", "--out", out());
        assertThat(goal.code()).isEqualTo(2);
        assertThat(goal.err().lines()).containsExactly("inferbench: --base-build 'onnxruntime.version=1.22.0' is"
                + " not Maven options: 'onnxruntime.version=1.22.0' is no option; expected e.g."
                + " -Donnxruntime.version=1.22.0");
        Ended built = run(Map.of(), ".", "HEAD", "--base-build", "-Donnxruntime.version=1.22.0", "--out", out());
        assertThat(built.code()).isEqualTo(2);
        assertThat(built.err().lines()).singleElement().asString()
                .startsWith("inferbench: --base-build needs a commit to build; the base side '.' is a jar");
        assertThat(read(log + ".mvn")).as("nothing built").isEmpty();
    }
}
