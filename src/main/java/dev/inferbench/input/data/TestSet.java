package dev.inferbench.input.data;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.HostTensor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One ONNX backend test set: a folder {@code test_data_set_N} holding {@code input_0.pb ... input_K.pb} and the
 * expected {@code output_0.pb ...}, numbered from 0 without gaps.
 */
public record TestSet(Path dir, List<HostTensor> inputs, List<HostTensor> outputs) {
    private static final Pattern FILE = Pattern.compile("(input|output)_(\\d+)\\.pb");

    public static boolean looksLike(Path dir) {
        return Files.isRegularFile(dir.resolve("input_0.pb"));
    }

    /** The {@code test_data_set_*} folders of a model folder (as the ONNX model zoo ships them), in order. */
    public static List<Path> setsIn(Path modelDir) throws BenchException {
        try (Stream<Path> s = Files.list(modelDir)) {
            return s.filter(p -> Files.isDirectory(p) && p.getFileName().toString().startsWith("test_data_set_"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new BenchException("cannot list " + modelDir + ": " + e.getMessage(), e);
        }
    }

    public static TestSet read(Path dir) throws BenchException {
        TreeMap<Integer, Path> inputs = new TreeMap<>();
        TreeMap<Integer, Path> outputs = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                Matcher m = FILE.matcher(p.getFileName().toString());
                if (m.matches()) {
                    TreeMap<Integer, Path> kind = m.group(1).equals("input") ? inputs : outputs;
                    Path same = kind.put(number(dir, p, m.group(2)), p);
                    if (same != null) {
                        throw new BenchException("test set " + dir + " has both " + same.getFileName() + " and "
                                + p.getFileName() + "; expected one " + m.group(1) + " file per number");
                    }
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot read test set " + dir + ": " + e.getMessage()
                    + "; expected a folder with input_0.pb ... and output_0.pb ...", e);
        }
        if (inputs.isEmpty()) {
            throw new BenchException("test set " + dir + " has no input_0.pb; expected input_K.pb and output_K.pb files");
        }
        return new TestSet(dir, readAll(dir, "input", inputs), readAll(dir, "output", outputs));
    }

    /** The K of {@code input_K.pb}; one past an int is refused in one line, as any other malformed name would be. */
    private static int number(Path dir, Path file, String digits) throws BenchException {
        String k = digits.replaceFirst("^0+(?=.)", "");
        if (k.length() > 10 || Long.parseLong(k) > Integer.MAX_VALUE) {
            throw new BenchException("test set " + dir + " has " + file.getFileName() + ", numbered past "
                    + Integer.MAX_VALUE + "; expected input_K.pb and output_K.pb numbered from 0 without gaps");
        }
        return Integer.parseInt(k);
    }

    private static List<HostTensor> readAll(Path dir, String kind, TreeMap<Integer, Path> files) throws BenchException {
        List<HostTensor> out = new ArrayList<>();
        for (int k = 0; k <= (files.isEmpty() ? -1 : files.lastKey()); k++) {
            if (!files.containsKey(k)) {
                throw new BenchException("test set " + dir + " has no " + kind + "_" + k + ".pb but has " + kind + "_"
                        + files.lastKey() + ".pb; expected " + kind + " files numbered from 0 without gaps");
            }
            out.add(TensorProtoFile.read(files.get(k)));
        }
        return out;
    }
}
