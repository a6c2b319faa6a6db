package dev.inferbench.report;

import dev.inferbench.tail.Cause;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The words the slowest calls' drawings say of a call: its tooltip and the lines beside its close-up. */
final class SlowCallText {
    private SlowCallText() {
    }

    /** A cause's words ({@code GC pauses}); a key the report does not know as it is. */
    static String words(String cause) {
        Cause c = Cause.of(cause);
        return c == null ? cause : c.words();
    }

    /** A place on the fork's time axis, ms: to a tenth. */
    static String ms(double v) {
        return String.format(Locale.ROOT, "%,.1f", v);
    }

    /** {@code 79.4 ms call at 307.6 ms; main cause GC pauses; GC pauses 78.2 ms (G1CollectFull), ...}. */
    static String callTitle(ForkSlowCalls.Call c) {
        StringBuilder t = new StringBuilder(num(c.ms()) + " ms call at " + ms(c.startMs()) + " ms (thread "
                + c.thread() + "); main cause: " + words(c.main()));
        c.causes().entrySet().stream().sorted(Map.Entry.comparingByValue(
                Comparator.comparingDouble(ForkSlowCalls.Overlap::ms).reversed())).forEach(e -> {
                    t.append("\n").append(words(e.getKey())).append(": ").append(num(e.getValue().ms()))
                            .append(" ms overlapped").append(e.getValue().given() ? "" : " (not given)");
                    if (!e.getValue().what().isEmpty()) {
                        t.append(", ").append(String.join(", ", e.getValue().what()));
                    }
                });
        if (Double.isFinite(c.offCpuMs())) {
            t.append("\noff its CPU ").append(num(c.offCpuMs())).append(" ms");
        }
        return t.toString();
    }

    /** The causes given to the call with their overlap, the main one first: {@code GC pauses 78.2 ms of it}. */
    static List<String> overlapsLines(ForkSlowCalls.Call c) {
        List<String> out = new ArrayList<>();
        c.causes().entrySet().stream().filter(e -> e.getValue().given())
                .sorted(Comparator.comparing((Map.Entry<String, ForkSlowCalls.Overlap> e) -> !e.getKey().equals(c.main()))
                        .thenComparing(e -> -e.getValue().ms()))
                .limit(3).forEach(e -> out.add(words(e.getKey()) + ": " + num(e.getValue().ms()) + " ms of it"
                        + (e.getValue().what().isEmpty() ? "" : " (" + shorten(e.getValue().what().get(0)) + ")")));
        return out.isEmpty() ? List.of("no cause overlapped a tenth of it") : out;
    }

    /** A method or operation name short enough for a line beside a close-up; its tooltip has it whole. */
    private static String shorten(String what) {
        return what.length() <= 36 ? what : "..." + what.substring(what.length() - 33);
    }

    private static String num(double v) {
        return TailTable.num(v);
    }
}
