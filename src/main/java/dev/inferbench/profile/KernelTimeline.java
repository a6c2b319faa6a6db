package dev.inferbench.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ONNX Runtime's kernels and {@code model_run}s of one or more sessions on one clock: ns since the epoch, the clock
 * async-profiler's samples convert to. Answers, for an instant, which kernel the thread that called the session was
 * running, and which kernels were running anywhere (what ORT's intra-op workers worked for: with the sequential
 * executor one kernel of a session runs at a time and the workers run parts of it).
 */
final class KernelTimeline {
    /** A kernel on the common clock, {@code [start, end)} in ns. */
    record Span(long start, long end, long tid, OrtProfile.Kernel kernel) {
    }

    private final List<Span> kernels;
    private final Intervals allKernels;
    private final Map<Long, Intervals> kernelsByThread = new HashMap<>();
    private final Map<Long, Intervals> runsByThread = new HashMap<>();
    private final long from;
    private final long to;

    /**
     * @param sessions each session's profile with the instant its profiler started (ORT's times are µs after it)
     */
    KernelTimeline(List<Map.Entry<Long, OrtProfile>> sessions) {
        List<Span> kernels = new ArrayList<>();
        List<Span> runs = new ArrayList<>();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Map.Entry<Long, OrtProfile> s : sessions) {
            long zero = s.getKey();
            first = Math.min(first, zero);
            for (OrtProfile.Kernel k : s.getValue().kernels()) {
                Span span = new Span(zero + k.start() * 1000, zero + (k.start() + k.micros()) * 1000, k.tid(), k);
                kernels.add(span);
                last = Math.max(last, span.end());
            }
            for (OrtProfile.Run r : s.getValue().modelRuns()) {
                Span span = new Span(zero + r.start() * 1000, zero + (r.start() + r.micros()) * 1000, r.tid(), null);
                runs.add(span);
                last = Math.max(last, span.end());
            }
        }
        this.from = first;
        this.to = last;
        this.kernels = List.copyOf(kernels);
        this.allKernels = new Intervals(kernels);
        group(kernels, kernelsByThread);
        group(runs, runsByThread);
    }

    private static void group(List<Span> spans, Map<Long, Intervals> byThread) {
        Map<Long, List<Span>> lists = new HashMap<>();
        spans.forEach(s -> lists.computeIfAbsent(s.tid(), t -> new ArrayList<>()).add(s));
        lists.forEach((tid, list) -> byThread.put(tid, new Intervals(list)));
    }

    /** Every kernel of every session, in the order of the profiles. */
    List<Span> kernels() {
        return kernels;
    }

    /** Whether ORT's profile covers the instant: from its profiler's start to its last event's end. */
    boolean covers(long ns) {
        return ns >= from && ns < to;
    }

    /** Whether the thread called the session (ran {@code model_run}) at any time in the profile. */
    boolean isCaller(long tid) {
        return runsByThread.containsKey(tid);
    }

    /** The kernel the thread was running at the instant, or null. */
    Span kernelOn(long tid, long ns) {
        Intervals k = kernelsByThread.get(tid);
        List<Span> at = k == null ? List.of() : k.at(ns);
        return at.isEmpty() ? null : at.get(0);
    }

    /** Whether the thread was inside one of its {@code model_run}s at the instant. */
    boolean inRunOn(long tid, long ns) {
        Intervals r = runsByThread.get(tid);
        return r != null && !r.at(ns).isEmpty();
    }

    /** The kernels running on any thread at the instant. */
    List<Span> kernelsAt(long ns) {
        return allKernels.at(ns);
    }

    /** Spans sorted by start, with the running maximum of their ends, to find those holding an instant. */
    private static final class Intervals {
        private final Span[] spans;
        private final long[] maxEnd;

        Intervals(List<Span> list) {
            spans = list.stream().sorted(Comparator.comparingLong(Span::start)).toArray(Span[]::new);
            maxEnd = new long[spans.length];
            long max = Long.MIN_VALUE;
            for (int i = 0; i < spans.length; i++) {
                max = Math.max(max, spans[i].end());
                maxEnd[i] = max;
            }
        }

        List<Span> at(long ns) {
            int lo = 0;
            int hi = spans.length - 1;
            int last = -1; // the last span starting at or before ns
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (spans[mid].start() <= ns) {
                    last = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            List<Span> out = new ArrayList<>(1);
            for (int i = last; i >= 0 && maxEnd[i] > ns; i--) {
                if (spans[i].end() > ns) {
                    out.add(spans[i]);
                }
            }
            return out;
        }
    }
}
