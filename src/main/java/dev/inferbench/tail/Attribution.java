package dev.inferbench.tail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The causes of each slow call: every episode that overlapped it, by cause, with the time it overlapped (the union
 * of that cause's episodes within the call, so that two phases of one pause count once), and then what is left of
 * the call's time off its CPU once the GC pauses, safepoints and the thread's own waits are taken off: the time it
 * was descheduled. A cause is given to a call when it overlapped at least {@value #GIVEN_SHARE} of the call (a
 * deoptimization, an instant, when it happened during the call). The main cause is the given cause that overlapped
 * the most of those that kept the thread from running (a GC pause, a safepoint, its own wait, descheduling), ties
 * going to {@link Cause}'s order; a deoptimization, then a compilation, which slow a thread that runs, are the main
 * cause only of a call none of those explains (compiler threads compile during many calls that they do not slow).
 */
final class Attribution {
    /** The share of a call a cause must overlap to be given to it: less is too little to explain a slow call. */
    static final double GIVEN_SHARE = 0.10;
    /** The causes that keep the calling thread from running: the main cause is one of them where one is given. */
    private static final Set<Cause> STOPPING = Set.of(Cause.GC, Cause.SAFEPOINT, Cause.WAIT, Cause.DESCHEDULED);

    /** A call and what overlapped it: ns per cause (every cause that touched it), the causes given, the main one. */
    record Attributed(SlowCall call, Map<Cause, Long> overlaps, Map<Cause, Set<String>> what, Set<Cause> given,
                      Cause main) {
        boolean explained() {
            return main != null;
        }
    }

    private final Episode[] episodes;
    private final long longest;

    Attribution(List<Episode> episodes) {
        this.episodes = episodes.toArray(Episode[]::new);
        Arrays.sort(this.episodes, Comparator.comparingLong(Episode::start));
        this.longest = episodes.stream().mapToLong(e -> e.end() - e.start()).max().orElse(0);
    }

    List<Attributed> of(List<SlowCall> calls) {
        List<Attributed> out = new ArrayList<>(calls.size());
        for (SlowCall c : calls) {
            out.add(of(c));
        }
        return out;
    }

    Attributed of(SlowCall call) {
        Map<Cause, List<long[]>> spans = new EnumMap<>(Cause.class);
        Map<Cause, Set<String>> what = new EnumMap<>(Cause.class);
        for (int i = first(call.start() - longest); i < episodes.length && episodes[i].start() <= call.end(); i++) {
            Episode e = episodes[i];
            if (!e.touches(call)) {
                continue;
            }
            spans.computeIfAbsent(e.cause(), k -> new ArrayList<>())
                    .add(new long[] {Math.max(e.start(), call.start()), Math.min(e.end(), call.end())});
            Set<String> names = what.computeIfAbsent(e.cause(), k -> new LinkedHashSet<>());
            if (names.size() < 3 && e.what() != null && !e.what().isEmpty()) {
                names.add(e.what());
            }
        }
        Map<Cause, Long> overlaps = new EnumMap<>(Cause.class);
        spans.forEach((cause, list) -> overlaps.put(cause, covered(list)));
        List<long[]> stopped = new ArrayList<>();
        for (Cause c : List.of(Cause.GC, Cause.SAFEPOINT, Cause.WAIT)) {
            stopped.addAll(spans.getOrDefault(c, List.of()));
        }
        long descheduled = Math.max(0, call.offCpuNanos() - covered(stopped));
        if (descheduled > 0) {
            overlaps.put(Cause.DESCHEDULED, descheduled);
        }
        Set<Cause> given = new LinkedHashSet<>();
        Cause main = null;
        long most = -1;
        for (Map.Entry<Cause, Long> o : overlaps.entrySet()) {
            boolean instant = o.getKey() == Cause.DEOPT;
            if (instant || o.getValue() >= GIVEN_SHARE * call.nanos()) {
                given.add(o.getKey());
                if (STOPPING.contains(o.getKey()) && o.getValue() > most) {
                    most = o.getValue();
                    main = o.getKey();
                }
            }
        }
        if (main == null) {
            main = given.contains(Cause.DEOPT) ? Cause.DEOPT : given.contains(Cause.COMPILE) ? Cause.COMPILE : null;
        }
        return new Attributed(call, overlaps, what, given, main);
    }

    /** The first episode that starts at or after {@code at}. */
    private int first(long at) {
        int lo = 0;
        int hi = episodes.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (episodes[mid].start() < at) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The time the spans cover together, ns. */
    static long covered(List<long[]> spans) {
        List<long[]> sorted = new ArrayList<>(spans);
        sorted.sort(Comparator.comparingLong(s -> s[0]));
        long total = 0;
        long from = Long.MIN_VALUE;
        long to = Long.MIN_VALUE;
        for (long[] s : sorted) {
            if (s[0] > to) {
                total += Math.max(0, to - from);
                from = s[0];
                to = s[1];
            } else {
                to = Math.max(to, s[1]);
            }
        }
        return total + Math.max(0, to - from);
    }
}
