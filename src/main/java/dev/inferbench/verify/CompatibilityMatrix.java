package dev.inferbench.verify;

import dev.inferbench.Json;
import com.fasterxml.jackson.databind.ObjectMapper;
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
        out.println();
        out.println((problems == 0 ? "Everything that could run agrees" : problems + " of " + checks.size()
                + " cells disagree or failed") + also(EngineCheck.Status.RUNS, " ran with nothing to compare against")
                + also(EngineCheck.Status.NOT_APPLICABLE, " not applicable (the engine does not read this kind of file)")
                + also(EngineCheck.Status.UNAVAILABLE, " unavailable (no such device, or not in this build)") + ".");
    }

    /** "; 2 not applicable (...)", or nothing when no check has {@code status}. */
    private String also(EngineCheck.Status status, String what) {
        long n = checks.stream().filter(v -> v.status() == status).count();
        return n == 0 ? "" : "; " + n + what;
    }

    /** Writes the JSON; the caller owns and closes the stream. */
    public void writeJson(OutputStream out) throws IOException {
        ObjectMapper mapper = Json.mapper(Json.Option.PRETTY);
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
