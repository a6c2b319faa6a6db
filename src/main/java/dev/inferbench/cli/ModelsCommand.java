package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.BenchException;
import dev.inferbench.Json;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.flow.ModelsFlow;
import dev.inferbench.model.ZooGenerator;
import dev.inferbench.model.stats.ModelStats;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code models [NAME|FILE ...]}: size, parameters, MACs per sample, operators and signature of registered models
 * (all of them when none is named) or of any .onnx file; zoo models that are missing are generated first.
 */
final class ModelsCommand implements Subcommand {

    private static final Options OPTIONS = new Options("models", "[NAME|FILE ...]")
            .row("NAME|FILE", "a name from the model registry (benchmarks.properties) or the path of an .onnx file");
    private static final Options.Flag<Integer> SEQ_LEN = OPTIONS.value("--seq-len", "N",
            Options.whole(1, "tokens per sample"), null, "tokens per sample for sequence models (default param.seqLen)");
    private static final Options.Flag<Boolean> JSON = OPTIONS.toggle("--json", "JSON instead of the table");
    private static final Options.Flag<String[]> INPUTS = InputFlag.declare(OPTIONS, false);
    private static final Options.Flag<Path> CONFIG = ConfigFlag.declare(OPTIONS);

    @Override
    public String summary() {
        return OPTIONS.synopsis() + ": parameters, MACs, size, operators and inputs of models";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                Size, parameters, multiply-accumulates per sample, operators and inputs of registered models (all of
                them when none is named) or of any .onnx file; zoo models not yet generated are generated first.
                """, "");
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        Options.Parsed p = OPTIONS.parse(args);
        BenchConfig config = ConfigFlag.load(p.get(CONFIG));
        int seqLen = p.has(SEQ_LEN) ? p.get(SEQ_LEN) : configuredSeqLen(config);
        ModelsFlow models = ModelsFlow.run(config, p.operands(), InputFlag.read(p, INPUTS).shapes(), seqLen, err);
        List<ModelStats> stats = models.stats();
        Map<String, Long> generatedMillis = models.generatedMillis();
        if (p.get(JSON)) {
            json(stats, generatedMillis, seqLen, out);
        } else {
            table(stats, generatedMillis, seqLen, out);
        }
        return ExitCode.OK;
    }

    private static int configuredSeqLen(BenchConfig config) throws BenchException {
        String configured = config.defaultParam("seqLen").stream().findFirst().orElse("128");
        try {
            return Integer.parseInt(configured.strip());
        } catch (NumberFormatException e) {
            throw new BenchException("param.seqLen=" + configured + " in " + BenchConfig.FILE_NAME
                    + " is not a whole number; expected e.g. param.seqLen=128", e);
        }
    }

    /** The inputs column's width in the table. */
    private static final int INPUTS_WIDTH = 44;

    private static void table(List<ModelStats> stats, Map<String, Long> generated, int seqLen, PrintStream out) {
        String format = "%-16s %13s %10s %10s  %-9s %-44s %s%n";
        out.printf(Locale.ROOT, format, "model", "params", "GMAC", "size", "generated", "inputs", "top operators");
        for (ModelStats s : stats) {
            String macs = String.format(Locale.ROOT, "%.4g%s", s.macsPerSample() / 1e9, s.uncounted() > 0 ? "+" : "");
            String gen = generated.containsKey(s.name())
                    ? String.format(Locale.ROOT, "%.1f s", generated.get(s.name()) / 1e3) : "";
            String ops = s.operators().entrySet().stream().limit(4).map(e -> e.getKey() + " " + e.getValue())
                    .collect(Collectors.joining(", "));
            out.printf(Locale.ROOT, format, s.name(), String.format(Locale.ROOT, "%,d", s.params()), macs,
                    ZooGenerator.size(s.bytes()), gen, inputs(s.inputs()), ops);
        }
        out.printf(Locale.ROOT, "GMAC: multiply-accumulates per sample (Conv, Gemm, MatMul, float or integer; an If's"
                + " larger branch) at seqLen %d; '+' marks a lower bound (a shape or a loop count unknown)%n", seqLen);
    }

    /** The inputs in the column's width: as many whole names as fit, then how many more ({@code --json} has all). */
    static String inputs(List<String> inputs) {
        String all = String.join(" ", inputs);
        if (all.length() <= INPUTS_WIDTH) {
            return all;
        }
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (String in : inputs) {
            String more = " +" + (inputs.size() - shown - 1) + " more (--json)";
            if (sb.length() + 1 + in.length() + more.length() > INPUTS_WIDTH && shown > 0) {
                break;
            }
            sb.append(shown == 0 ? "" : " ").append(in);
            shown++;
        }
        return shown == inputs.size() ? sb.toString() : sb + " +" + (inputs.size() - shown) + " more (--json)";
    }

    private static void json(List<ModelStats> stats, Map<String, Long> generated, int seqLen, PrintStream out)
            throws BenchException {
        ObjectMapper mapper = Json.mapper(Json.Option.PRETTY);
        ArrayNode models = mapper.createArrayNode();
        for (ModelStats s : stats) {
            ObjectNode m = models.addObject();
            m.put("name", s.name());
            m.put("file", s.file().toString());
            m.put("bytes", s.bytes());
            m.put("params", s.params());
            m.put("macsPerSample", s.macsPerSample());
            m.put("seqLen", seqLen);
            m.put("uncountedNodes", s.uncounted());
            if (generated.containsKey(s.name())) {
                m.put("generationMillis", generated.get(s.name()));
            }
            s.inputs().forEach(m.putArray("inputs")::add);
            s.outputs().forEach(m.putArray("outputs")::add);
            ObjectNode ops = m.putObject("operators");
            s.operators().forEach(ops::put);
        }
        try {
            out.println(mapper.writeValueAsString(models));
        } catch (IOException e) {
            throw new BenchException("cannot write JSON: " + e.getMessage(), e);
        }
    }

}
