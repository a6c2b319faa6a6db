package dev.inferbench.run;

import dev.inferbench.Json;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.BenchmarkResultMetaData;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.inferbench.run.ResultRecord.require;

/**
 * One fork's whole JMH result as plain data: the fork's parameters, every iteration's per-thread results, every
 * profiler's results with their units and aggregation policies. JMH's JSON of a fork holds only what its writer
 * prints (no policies, no per-thread results, no profiler text), so it cannot be merged without loss; this record
 * can, and reading it runs no code named by the file (Jackson into records, no type information).
 *
 * @param format the layout of this record ({@link #FORMAT}); a reader refuses any other
 */
record ForkRecord(int format, Params params, List<Fork> forks) {
    static final int FORMAT = 1;

    private static final ObjectMapper JSON = Json.mapper(Json.Option.WHOLE);

    /** A stretch of time, as JMH's {@link TimeValue}. */
    record Time(long time, TimeUnit unit) {
        static Time of(TimeValue t) {
            return new Time(t.getTime(), t.getTimeUnit());
        }

        TimeValue value() {
            return new TimeValue(time, require(unit, "a time needs its unit"));
        }
    }

    /** Warmup or measurement settings, as JMH's {@link IterationParams}. */
    record Phase(IterationType type, int count, Time time, int batchSize) {
        static Phase of(IterationParams p) {
            return new Phase(p.getType(), p.getCount(), Time.of(p.getTime()), p.getBatchSize());
        }

        IterationParams value() {
            return new IterationParams(require(type, "a phase needs its type"), count,
                    require(time, "a phase needs its time").value(), batchSize);
        }
    }

    /** The fork's {@link BenchmarkParams}, field for field; {@code params} as [name, value] pairs in JMH's order. */
    record Params(String benchmark, String generatedBenchmark, boolean synchIterations, int threads,
                  int[] threadGroups, List<String> threadGroupLabels, int forks, int warmupForks, Phase warmup,
                  Phase measurement, Mode mode, List<List<String>> params, TimeUnit timeUnit, int opsPerInvocation,
                  String jvm, List<String> jvmArgs, String jdkVersion, String vmName, String vmVersion,
                  String jmhVersion, Time timeout) {
        static Params of(BenchmarkParams p) {
            List<List<String>> params = new ArrayList<>();
            for (String k : p.getParamsKeys()) {
                params.add(List.of(k, p.getParam(k)));
            }
            return new Params(p.getBenchmark(), p.generatedBenchmark(), p.shouldSynchIterations(), p.getThreads(),
                    p.getThreadGroups(), List.copyOf(p.getThreadGroupLabels()), p.getForks(), p.getWarmupForks(),
                    Phase.of(p.getWarmup()), Phase.of(p.getMeasurement()), p.getMode(), params, p.getTimeUnit(),
                    p.getOpsPerInvocation(), p.getJvm(), List.copyOf(p.getJvmArgs()), p.getJdkVersion(),
                    p.getVmName(), p.getVmVersion(), p.getJmhVersion(), Time.of(p.getTimeout()));
        }

        BenchmarkParams value() {
            require(benchmark != null && generatedBenchmark != null && threadGroups != null
                    && threadGroupLabels != null && warmup != null && measurement != null && mode != null
                    && params != null && timeUnit != null && jvm != null && jvmArgs != null && timeout != null,
                    "the fork's parameters are incomplete");
            WorkloadParams workload = new WorkloadParams();
            int order = 0;
            for (List<String> kv : params) {
                require(kv != null && kv.size() == 2 && kv.get(0) != null && kv.get(1) != null,
                        "a parameter is a [name, value] pair");
                workload.put(kv.get(0), kv.get(1), order++);
            }
            return new BenchmarkParams(benchmark, generatedBenchmark, synchIterations, threads, threadGroups,
                    threadGroupLabels, forks, warmupForks, warmup.value(), measurement.value(), mode, workload,
                    timeUnit, opsPerInvocation, jvm, jvmArgs, jdkVersion, vmName, vmVersion, jmhVersion,
                    timeout.value());
        }
    }

    /** One iteration: its settings, its operation counts and its raw (per-thread, per-profiler) results. */
    record Iteration(Phase phase, long allOps, long measuredOps, List<ResultRecord> results) {
        static Iteration of(IterationResult ir) {
            List<ResultRecord> results = new ArrayList<>();
            ir.getRawPrimaryResults().forEach(r -> results.add(ResultRecord.of(r)));
            for (String label : ir.getRawSecondaryResults().keys()) {
                ir.getRawSecondaryResults().get(label).forEach(r -> results.add(ResultRecord.of(r)));
            }
            IterationResultMetaData md = ir.getMetadata();
            return new Iteration(Phase.of(ir.getParams()), md == null ? 0 : md.getAllOps(),
                    md == null ? 0 : md.getMeasuredOps(), results);
        }

        IterationResult value(BenchmarkParams params) {
            IterationResult ir = new IterationResult(params, require(phase, "an iteration needs its phase").value(),
                    new IterationResultMetaData(allOps, measuredOps));
            for (ResultRecord r : require(results, "an iteration needs its results")) {
                ir.addResult(require(r, "a result is an object").toResult());
            }
            require(!ir.getRawPrimaryResults().isEmpty(), "an iteration needs a primary result");
            return ir;
        }
    }

    /**
     * One JMH benchmark result (a fork): its iterations, the results its profilers gave for the whole fork, and JMH's
     * timing of it (warmup and measurement time, stop time, operations; null when JMH kept none).
     */
    record Fork(List<Iteration> iterations, List<ResultRecord> results, long[] times, Long startTime) {
        static Fork of(BenchmarkResult br) {
            List<Iteration> iterations = br.getIterationResults().stream().map(Iteration::of).toList();
            List<ResultRecord> results = br.getBenchmarkResults().values().stream()
                    .map(r -> ResultRecord.of((Result<?>) r)).toList();
            BenchmarkResultMetaData md = br.getMetadata();
            long[] times = md == null ? null : new long[]{md.getWarmupTime(), md.getMeasurementTime(),
                    md.getStopTime(), md.getWarmupOps(), md.getMeasurementOps()};
            return new Fork(iterations, results, times, md == null ? null : startTime(md));
        }

        BenchmarkResult value(BenchmarkParams params) {
            List<IterationResult> its = new ArrayList<>();
            for (Iteration it : require(iterations, "a fork needs its iterations")) {
                its.add(require(it, "an iteration is an object").value(params));
            }
            require(!its.isEmpty(), "a fork needs at least one iteration");
            BenchmarkResultMetaData md = null;
            if (times != null) {
                require(times.length == 5, "a fork's times are 5 numbers");
                md = new BenchmarkResultMetaData(times[0], times[1], times[2], times[3], times[4]);
                if (startTime != null) {
                    md.adjustStart(startTime);
                }
            }
            BenchmarkResult br = new BenchmarkResult(params, its, md);
            for (ResultRecord r : require(results, "a fork needs its list of results")) {
                br.addBenchmarkResult(require(r, "a result is an object").toResult());
            }
            return br;
        }

        private static Long startTime(BenchmarkResultMetaData md) {
            try {
                return md.getStartTime();
            } catch (IllegalStateException unset) {
                return null;
            }
        }
    }

    static ForkRecord of(RunResult result) {
        List<Fork> forks = result.getBenchmarkResults().stream().map(Fork::of).toList();
        return new ForkRecord(FORMAT, Params.of(result.getParams()), forks);
    }

    /** The JMH result again; IllegalArgumentException (or JMH's own refusal) when the record cannot be one. */
    RunResult value() {
        require(format == FORMAT, "format " + format + "; expected " + FORMAT);
        BenchmarkParams p = require(params, "the record needs the fork's parameters").value();
        List<BenchmarkResult> results = new ArrayList<>();
        for (Fork f : require(forks, "the record needs its forks")) {
            results.add(require(f, "a fork is an object").value(p));
        }
        require(!results.isEmpty(), "the record holds no fork");
        return new RunResult(p, results);
    }

    byte[] toJson() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a fork record as JSON", e);
        }
    }

    /**
     * The record in {@code json}, as JMH objects. Every way a file can be wrong (not JSON, too deep, a field of the
     * wrong type, a value JMH refuses) is an IllegalArgumentException with what was wrong.
     */
    static RunResult read(byte[] json) {
        ForkRecord record;
        try {
            record = JSON.readValue(json, ForkRecord.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        require(record, "the file holds no record");
        try {
            return record.value();
        } catch (IllegalStateException | NullPointerException e) {
            throw new IllegalArgumentException(String.valueOf(e.getMessage()), e);
        }
    }
}
