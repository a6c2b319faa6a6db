package dev.inferbench.commits;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code compare-commits --keep-busy CPUS}: a process of this jar pinned to those CPUs, one spinning thread per CPU,
 * for the whole comparison. On some VMs a lone busy vCPU runs by fits at two speeds (calls of microseconds 1.6 times
 * as long for a second or more) while its sibling vCPUs idle, and at the faster one throughout while they are busy
 * (docs/evidence/us-cells.md). Both sides of every pair run beside it, so it moves no ratio; it takes the fits out of
 * a pair's spread. Its CPU counts as this comparison's own, not as other processes' ({@link MachineLog}).
 */
final class KeptBusy implements AutoCloseable {
    private final Process process;

    private KeptBusy(Process process) {
        this.process = process;
    }

    /** @param cpus the CPUs to keep busy, a taskset list, each checked against those this process may use */
    static KeptBusy start(List<Integer> cpus) throws Stop {
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", CpuPlan.joined(cpus),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), KeptBusy.class.getName(),
                Integer.toString(cpus.size())));
        try {
            return new KeptBusy(new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
        } catch (IOException e) {
            throw Stop.failure("cannot start the process of --keep-busy (" + e.getMessage() + ")");
        }
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        dev.inferbench.ChildProcesses.end(process);
    }

    /** The spinning process: {@code N} threads spinning until the comparison that started it ends. */
    public static void main(String[] args) throws InterruptedException {
        ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        int n = Integer.parseInt(args[0]);
        for (int i = 0; i < n; i++) {
            Thread spin = new Thread(() -> {
                long x = 0;
                while (true) {
                    x += System.nanoTime() & 1;
                    if (x == Long.MIN_VALUE) {
                        System.out.println(x); // never: keeps the loop from being removed
                    }
                }
            }, "keep-busy-" + i);
            spin.setDaemon(true);
            spin.start();
        }
        while (parent != null && parent.isAlive()) {
            Thread.sleep(100);
        }
    }
}
