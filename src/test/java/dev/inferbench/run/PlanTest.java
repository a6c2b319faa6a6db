package dev.inferbench.run;

import dev.inferbench.cell.Cell;
import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The plan: cell names, slices, and plan.json written and read back. */
class PlanTest {
    private static Cell cell(int batch, String model) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("model", model);
        p.put("batchSize", Integer.toString(batch));
        return new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", p);
    }

    private static List<Cell> cells(int n) {
        List<Cell> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(cell(i, "mlp-tiny"));
        }
        return out;
    }

    @Test
    void cellIdIsReadableSafeAndParamsSorted() {
        Cell c = cell(8, "models/my model<1>.onnx");
        assertThat(c.id()).isEqualTo("InferenceBenchmark.infer-sample-batchSize=8-model=models_my_model_1_.onnx");
        assertThat(c.params().keySet()).containsExactly("batchSize", "model");
    }

    @Test
    void longIdsAreCutButStayUnique() {
        String base = "x".repeat(300);
        Cell a = cell(1, base + "a");
        Cell b = cell(1, base + "b");
        assertThat(a.id()).hasSizeLessThanOrEqualTo(200).isNotEqualTo(b.id());
    }

    /** A name cut for length ends after a whole word, then the digest: never "optLevel=all-precisio-fe7c5d7821b1". */
    @Test
    void longIdsAreCutAfterAWholeWord() {
        Map<String, String> params = new java.util.TreeMap<>();
        for (String k : List.of("batchSize=1", "callers=1", "data=synthetic", "device=cpu", "engine=ort",
                "interOpThreads=0", "model=" + "m".repeat(60), "optLevel=all", "precision=fp32", "seqLen=128",
                "sharing=shared", "spin=on", "threads=1")) {
            params.put(k.substring(0, k.indexOf('=')), k.substring(k.indexOf('=') + 1));
        }
        String id = new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", params).id();
        assertThat(id).hasSizeLessThanOrEqualTo(200).matches(".*-[a-zA-Z]+=[^-=]+-[0-9a-f]{12}");
        assertThat("InferenceBenchmark.infer-sample-batchSize=1-callers=1-data=synthetic-device=cpu-engine=ort-"
                + "interOpThreads=0-model=" + "m".repeat(60) + "-optLevel=all-precision=fp32-seqLen=128-sharing=shared-"
                + "spin=on-threads=1").startsWith(id.substring(0, id.length() - 13));
    }

    @Test
    void shardsAreDisjointBalancedAndCoverThePlan() throws BenchException {
        List<Cell> all = cells(10);
        Set<Cell> union = new HashSet<>();
        for (int i = 1; i <= 3; i++) {
            List<Cell> slice = Shard.parse(i + "/3").select(all);
            assertThat(slice.size()).isBetween(3, 4);
            for (Cell c : slice) {
                assertThat(union.add(c)).isTrue();
            }
        }
        assertThat(union).containsExactlyInAnyOrderElementsOf(all);
    }

    @Test
    void badShardsAreRefused() {
        for (String bad : List.of("0/3", "4/3", "3", "a/b", "1/0", "")) {
            assertThatThrownBy(() -> Shard.parse(bad)).isInstanceOf(BenchException.class)
                    .hasMessageContaining("expected i/n with 1 <= i <= n");
        }
    }

    @Test
    void planRoundTripsThroughJsonAndKeepsItsId() throws BenchException {
        List<Cell> all = cells(3);
        Plan plan = Plan.of(List.of("-p", "model=mlp-tiny"), null, 5, new Plan.Settings(1, "2 s", 10, null),
                Shard.parse("2/3"), all, List.of(new Plan.Skipped(all.get(0), "no GPU")));
        Plan back = Plan.fromJson(plan.toJson(), "plan.json");
        assertThat(back).isEqualTo(plan);
        assertThat(back.runnableCells()).containsExactly(all.get(1));
        Plan otherShard = Plan.of(plan.args(), null, 5, plan.settings(), Shard.WHOLE, all, List.of());
        assertThat(otherShard.id()).as("shards of one run share the id").isEqualTo(plan.id());
        Plan otherSettings = Plan.of(plan.args(), null, 5, new Plan.Settings(1, "2 s", 11, null), Shard.WHOLE, all, List.of());
        assertThat(otherSettings.id()).isNotEqualTo(plan.id());
    }

    @Test
    void keepDisturbedIsKeptInThePlanAndAnOlderPlanReadsWithout() throws Exception {
        Plan plan = Plan.of(List.of(), null, 4, new Plan.Settings(1, "1 s", 2, null), Shard.WHOLE, cells(1), List.of());
        assertThat(Plan.fromJson(plan.keepingDisturbed().toJson(), "plan.json").keepDisturbed()).isTrue();
        assertThat(plan.keepingDisturbed().withForks(6).keepDisturbed()).isTrue();
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(plan.toJson());
        tree.remove("keepDisturbed");
        String older = tree.toString();
        assertThat(older).doesNotContain("keepDisturbed");
        assertThat(Plan.fromJson(older, "plan.json").keepDisturbed()).isFalse();
    }

    @Test
    void tailIsKeptInThePlanAndAnOlderPlanReadsWithout() throws Exception {
        Plan plan = Plan.of(List.of(), null, 4, new Plan.Settings(1, "1 s", 2, null), Shard.WHOLE, cells(1), List.of());
        assertThat(plan.tail()).isFalse();
        Plan tailing = Plan.fromJson(plan.tailing().toJson(), "plan.json");
        assertThat(tailing.tail()).isTrue();
        assertThat(tailing.keepDisturbed()).as("one flag does not set the other").isFalse();
        assertThat(tailing.withForks(6).tail()).as("more forks on resume keep it").isTrue();
        assertThat(tailing.keepingDisturbed().tail()).isTrue();
        assertThat(plan.keepingDisturbed().tail()).isFalse();
        assertThat(tailing.id()).as("the same cells and settings: the same run").isEqualTo(plan.id());
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(tailing.toJson());
        tree.remove("tail");
        assertThat(Plan.fromJson(tree.toString(), "plan.json").tail()).isFalse();
    }

    @Test
    void notAPlanIsOneClearError() {
        assertThatThrownBy(() -> Plan.fromJson("{\"format\": 99}", "x/plan.json")).isInstanceOf(BenchException.class)
                .hasMessageContaining("x/plan.json");
        assertThatThrownBy(() -> Plan.fromJson("[1, 2", "y/plan.json")).isInstanceOf(BenchException.class)
                .hasMessageStartingWith("y/plan.json is not a valid plan.json");
    }

    @Test
    void crashSiteComesFromTheFatalErrorBanner() {
        List<String> tail = List.of("<stdout last='20 lines'>", "#", "#  SIGSEGV (0xb) at pc=0x00007f, pid=1, tid=2",
                "# Problematic frame:", "# V  [libjvm.so+0xed2f94]  Unsafe_PutLong+0x124", "#");
        assertThat(FailureRecord.crashSite(tail)).isEqualTo(" (SIGSEGV in [libjvm.so+0xed2f94]  Unsafe_PutLong+0x124)");
        assertThat(FailureRecord.crashSite(List.of("no banner here"))).isEmpty();
    }
}
