package dev.inferbench.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Not a measurement: a fork that fails on purpose, the way inference forks fail in the field, so that the harness's
 * crash isolation can be seen and tested. {@code fault} picks how: {@code none} (a trivial call), {@code throw} (an
 * exception from the benchmark), {@code exit} (the JVM halts with status 3), {@code crash} (a native segfault with an
 * hs_err log), {@code oom} (the heap runs out), {@code hang} (the fork stops responding), {@code leak} (1 MiB of native memory per 2^20 calls, never freed). The fault strikes at the
 * start of measurement iteration {@code atIteration}, after the fork has produced some output.
 *
 * <pre>java -jar target/benchmarks.jar FaultInjection -p fault=none,crash,exit -f 2 -wi 0 -i 2 -r 200ms</pre>
 */
// AverageTime: the call is trivial; what matters is whether the fork survives, not the figure.
@BenchmarkMode(Mode.AverageTime)
// Nanoseconds: the non-faulting call takes a few.
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// A small heap, so that fault=oom runs out in a second rather than after filling a quarter of the machine's memory.
@Fork(jvmArgsPrepend = "-Xmx256m")
@State(Scope.Benchmark)
public class FaultInjectionBenchmark {

    /** none, throw, exit, crash, oom, hang. */
    @Param("none")
    public String fault;

    /** The measurement iteration (1-based, warmup iterations counted first) at whose start the fault strikes. */
    @Param("1")
    public int atIteration;

    private int iteration;
    private long value;

    @Setup(Level.Iteration)
    public void strike() throws Exception {
        iteration++;
        if (iteration < atIteration) {
            return;
        }
        switch (fault) {
            case "none" -> { }
            case "leak" -> leaking = true;
            case "throw" -> throw new IllegalStateException("injected failure (fault=throw)");
            case "exit" -> Runtime.getRuntime().halt(3);
            case "crash" -> unsafe().putAddress(0L, 42L);
            case "oom" -> {
                List<long[]> hog = new ArrayList<>();
                while (true) {
                    hog.add(new long[1 << 24]);
                }
            }
            case "hang" -> {
                while (true) {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException ignored) {
                        // a hung fork does not answer interrupts either
                    }
                }
            }
            default -> throw new IllegalArgumentException("unknown fault '" + fault
                    + "'; expected one of: none, throw, exit, crash, oom, hang, leak");
        }
    }

    @Benchmark
    public void call(Blackhole bh) throws ReflectiveOperationException {
        bh.consume(value++);
        if (leaking && (value & LEAK_EVERY) == 0) {
            // native memory never freed, touched so that it is resident: what a leaking engine does
            long address = unsafe().allocateMemory(LEAK_BYTES);
            unsafe().setMemory(address, LEAK_BYTES, (byte) 1);
        }
    }

    /** fault=leak: 1 MiB of native memory per 2^20 calls, never freed. */
    private static final long LEAK_EVERY = (1 << 20) - 1;
    private static final long LEAK_BYTES = 1 << 20;
    private boolean leaking;

    private static sun.misc.Unsafe unsafe() throws ReflectiveOperationException {
        Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return (sun.misc.Unsafe) f.get(null);
    }
}
