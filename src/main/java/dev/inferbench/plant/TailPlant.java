package dev.inferbench.plant;

import dev.inferbench.BenchException;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Causes of slow calls planted in the {@code stub} engine's calls at known calls, so that {@code --tail}'s attribution
 * can be held against them: {@code -Dinferbench.tailPlant=gc=50,safepoint=40,descheduled=30} among the forks' JVM
 * arguments.
 * <ul>
 *   <li>{@code gc=N}: every Nth call asks for a collection ({@code System.gc()}: a stop-the-world full GC);</li>
 *   <li>{@code safepoint=M}: every Mth call dumps every thread's stack and locks
 *       ({@code ThreadMXBean.dumpAllThreads(true, true)}, a VM operation that walks the heap at a safepoint);</li>
 *   <li>{@code descheduled=K}: every Kth call runs beside a rival thread that spins on the same CPU as the caller
 *       ({@link SameCpuRival}: both pinned there), so the scheduler takes the caller off its CPU for part of the call.
 *       The call must do CPU work for that to make it slower: plant {@code cpu=} in {@code -Dinferbench.stub}.</li>
 * </ul>
 * The kinds fall on different calls (the safepoint's a third of its period later than the GC's, the descheduled
 * calls two thirds). Each planted action is marked by a {@link PlantedCause} JFR event, the truth the attribution is
 * read against.
 */
public final class TailPlant {
    public static final String PROPERTY = "inferbench.tailPlant";
    public static final TailPlant NONE = new TailPlant(0, 0, 0);
    private static final Pattern ENTRY = Pattern.compile("(gc|safepoint|descheduled)=(\\d{1,7})");

    private final int gcEvery;
    private final int safepointEvery;
    private final int descheduledEvery;
    private SameCpuRival rival;

    public TailPlant(int gcEvery, int safepointEvery, int descheduledEvery) {
        this.gcEvery = gcEvery;
        this.safepointEvery = safepointEvery;
        this.descheduledEvery = descheduledEvery;
    }

    /** The plant this JVM was given, {@link #NONE} without the property. */
    public static TailPlant ofProperty() throws BenchException {
        String text = System.getProperty(PROPERTY);
        return text == null || text.isBlank() ? NONE : parse(text);
    }

    public static TailPlant parse(String text) throws BenchException {
        int gc = 0;
        int safepoint = 0;
        int descheduled = 0;
        for (String part : text.split(",")) {
            Matcher m = ENTRY.matcher(part.strip().toLowerCase(Locale.ROOT));
            if (!m.matches() || Integer.parseInt(m.group(2)) < 3) {
                throw new BenchException("-D" + PROPERTY + "=" + text + ": cannot read '" + part.strip() + "'; expected"
                        + " gc=N, safepoint=N or descheduled=N (every Nth call, N at least 3), joined by commas");
            }
            int every = Integer.parseInt(m.group(2));
            switch (m.group(1)) {
                case "gc" -> gc = every;
                case "safepoint" -> safepoint = every;
                default -> descheduled = every;
            }
        }
        return new TailPlant(gc, safepoint, descheduled);
    }

    /** Whether call {@code n} (from 1) is one of those {@code every} names, {@code third} thirds into its period. */
    static boolean planted(long n, int every, int third) {
        return every > 0 && n % every == (long) every * third / 3;
    }

    /** Before the stub's planted work of call {@code n}: a collection, a thread dump or the rival's start. */
    public void before(long n) throws BenchException {
        if (planted(n, gcEvery, 0)) {
            PlantedCause mark = new PlantedCause("gc");
            mark.begin();
            System.gc();
            mark.commit();
        }
        if (planted(n, safepointEvery, 1)) {
            PlantedCause mark = new PlantedCause("safepoint");
            mark.begin();
            // with the locked synchronizers: the dump walks the heap inside its safepoint, so the stop lasts
            ManagementFactory.getThreadMXBean().dumpAllThreads(true, true);
            mark.commit();
        }
        if (descheduledEvery > 0 && rival == null) {
            rival = SameCpuRival.besideThisThread();
        }
        if (planted(n, descheduledEvery, 2)) {
            PlantedCause mark = new PlantedCause("descheduled");
            mark.begin();
            rival.compete();
            mark.commit();
        }
    }

    /** After the stub's planted work of call {@code n}: the rival stops. */
    public void after(long n) {
        if (planted(n, descheduledEvery, 2)) {
            rival.rest();
        }
    }

    /** The plant as it is written, for the run's console. */
    public String describe() {
        return "tail plant: a collection every " + gcEvery + " calls, a thread dump every " + safepointEvery
                + ", a rival on the caller's CPU every " + descheduledEvery + " (0: none)";
    }
}
