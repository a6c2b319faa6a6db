package dev.inferbench.input.data;

import dev.inferbench.BenchException;
import dev.inferbench.input.InputSpec;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where a cell's input batch comes from ({@code -p data=}): {@code synthetic} (seeded random values), an ONNX test
 * set folder ({@code test_data_set_N} or a model folder holding them: its first set), a {@code .npy} file (a model
 * with one input) or a folder of {@code <input name>.npy} files, or a labelled image folder (one sub-folder per
 * class; the batch is the first batchSize images, repeated if there are fewer). Read once, in the trial setup.
 */
public final class DataSource {
    public static final String SYNTHETIC = "synthetic";

    private DataSource() {
    }

    public static List<HostTensor> batch(String data, InputSpec input, List<TensorSpec> specs) throws BenchException {
        return batch(data, input, specs, 0);
    }

    /**
     * Caller {@code caller}'s batch of a cell with several callers, different from every other caller's where the data
     * allows, so that a call that returned another caller's outputs is seen: synthetic inputs are drawn with seed +
     * caller; an image folder gives caller k the images from k × batch on (wrapping round the folder); a fixed batch
     * (a .npy file, .npy files, a test set) gives caller k the same samples rotated by k along the batch, the same work
     * in another order. A fixed batch of one sample (or k a multiple of the batch) is the same for two callers: the
     * concurrency check names such callers as ones it cannot tell apart. Caller 0 gets {@link #batch(String, InputSpec,
     * List)}'s batch.
     */
    public static List<HostTensor> batch(String data, InputSpec input, List<TensorSpec> specs, int caller)
            throws BenchException {
        if (data == null || data.equals(SYNTHETIC)) {
            return SyntheticInputs.forModel(caller == 0 ? input : input.withSeed(input.seed() + caller), specs);
        }
        return read(data, input, specs, caller);
    }

    private static List<HostTensor> read(String data, InputSpec input, List<TensorSpec> specs, int caller)
            throws BenchException {
        String model = input.model();
        int batch = input.batchSize();
        Path path = Path.of(data);
        List<HostTensor> tensors;
        if (data.endsWith(".npy")) {
            tensors = List.of(NpyFile.read(path, specs.get(0).name()));
        } else if (!Files.isDirectory(path)) {
            throw new BenchException("data '" + data + "' is neither 'synthetic', a .npy file nor a folder; expected "
                    + "synthetic, a .npy file, a folder of .npy files, an ONNX test set or an image folder");
        } else if (TestSet.looksLike(path)) {
            tensors = TestSet.read(path).inputs();
        } else if (!TestSet.setsIn(path).isEmpty()) {
            tensors = TestSet.read(TestSet.setsIn(path).get(0)).inputs();
        } else if (!npyFiles(path).isEmpty()) {
            tensors = new ArrayList<>();
            for (TensorSpec spec : specs) {
                Path f = path.resolve(spec.name().replace('/', '_') + ".npy");
                if (!Files.isRegularFile(f)) {
                    throw new BenchException("data folder " + path + " has no " + f.getFileName() + " for input '"
                            + spec.name() + "' of model '" + model + "'; expected one <input name>.npy per input");
                }
                tensors.add(NpyFile.read(f, spec.name()));
            }
        } else if (ImageFolder.looksLike(path)) {
            return List.of(images(ImageFolder.read(path), model, specs, batch, caller * batch));
        } else {
            throw new BenchException("data folder " + path + " holds no test set, .npy files or class sub-folders"
                    + " with images; expected one of those");
        }
        List<HostTensor> fixed = matched(tensors, model, specs, batch, data, input.seqLen(), input.perSample());
        if (caller == 0) {
            return fixed;
        }
        List<HostTensor> rotated = new ArrayList<>(fixed.size());
        for (HostTensor t : fixed) {
            rotated.add(HostTensors.rotated(t, caller));
        }
        return rotated;
    }

    /** Images {@code first ...} of the folder as one batch for a model with one {@code [N, 3, H, W]} input. */
    public static HostTensor images(ImageFolder folder, String model, List<TensorSpec> specs, int batch, int first)
            throws BenchException {
        long[] s = specs.get(0).shape();
        if (specs.size() != 1 || s.length != 4 || s[1] != 3 || s[2] <= 0 || s[2] != s[3]) {
            throw new BenchException("model '" + model + "' takes " + specs + "; an image folder needs one input of"
                    + " shape [batch, 3, H, H]");
        }
        long values = HostTensors.elements(new long[]{batch, 3, s[2], s[3]}, Float.BYTES,
                "model '" + model + "' with a batch of " + batch + " images");
        int size = (int) s[2];
        float[] all = new float[(int) values];
        for (int i = 0; i < batch; i++) {
            Path image = folder.images().get(Math.floorMod(first + (long) i, folder.images().size()));
            float[] px = ImageFolder.pixels(image, size);
            System.arraycopy(px, 0, all, i * px.length, px.length);
        }
        return HostTensors.floats(specs.get(0).name(), new long[]{batch, 3, size, size}, all);
    }

    private static List<Path> npyFiles(Path dir) throws BenchException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".npy")).toList();
        } catch (IOException e) {
            throw new BenchException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Named as the model names its inputs, after checking count, dtype and shape against the model. */
    static List<HostTensor> matched(List<HostTensor> tensors, String model, List<TensorSpec> specs, int batch,
                                    String data) throws BenchException {
        return matched(tensors, model, specs, batch, data, 0, Map.of());
    }

    /**
     * @param seqLen the cell's seqLen: a dynamic sequence dimension of the data (token ids and masks: what
     *               {@link dev.inferbench.model.InputShapes} fills with seqLen) must have that length, or the cell
     *               would be labelled seqLen=512 while 16 tokens ran (and its MACs counted for 512); 0 checks nothing
     */
    static List<HostTensor> matched(List<HostTensor> tensors, String model, List<TensorSpec> specs, int batch,
                                    String data, int seqLen, Map<String, long[]> perSample) throws BenchException {
        if (tensors.size() != specs.size()) {
            throw new BenchException("data '" + data + "' has " + tensors.size() + " input tensors; model '" + model
                    + "' takes " + specs.size() + " " + specs);
        }
        List<HostTensor> out = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            TensorSpec spec = specs.get(i);
            HostTensor t = tensors.get(i);
            boolean shapeOk = t.shape().length == spec.shape().length && t.shape().length > 0 && t.shape()[0] == batch;
            for (int d = 1; shapeOk && d < spec.shape().length; d++) {
                shapeOk = spec.shape()[d] <= 0 || spec.shape()[d] == t.shape()[d];
            }
            boolean sequence = spec.shape().length == 2 || spec.type() == DType.INT64 || spec.type() == DType.INT32
                    || spec.type() == DType.BOOL;
            if (shapeOk && seqLen > 0 && sequence && !perSample.containsKey(spec.name())) {
                for (int d = 1; d < spec.shape().length; d++) {
                    if (spec.shape()[d] <= 0 && t.shape()[d] != seqLen) {
                        throw new BenchException("data '" + data + "' input '" + spec.name() + "' has sequence length "
                                + t.shape()[d] + " but the cell has seqLen=" + seqLen + "; expected -p seqLen="
                                + t.shape()[d] + " with this data (its tokens are what runs)");
                    }
                }
            }
            if (t.type() != spec.type() || !shapeOk) {
                throw new BenchException("data '" + data + "' input " + i + " is " + t.type().name().toLowerCase()
                        + Arrays.toString(t.shape()) + "; model '" + model + "' input '" + spec.name() + "' expects "
                        + spec.type().name().toLowerCase() + Arrays.toString(spec.shape()) + " with batch " + batch);
            }
            out.add(new HostTensor(spec.name(), t.type(), t.shape(), t.data()));
        }
        return out;
    }
}
