package dev.inferbench.verify;

import dev.inferbench.model.InputShapes;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.DeviceCheck;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.InputSpec;
import dev.inferbench.input.InputValues;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.input.data.HostTensors;
import dev.inferbench.input.data.TestSet;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.verify.EngineCheck.Status;

import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one model once on every engine and device and checks its float outputs: against each test set's expected
 * outputs when the model has test sets, else against the reference engine (ONNX Runtime, fp32, CPU) on one seeded
 * synthetic batch; where the reference cannot read the file (TorchScript) a cell that ran only "runs". Inputs are
 * read or made again for every engine, so no engine sees another's buffers.
 */
public final class Verifier {
    public static final List<String> DEVICES = List.of("cpu", "cuda");

    private final BenchConfig config;
    private final Tolerance tolerance;
    private final long seed;
    private final InputValues values;

    /** @param values what inputs hold instead of seeded synthetic data (a run's {@code -p values}) */
    public Verifier(BenchConfig config, Tolerance tolerance, long seed, InputValues values) {
        this.config = config;
        this.tolerance = tolerance;
        this.seed = seed;
        this.values = values;
    }

    /** Inputs and the expected float outputs (null where an output is not float32) of one check. */
    private record Case(String name, List<HostTensor> inputs, List<float[]> expected) {
    }

    public List<EngineCheck> verify(Target target) throws BenchException {
        // The reference is the ort/cpu cell itself, run last: DJL's ONNX Runtime engine must create the process's
        // one OrtEnvironment (with its own thread pool) before ort does, or it cannot start in this JVM.
        List<EngineKind> order = new ArrayList<>(EngineKind.measured());
        order.remove(EngineKind.ORT);
        order.add(EngineKind.ORT);
        Map<String, EngineCheck> checks = new HashMap<>();
        Map<String, List<List<float[]>>> outputs = new HashMap<>();
        List<Case> cases = target.testSets().isEmpty() ? null : testSetCases(target);
        for (EngineKind engine : order) {
            for (String device : DEVICES) {
                String key = engine.id() + "/" + device;
                List<List<float[]>> got = new ArrayList<>();
                checks.put(key, run(target, engine, device, got));
                outputs.put(key, got);
            }
        }
        List<List<float[]>> reference = outputs.get(EngineKind.ORT.id() + "/cpu");
        EngineCheck refCheck = checks.get(EngineKind.ORT.id() + "/cpu");
        List<EngineCheck> out = new ArrayList<>();
        for (EngineKind engine : EngineKind.measured()) {
            for (String device : DEVICES) {
                String key = engine.id() + "/" + device;
                EngineCheck v = checks.get(key);
                if (v.status() != Status.AGREES) {
                    out.add(v);
                } else if (cases != null) {
                    out.add(compare(v, cases, outputs.get(key), target.inputsLabel(), false));
                } else if (refCheck.status() == Status.NOT_APPLICABLE) {
                    out.add(new EngineCheck(v.model(), v.engine(), v.device(), Status.RUNS, "ran; no test set, and the"
                            + " reference (ort on cpu) cannot read this file: nothing to compare the outputs against"));
                } else if (refCheck.status() != Status.AGREES) {
                    out.add(new EngineCheck(v.model(), v.engine(), v.device(), Status.FAILED,
                            "the reference (ort on cpu) did not run: " + refCheck.detail()));
                } else {
                    List<Case> ref = List.of(new Case("seeded batch", List.of(), nullIfEmpty(reference.get(0))));
                    out.add(compare(v, ref, outputs.get(key), "ort cpu fp32 on " + target.inputsLabel(), true));
                }
            }
        }
        return out;
    }

    /** Runs the cell's inputs once; AGREES here only means "ran", {@link #compare} decides. */
    private EngineCheck run(Target target, EngineKind engine, String device, List<List<float[]>> got)
            throws BenchException {
        // the format first: an engine that cannot read the file is not applicable on any machine, with or without GPU
        try {
            engine.checkFile(target.file());
        } catch (BenchException e) {
            return new EngineCheck(target.name(), engine.id(), device, Status.NOT_APPLICABLE, e.getMessage());
        }
        Optional<String> unavailable = new DeviceCheck().unavailable(engine, Device.parse(device), device);
        if (unavailable.isPresent()) {
            return new EngineCheck(target.name(), engine.id(), device, Status.UNAVAILABLE, unavailable.get());
        }
        EngineSettings settings = new EngineSettings(0, 0, EngineSettings.GraphOptimization.ALL, target.perSample());
        try (InferenceEngine loaded = engine.open(target.file(), Device.parse(device), settings)) {
            List<Case> cases = target.testSets().isEmpty() ? syntheticCase(target, loaded) : testSetCases(target);
            for (Case c : cases) {
                got.add(run(loaded, named(c.inputs(), loaded.signature().inputs())));
            }
            return new EngineCheck(target.name(), engine.id(), device, Status.AGREES, "ran");
        } catch (BenchException | RuntimeException | LinkageError e) {
            return new EngineCheck(target.name(), engine.id(), device, Status.FAILED, String.valueOf(e.getMessage()));
        }
    }

    /** @param acrossEngines against another engine's outputs: atol scaled to the outputs (Tolerance#acrossEngines) */
    private EngineCheck compare(EngineCheck ran, List<Case> cases, List<List<float[]>> got, String against,
                            boolean acrossEngines) {
        List<String> mismatches = new ArrayList<>();
        int compared = 0;
        for (int k = 0; k < cases.size(); k++) {
            Case c = cases.get(k);
            List<float[]> outs = got.get(k);
            if (outs.size() < c.expected().size()) {
                mismatches.add(c.name() + ": " + outs.size() + " outputs, expected " + c.expected().size());
                continue;
            }
            for (int i = 0; i < c.expected().size(); i++) {
                if (c.expected().get(i) == null || outs.get(i).length == 0) {
                    continue; // not float32: outside what the harness compares
                }
                compared++;
                Tolerance t = acrossEngines ? tolerance.acrossEngines(c.expected().get(i)) : tolerance;
                String m = t.mismatch(c.expected().get(i), outs.get(i), c.name() + " output " + i);
                if (m != null) {
                    mismatches.add(m);
                }
            }
        }
        if (!mismatches.isEmpty()) {
            return new EngineCheck(ran.model(), ran.engine(), ran.device(), Status.DISAGREES,
                    String.join("; ", mismatches));
        }
        if (compared == 0) {
            // an argmax model (int64 output): it ran, but "agrees" would claim a comparison that was never made
            return new EngineCheck(ran.model(), ran.engine(), ran.device(), Status.RUNS,
                    "no float32 output to compare with " + against + "; only float32 outputs are compared");
        }
        return new EngineCheck(ran.model(), ran.engine(), ran.device(), Status.AGREES, compared
                + " output(s) within rtol " + tolerance.rtol() + ", atol " + tolerance.atol() + (acrossEngines ? " or "
                + Tolerance.ENGINE_ATOL_SHARE + " x the largest output" : "") + " of " + against);
    }

    private List<Case> syntheticCase(Target target, InferenceEngine loaded) throws BenchException {
        List<TensorSpec> specs = loaded.signature().inputs();
        long first = specs.isEmpty() || specs.get(0).shape().length == 0 ? -1 : specs.get(0).shape()[0];
        int batch = first > 0 ? (int) first : 1;
        InputSpec input = new InputSpec(target.name(), target.file(), target.perSample(), batch,
                InputShapes.DEFAULT_SEQ_LEN, seed, values);
        return List.of(new Case("seeded batch", SyntheticInputs.forModel(input, specs), List.of()));
    }

    private static List<float[]> nullIfEmpty(List<float[]> outputs) {
        List<float[]> out = new ArrayList<>();
        outputs.forEach(o -> out.add(o.length == 0 ? null : o));
        return out;
    }

    private static List<Case> testSetCases(Target target) throws BenchException {
        List<Case> cases = new ArrayList<>();
        for (Path dir : target.testSets()) {
            TestSet set = TestSet.read(dir);
            List<float[]> expected = new ArrayList<>();
            for (HostTensor t : set.outputs()) {
                expected.add(t.data() instanceof FloatBuffer ? HostTensors.toFloats(t) : null);
            }
            cases.add(new Case(dir.getFileName().toString(), set.inputs(), expected));
        }
        return cases;
    }

    /** Test-set tensors carry the names their writer gave them (often none): the model's own names, by position. */
    private static List<HostTensor> named(List<HostTensor> inputs, List<TensorSpec> specs) throws BenchException {
        if (inputs.size() != specs.size()) {
            throw new BenchException(inputs.size() + " input tensors for a model that takes " + specs.size() + " "
                    + specs + "; expected one input_K.pb per model input");
        }
        List<HostTensor> out = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            HostTensor t = inputs.get(i);
            out.add(new HostTensor(specs.get(i).name(), t.type(), t.shape(), t.data()));
        }
        return out;
    }

    private static List<float[]> run(InferenceEngine engine, List<HostTensor> inputs) throws BenchException {
        try (PreparedInput prepared = engine.prepare(inputs); Outputs out = engine.run(prepared)) {
            List<float[]> all = new ArrayList<>();
            for (int i = 0; i < out.count(); i++) {
                all.add(out.floats(i));
            }
            return all;
        }
    }
}
