package dev.inferbench.verify;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;

/** The checks of a verify run as a Markdown table (for people) and JSON (for machines). */
public record CompatibilityMatrix(List<EngineCheck> checks, Tolerance tolerance) {

    public boolean allAgree() {
        return checks.stream().noneMatch(v -> v.status().isProblem());
    }

    public void writeMarkdown(PrintStream out) {
        out.println("| model | engine | device | result | detail |");
        out.println("|---|---|---|---|---|");
        for (EngineCheck v : checks) {
            out.println("| " + cell(v.model()) + " | " + v.engine() + " | " + v.device() + " | " + v.status().id()
                    + " | " + cell(v.detail()) + " |");
        }
        long problems = checks.stream().filter(v -> v.status().isProblem()).count();
        long uncompared = checks.stream().filter(v -> v.status() == EngineCheck.Status.RUNS).count();
        out.println();
        out.println((problems == 0 ? "Everything that could run agrees" : problems + " of " + checks.size()
                + " cells disagree or failed") + (uncompared == 0 ? "." : "; " + uncompared
                + " ran with nothing to compare against."));
    }

    /** Writes the JSON; the caller owns and closes the stream. */
    public void writeJson(OutputStream out) throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        ObjectNode root = mapper.createObjectNode();
        root.put("rtol", tolerance.rtol());
        root.put("atol", tolerance.atol());
        root.put("allAgree", allAgree());
        ArrayNode cells = root.putArray("cells");
        for (EngineCheck v : checks) {
            cells.addObject().put("model", v.model()).put("engine", v.engine()).put("device", v.device())
                    .put("result", v.status().id()).put("detail", v.detail());
        }
        mapper.writeValue(out, root);
    }

    private static String cell(String s) {
        return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
    }
}
