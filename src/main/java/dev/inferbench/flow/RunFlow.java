package dev.inferbench.flow;

import dev.inferbench.AtomicFile;
import dev.inferbench.run.ChildJvm;
import dev.inferbench.BenchException;
import dev.inferbench.prepare.RunSetup;
import dev.inferbench.profile.FlameHook;
import dev.inferbench.profile.TailHook;
import dev.inferbench.profile.OperatorPass;
import dev.inferbench.results.RunLayout;
import dev.inferbench.run.LoopSettings;
import dev.inferbench.run.Pacer;
import dev.inferbench.profile.UserAsyncHook;
import dev.inferbench.results.RunInfo;
import dev.inferbench.run.ForkHook;
import dev.inferbench.run.RunConsole;
import dev.inferbench.run.RunLoop;
import dev.inferbench.run.RunStoppedException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One benchmark run from the parsed command line to its last line, down the layers once: the plan and folder
 * ({@link RunSetup}), the fork hooks, the run loop, then everything after the last fork ({@link AfterRun}).
 */
public final class RunFlow {
    private final PrintStream out;
    private final PrintStream err;

    public RunFlow(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public AfterRun.Ending run(RunRequest request) throws BenchException, IOException, RunStoppedException {
        RunSetup.Prepared prepared = request.options().resume() != null
                ? RunSetup.resume(request.options().resume(), request.args(), request.options().trustFolder(), out)
                : RunSetup.create(request.args(), request.options().runDir(), request.options().shard(), request.options().cells(), LocalDateTime.now(), out,
                request.options().keepDisturbed(), request.options().tail());
        PrintStream console = console(prepared, request.options().resume() != null);
        // JMH's log of every fork, kept in the run folder whatever the terminal shows; a resumed run adds to it
        // a log grows as the run goes, so it is appended to, not written whole; never through a link
        PrintStream jmhLog = new PrintStream(AtomicFile.log(prepared.store().dir().resolve(RunConsole.JMH_LOG), true),
                false, StandardCharsets.UTF_8);
        try {
            RunInfo info = RunInfo.start(request.argv().toArray(String[]::new), prepared.config());
            RunConsole runConsole = RunConsole.of(console, jmhLog, prepared.cmd().verbosity().hasValue()
                    ? Optional.of(prepared.cmd().verbosity().get()) : Optional.empty(), request.verbose());
            RunLoop loop = new RunLoop(prepared.store(), prepared.plan(), prepared.options(),
                    withOperatorPass(request.options().loop(), prepared, console), hooks(request, prepared, console),
                    runConsole);
            RunLoop.Outcome outcome = loop.run();
            return new AfterRun(prepared, console, err,
                    request.options().resume() == null && request.options().runDir() != null).finish(outcome, info, runConsole, request.options().thresholds(), request.options().percentiles(),
                    request.options().opProfile() || request.options().flame() != null);
        } finally {
            jmhLog.close();
            if (console != out) {
                console.close();
            }
        }
    }

    /** A paced run's operator pass, when its driver asks for one between forks ({@link OperatorPass}). */
    private static LoopSettings withOperatorPass(LoopSettings loop, RunSetup.Prepared prepared, PrintStream console) {
        RunLayout layout = RunLayout.of(prepared.store().dir());
        Pacer pacer = loop.pacer().withPass(pair -> ChildJvm.run(ChildJvm.Request.of(OperatorPass.STEP,
                prepared.plan().runnableCells(), prepared.config(), layout.wherePass(pair)),
                "the operator pass of pair " + pair, layout.crashes(), console));
        return loop.withPacer(pacer);
    }

    /** JMH honours -o only in Runner(Options); with our own output format it is ours to open. */
    private PrintStream console(RunSetup.Prepared prepared, boolean resumed) throws IOException {
        if (!prepared.cmd().getOutput().hasValue()) {
            return out;
        }
        return new PrintStream(Files.newOutputStream(Path.of(prepared.cmd().getOutput().get()), StandardOpenOption.CREATE,
                resumed ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS), true, StandardCharsets.UTF_8);
    }

    /** The profilers of every fork: {@code --flame}, the user's own {@code -prof async[:...]}, {@code --tail}. */
    private List<ForkHook> hooks(RunRequest request, RunSetup.Prepared prepared, PrintStream console)
            throws BenchException {
        List<ForkHook> hooks = new ArrayList<>();
        Path runDir = prepared.store().dir();
        try {
            if (request.options().flame() != null) {
                hooks.add(FlameHook.create(runDir, request.options().flame(), prepared.options(), prepared.config(), console));
            }
            if (prepared.asyncOptions() != null) {
                hooks.add(UserAsyncHook.create(prepared.asyncOptions(), runDir, prepared.options(), console));
            }
        } catch (BenchException e) {
            if (!request.options().flameOptional()) {
                throw e;
            }
            err.println("inferbench: measuring without flame graphs (--flame-optional): " + e.getMessage());
            hooks.clear();
        }
        if (request.options().tail() || prepared.plan().tail()) {
            // last: it adds its property to the JVM arguments the hooks before it set
            hooks.add(TailHook.create(runDir, console));
        }
        return hooks;
    }
}
