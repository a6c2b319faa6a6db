package dev.inferbench.run;

import java.lang.reflect.Field;

/**
 * A child JVM's entry point for {@link ChildJvmTest}: reads its request and then ends as its step says, the way a
 * native engine can end a JVM: {@code segv} writes to address 0, {@code kill} is SIGKILL from outside, {@code refuse}
 * is a refusal's one line and exit 2, {@code ok} prints a line and ends.
 */
final class CrashingStep {
    private CrashingStep() {
    }

    public static void main(String[] args) throws Exception {
        ChildJvm.Request r = ChildJvm.read(System.in);
        System.out.println("step " + r.step() + " started");
        System.out.flush();
        switch (r.step()) {
            case "segv" -> {
                Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
                f.setAccessible(true);
                sun.misc.Unsafe unsafe = (sun.misc.Unsafe) f.get(null);
                unsafe.putAddress(0, 0);
            }
            case "kill" -> new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start()
                    .waitFor();
            case "refuse" -> {
                System.out.println("inferbench: x.npy is not a .npy array; expected a .npy file");
                System.exit(ChildJvm.REFUSED);
            }
            default -> System.out.println("done in " + r.dir());
        }
        System.exit(0);
    }
}
