package dev.inferbench.compare;

import dev.inferbench.results.Fingerprint;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine versions each side of a comparison ran, as each side's own run recorded them when it started (ONNX
 * Runtime as its native library answered, DJL and libtorch from the files in that side's jar). An engine upgrade
 * compared on one commit differs only here, so the comparison says it; a version read from the build's properties
 * would say what was asked for, not what ran.
 *
 * @param base engine to version on the base side; empty when its run has no environment.json
 * @param head the same on the head side
 */
public record SideEngines(Map<String, String> base, Map<String, String> head) {

    public static SideEngines of(Path base, Path head) {
        return new SideEngines(Fingerprint.enginesOf(base), Fingerprint.enginesOf(head));
    }

    /** Whether both sides recorded their engines and some engine's version differs between them. */
    public boolean differ() {
        return !base.isEmpty() && !head.isEmpty() && !base.equals(head);
    }

    /**
     * "engines differ: onnxruntime 1.22.0 -> 1.29.0 (djl 0.36.0, pytorch 2.7.1 on both sides), as each side's run
     * loaded them"; empty when they do not differ.
     */
    public String line() {
        if (!differ()) {
            return "";
        }
        Set<String> names = new LinkedHashSet<>(base.keySet());
        names.addAll(head.keySet());
        List<String> changed = new ArrayList<>();
        List<String> same = new ArrayList<>();
        for (String name : names) {
            String a = base.getOrDefault(name, "none");
            String b = head.getOrDefault(name, "none");
            if (a.equals(b)) {
                same.add(name + " " + a);
            } else {
                changed.add(name + " " + a + " -> " + b);
            }
        }
        return "engines differ: " + String.join(", ", changed)
                + (same.isEmpty() ? "" : " (" + String.join(", ", same) + " on both sides)")
                + ", as each side's run loaded them (environment.json)";
    }
}
