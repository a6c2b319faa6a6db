package dev.inferbench.profile;

import dev.inferbench.BenchException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code --flame} records: at most one time-based event ({@code cpu}, {@code wall}, {@code itimer},
 * {@code ctimer}) plus {@code alloc}, {@code lock} and/or {@code nativemem}, all in one JFR recording per fork (JMH's
 * async profiler records several events at once only as JFR), from which the flame graphs are drawn.
 * {@code nativemem} records every native allocation and free (malloc, calloc, realloc, free of every library, the
 * engine's included) and its graph shows the bytes allocated in the measured iterations and not freed by their end:
 * native memory that grows is there by the code path that allocated it. {@code ops} is no profiler event: it records
 * ONNX Runtime's session profile in the fork too and joins it into the time graph ({@link OperatorFlame}), so it
 * needs a time event.
 */
public record FlameSettings(String timeEvent, boolean alloc, boolean lock, boolean nativemem, boolean ops) {
    public static final String DEFAULT = "cpu,alloc";
    /** The native-memory event, as the option, the converter and the flame graph's files name it. */
    public static final String NATIVEMEM = "nativemem";
    /** ORT's operator frames joined into the time graph. */
    public static final String OPS = "ops";
    private static final List<String> TIME_EVENTS = List.of("cpu", "wall", "itimer", "ctimer");

    public static FlameSettings parse(String events) throws BenchException {
        String time = null;
        boolean alloc = false;
        boolean lock = false;
        boolean nativemem = false;
        boolean ops = false;
        for (String raw : events.split(",")) {
            String e = raw.trim().toLowerCase(Locale.ROOT);
            if (e.equals("alloc")) {
                alloc = true;
            } else if (e.equals("lock")) {
                lock = true;
            } else if (e.equals(NATIVEMEM)) {
                nativemem = true;
            } else if (e.equals(OPS)) {
                ops = true;
            } else if (TIME_EVENTS.contains(e)) {
                if (time != null && !time.equals(e)) {
                    throw new BenchException("flame events '" + time + "' and '" + e + "' cannot be recorded together; "
                            + "expected one of " + TIME_EVENTS + ", plus alloc, lock and/or nativemem");
                }
                time = e;
            } else {
                throw new BenchException("unknown flame event '" + raw.trim() + "'; expected some of: cpu, wall, itimer, "
                        + "ctimer, alloc, lock, nativemem, ops (e.g. --flame-events cpu,alloc)");
            }
        }
        if (time == null && !alloc && !lock && !nativemem) {
            throw new BenchException("--flame-events is empty; expected e.g. cpu,alloc");
        }
        if (ops && time == null) {
            throw new BenchException("flame event 'ops' joins ONNX Runtime's operators into a time graph; expected a "
                    + "time event beside it, e.g. --flame-events cpu,ops");
        }
        return new FlameSettings(time, alloc, lock, nativemem, ops);
    }

    /** The events in the recording, in the converter's terms: {@code cpu}, {@code alloc}, ... */
    public List<String> events() {
        List<String> out = new ArrayList<>();
        if (timeEvent != null) {
            out.add(timeEvent);
        }
        if (alloc) {
            out.add("alloc");
        }
        if (lock) {
            out.add("lock");
        }
        if (nativemem) {
            out.add(NATIVEMEM);
        }
        return out;
    }

    /** The option string of JMH's async profiler ({@code -prof async:...}) for one fork. */
    public String jmhOptions(Path library, Path dir) {
        StringBuilder sb = new StringBuilder("libPath=").append(library).append(";output=jfr;dir=").append(dir);
        if (timeEvent != null) {
            sb.append(";event=").append(timeEvent);
        }
        if (alloc) {
            sb.append(";alloc");
        }
        if (lock) {
            sb.append(";lock");
        }
        if (nativemem) {
            // JMH's option parser knows no nativemem; its rawCommand is passed to the profiler's start as it is.
            // Interval 0: every allocation and free, so that what was freed is known and the rest is what leaked
            sb.append(";rawCommand=nativemem=0");
        }
        return sb.toString();
    }
}
