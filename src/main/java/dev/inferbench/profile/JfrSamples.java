package dev.inferbench.profile;

import dev.inferbench.BenchException;
import one.convert.Arguments;
import one.convert.JfrConverter;
import one.jfr.JfrReader;
import one.jfr.StackTrace;
import one.jfr.event.Event;
import one.jfr.event.EventCollector;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cpu samples of an async-profiler recording one by one, each with its thread, its instant and its frames as
 * the converter names them in collapsed stacks, type suffix included ({@code _[j]}, {@code _[k]}...), so that a
 * stack written from here reads like one the converter wrote. The converter itself sums equal stacks and forgets
 * when each sample was taken, which the join with ONNX Runtime's timeline needs.
 */
final class JfrSamples extends JfrConverter {
    /** The converter's suffix per frame type: interpreted, JIT, inlined, native, C++, kernel, C1. */
    private static final String[] SUFFIX = {"_[0]", "_[j]", "_[i]", "", "", "_[k]", "_[1]"};

    private final List<OperatorJoin.Sample> samples = new ArrayList<>();
    private final Map<Long, String> threads = new HashMap<>();

    /** The samples, and the name the recording gives each of their threads (OS threads too: GC, compiler). */
    record Recording(List<OperatorJoin.Sample> samples, Map<Long, String> threads) {
    }

    private JfrSamples(JfrReader jfr, String event) {
        super(jfr, new Arguments("--" + event));
    }

    /** The samples of the recording's time event ({@code cpu}, {@code wall}...), in the order recorded. */
    static List<OperatorJoin.Sample> read(Path jfr, String event) throws BenchException {
        return recording(jfr, event).samples();
    }

    /** As {@link #read}, with the threads' names. */
    static Recording recording(Path jfr, String event) throws BenchException {
        try (JfrReader reader = new JfrReader(jfr.toString())) {
            JfrSamples s = new JfrSamples(reader, event);
            s.convert();
            return new Recording(s.samples, s.threads);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot read the samples of " + jfr + ": " + e, e);
        }
    }

    @Override
    protected EventCollector createCollector(Arguments args) {
        return new Kept();
    }

    @Override
    protected void convertChunk() {
        Kept kept = (Kept) collector;
        for (Event e : kept.events) {
            StackTrace trace = jfr.stackTraces.get(e.stackTraceId);
            if (trace == null) {
                continue;
            }
            List<String> frames = new ArrayList<>(trace.methods.length);
            for (int i = trace.methods.length; --i >= 0; ) {
                byte type = trace.types[i];
                String suffix = type >= 0 && type < SUFFIX.length ? SUFFIX[type] : "";
                frames.add(getMethodName(trace.methods[i], type).replace(';', ':') + suffix);
            }
            long ns = jfr.eventTimeToNanos(e.time);
            if (!threads.containsKey((long) e.tid)) {
                String name = jfr.threads.get(e.tid);
                if (name != null) {
                    threads.put((long) e.tid, name);
                }
            }
            for (long n = Math.max(1, e.samples()); n > 0; n--) {
                samples.add(new OperatorJoin.Sample(e.tid, ns, frames));
            }
        }
        kept.events.clear();
    }

    /** Keeps every event of a chunk as it came (the converter's aggregator merges them). */
    private static final class Kept implements EventCollector {
        final List<Event> events = new ArrayList<>();

        @Override
        public void collect(Event e) {
            events.add(e);
        }

        @Override
        public void beforeChunk() {
        }

        @Override
        public void afterChunk() {
        }

        @Override
        public boolean finish() {
            return false;
        }

        @Override
        public void forEach(Visitor visitor) {
            events.forEach(e -> visitor.visit(e, e.samples(), e.value()));
        }
    }
}
