package dev.inferbench.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Concurrent callers and open-loop serving through the jar, on the tiny MLP with short steps. */
class ServingIT {
    @TempDir
    static Path work;

    private static JsonNode result(Path cwd) throws Exception {
        try (Stream<Path> s = Files.list(cwd.resolve("results"))) {
            Path run = s.filter(d -> !d.getFileName().toString().equals("history")).findFirst().orElseThrow();
            return new ObjectMapper().readTree(run.resolve("jmh-result.json").toFile());
        }
    }

    @Test
    void callersAreCheckedAndCountedInTotal() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("callers"));
        Jar.Run r = Jar.run(cwd, "-p model=mlp-tiny -p batchSize=1 -p callers=1,2 -p sharing=shared,per-caller"
                + " -f 1 -wi 1 -w 100ms -i 1 -r 300ms" + Jar.NO_SPARES);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        // the concurrency check ran in each two-caller cell, and the summary shows the CPU columns
        assertThat(r.out()).contains("2 callers (shared), each on its own input: 20 rounds of calls started together"
                + " at a barrier (").contains("1 batch size(s), each call gave exactly its input's outputs run alone")
                .contains("2 callers (per-caller), each on its own input");
        assertThat(r.out()).contains("cpu/call").contains("cores");
        JsonNode cells = result(cwd);
        assertThat(cells.size()).isEqualTo(4);
        for (JsonNode cell : cells) {
            int callers = cell.get("params").get("callers").asInt();
            assertThat(cell.get("threads").asInt()).as("JMH threads are the callers").isEqualTo(callers);
            JsonNode m = cell.get("secondaryMetrics");
            assertThat(m.get("cpu.call").get("score").asDouble()).isPositive();
            assertThat(m.get("cpu.cores").get("score").asDouble()).isPositive();
            // the callers' and the engine's threads: part of the process's CPU, and most of it in a µs-call loop
            double serving = m.get("cpu.call.serving").get("score").asDouble();
            assertThat(serving).isPositive().isLessThanOrEqualTo(m.get("cpu.call").get("score").asDouble() * 1.05);
            // samples/s in total: batch x callers / mean time per call (ms) x 1000, fork by fork
            JsonNode perCall = m.get("mean.all").get("rawData");
            JsonNode samples = m.get("samples").get("rawData");
            assertThat(samples.size()).isEqualTo(perCall.size()).isPositive();
            for (int f = 0; f < perCall.size(); f++) {
                assertThat(samples.get(f).get(0).asDouble()).as("fork " + (f + 1)).isCloseTo(
                        callers * 1000.0 / perCall.get(f).get(0).asDouble(),
                        org.assertj.core.api.Assertions.withinPercentage(0.01));
            }
        }
    }

    @Test
    void anOpenLoopSweepGivesServingFiguresAndTheKnee() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("serving"));
        Jar.Run r = Jar.run(cwd, "Serving -p model=mlp-tiny -p batchSize=1 -p threads=1 -p rate=200,400 -p stepSeconds=0 "
                + "-p slo=p90<1s -p requests=100 -f 1" + Jar.NO_SPARES);
        // the README's serving example as a newcomer sees it: a screen or two, a line per fork, files that exist
        List<String> lines = Screen.fitsTwoScreens(r);
        assertThat(r.out()).contains("knee: mlp-tiny on ort").doesNotContain("seqLen");
        assertThat(lines.stream().filter(l -> l.startsWith("[inferbench] fork ")))
                .hasSize(2).allMatch(l -> l.matches(".*cell \\d/2 rate=\\d+, fork 1 of 1.*"));
        Screen.closingLinesNameFilesThatExist(cwd, lines);
        assertThat(r.out()).contains("serving (open loop").contains("late %").contains("valid");
        JsonNode cells = result(cwd);
        assertThat(cells.size()).isEqualTo(2);
        boolean allValid = true;
        for (JsonNode cell : cells) {
            JsonNode m = cell.get("secondaryMetrics");
            double offered = Double.parseDouble(cell.get("params").get("rate").asText());
            assertThat(m.get("serve.offered").get("score").asDouble()).isEqualTo(offered);
            assertThat(m.get("serve.rate").get("score").asDouble()).isPositive();
            for (String f : List.of("serve.p50", "serve.p90", "serve.max", "serve.queue.max", "serve.late",
                    "serve.dropped", "serve.slo", "cpu.call", "cpu.generator", "serve.valid", "serve.wait",
                    "serve.goodput", "cpu.call.serving", "cpu.call.wait")) {
                assertThat(m.has(f)).as(f).isTrue();
            }
            // the serving threads are a part of the process less the generator; their wait a part of them
            double serving = m.get("cpu.call.serving").get("score").asDouble();
            assertThat(serving).isPositive().isLessThanOrEqualTo(m.get("cpu.call").get("score").asDouble() * 1.05);
            assertThat(m.get("cpu.call.wait").get("score").asDouble()).isLessThanOrEqualTo(serving);
            assertThat(m.has("serve.p99")).as("100 requests do not stand behind a p99").isFalse();
            // p90<1s is met by any step that measured the service; a step the machine's other work made late is
            // INVALID and then never meets it (on a quiet machine both rates are valid)
            allValid &= m.get("serve.valid").get("score").asDouble() == 1.0;
            assertThat(m.get("serve.slo").get("score").asDouble()).isEqualTo(m.get("serve.valid").get("score").asDouble());
            assertThat(m.get("serve.p50").get("score").asDouble()).isLessThanOrEqualTo(m.get("serve.p90").get("score").asDouble());
        }
        String knee = "knee: mlp-tiny on ort, batch 1, 1 caller (shared) × 1 thread, poisson arrivals: ";
        if (allValid) {
            assertThat(r.out()).contains(knee + "400.0 req/s at p90<1s (the highest rate tried; every rate met it)");
        } else {
            assertThat(r.out()).contains(knee).containsPattern("INVALID: (arrivals late|callers fell behind)");
        }
        try (Stream<Path> s = Files.walk(cwd.resolve("results"))) {
            assertThat(s.map(p -> p.getFileName().toString())).contains("mlp-tiny-serving-tail-vs-rate.svg",
                    "mlp-tiny-serving-latency-vs-throughput.svg");
        }
    }

    @Test
    void dynamicBatchingServesEachRequestAsOneSampleInSharedCalls() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("batching"));
        // 2,000 req/s for one caller that holds its first request 2 ms for more: calls gather several requests;
        // --tail: each service call goes on the caller's slow-call record
        Jar.Run r = Jar.run(cwd, "Serving -p model=mlp-tiny -p batchSize=8 -p batchWaitMs=2 -p threads=1 -p rate=2000 -p stepSeconds=0"
                + " -p requests=1600 -f 1 --tail" + Jar.NO_SPARES);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("req/call")
                .containsPattern("(?m)^tail +ServingBenchmark\\.step model=mlp-tiny engine=ort batchSize=8: p99 [0-9.]+ ms");
        JsonNode m = result(cwd).get(0).get("secondaryMetrics");
        double perCall = m.get("serve.batch").get("score").asDouble();
        assertThat(perCall).isGreaterThan(1).isLessThanOrEqualTo(8);
        // the calls above the tail's p99 are a hundredth of the service calls (1,600 requests, perCall each), not
        // of the requests
        assertThat(m.get("tail.calls").get("score").asDouble()).isPositive()
                .isLessThanOrEqualTo(Math.ceil(0.01 * 1600 / perCall) + 1);
        // each request is one sample: samples/s is the served rate, not 8 times it
        assertThat(m.get("samples").get("score").asDouble()).isEqualTo(m.get("serve.rate").get("score").asDouble());
    }
    @Test
    void generationRequestsUnderLoadGiveTokenFiguresAndGoodput() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("generation"));
        // 100 requests at 50 req/s on llama-tiny, lengths drawn per request, static batches of up to 2
        Jar.Run r = Jar.run(cwd, "GenerationLoadBenchmark -p model=llama-tiny -p threads=1 -p batchSize=2"
                + " -p promptLen=uniform(8..32) -p outputLen=uniform(4..12) -p rate=50 -p requests=100 -p stepSeconds=0"
                + " -p slo=ttft.p90<1s&tpot.p90<1s -f 1" + Jar.NO_SPARES);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("TTFT p50").contains("TPOT p50").contains("out tok/s")
                .contains("static batches of up to 2 requests");
        JsonNode m = result(cwd).get(0).get("secondaryMetrics");
        for (String f : List.of("serve.ttft.p50", "serve.ttft.p90", "serve.tpot.p50", "serve.tpot.p90",
                "serve.itl.p50", "serve.itl.p90", "serve.tokens.output", "serve.goodput", "serve.batch", "serve.valid")) {
            assertThat(m.has(f)).as(f).isTrue();
        }
        assertThat(m.has("serve.ttft.p99")).as("100 requests do not stand behind a p99").isFalse();
        double rate = m.get("serve.rate").get("score").asDouble();
        // each request's tokens are its own output length: 4 to 12, 8 on average
        assertThat(m.get("serve.tokens.output").get("score").asDouble() / rate).isBetween(6.0, 10.0);
        assertThat(m.get("serve.goodput").get("score").asDouble()).isLessThanOrEqualTo(rate + 1e-9);
        // TTFT counts from the intended arrival: at least the request's own prefill, at most its whole latency
        assertThat(m.get("serve.ttft.p50").get("score").asDouble()).isPositive()
                .isLessThanOrEqualTo(m.get("serve.p50").get("score").asDouble());
        // a 1 s bound is met by any step that measured the service; an INVALID one never meets it
        assertThat(m.get("serve.slo").get("score").asDouble()).isEqualTo(m.get("serve.valid").get("score").asDouble());
    }
}
