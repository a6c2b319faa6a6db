package dev.inferbench.config;

import java.util.Locale;
import java.nio.file.InvalidPathException;
import dev.inferbench.BenchException;
import dev.inferbench.model.Zoo;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * benchmarks.properties: run defaults, the default matrix and the model registry. Looked up in this order: the file
 * named by {@code -Dinferbench.config}, {@code ./benchmarks.properties}, the copy inside the jar. Relative model
 * paths are resolved against the working directory, which JMH's forks share with the launcher.
 */
public final class BenchConfig {
    public static final String FILE_NAME = "benchmarks.properties";
    public static final String CONFIG_PROPERTY = "inferbench.config";

    private static final Set<String> RUN_KEYS = Set.of("include", "forks", "warmupIterations", "warmupTime",
            "iterations", "time", "resultsDir", "history");
    private static final Set<String> MODEL_KEYS = Set.of("file", "zoo", "inputs");
    private static final Set<String> SEED_KEYS = Set.of("zoo", "input");

    private final Properties props;
    private final String source;
    private final Path file;
    private final Map<String, ModelEntry> models;

    private BenchConfig(Properties props, String source, Path file) throws BenchException {
        this.props = props;
        this.source = source;
        this.file = file;
        checkKeys();
        this.models = parseModels();
    }

    public static BenchConfig load() throws BenchException {
        String explicit = System.getProperty(CONFIG_PROPERTY);
        if (explicit != null) {
            Path p = Path.of(explicit);
            if (!Files.isRegularFile(p)) {
                throw new BenchException("config file not found: " + p + " (from -D" + CONFIG_PROPERTY + ")");
            }
            return fromFile(p);
        }
        Path local = Path.of(FILE_NAME);
        if (Files.isRegularFile(local)) {
            return fromFile(local);
        }
        return builtIn();
    }

    /** The copy of benchmarks.properties inside the jar. */
    public static BenchConfig builtIn() throws BenchException {
        try (InputStream in = BenchConfig.class.getResourceAsStream("/" + FILE_NAME)) {
            if (in == null) {
                throw new BenchException("no " + FILE_NAME + " in the working directory nor inside the jar");
            }
            return parse(new InputStreamReader(in, StandardCharsets.UTF_8), FILE_NAME + " (built into the jar)", null);
        } catch (IOException e) {
            throw new BenchException("cannot read the built-in " + FILE_NAME + ": " + e.getMessage(), e);
        }
    }

    public static BenchConfig fromFile(Path file) throws BenchException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(r, file.toString(), file);
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    public static BenchConfig parse(String text) throws BenchException {
        return parse(new StringReader(text), "<text>", null);
    }

    private static BenchConfig parse(Reader reader, String source, Path file) throws BenchException {
        Properties p = new Properties();
        try {
            p.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new BenchException("cannot parse " + source + ": " + e.getMessage(), e);
        }
        return new BenchConfig(p, source, file);
    }

    public String source() {
        return source;
    }

    /** The file this configuration was read from; empty for the copy inside the jar. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    public Optional<String> get(String key) {
        return Optional.ofNullable(props.getProperty(key)).map(String::trim).filter(s -> !s.isEmpty());
    }

    public Optional<Integer> getInt(String key) throws BenchException {
        Optional<String> v = get(key);
        if (v.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(v.get()));
        } catch (NumberFormatException e) {
            throw new BenchException(key + "='" + v.get() + "' in " + source + " is not a whole number", e);
        }
    }

    public long seed(String name) throws BenchException {
        String key = "seed." + name;
        String v = get(key).orElse("0");
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new BenchException(key + "='" + v + "' in " + source + " is not a whole number", e);
        }
    }

    /** The default values of a benchmark {@code @Param}, from {@code param.<name>}. */
    public List<String> defaultParam(String name) {
        return get("param." + name).map(BenchConfig::splitList).orElse(List.of());
    }

    /** The names of all {@code param.*} keys. */
    public Set<String> defaultParamNames() {
        Set<String> names = new TreeSet<>();
        for (String k : props.stringPropertyNames()) {
            if (k.startsWith("param.")) {
                names.add(k.substring("param.".length()));
            }
        }
        return names;
    }

    public Map<String, ModelEntry> models() {
        return models;
    }

    /**
     * A registered model, or any model by path: a value ending in .onnx or naming an existing file is that file,
     * with no registration (its inputs come from the file; dynamic non-sequence dims then need registering).
     */
    public ModelEntry model(String name) throws BenchException {
        ModelEntry e = models.get(name);
        if (e == null && (name.toLowerCase(Locale.ROOT).endsWith(".onnx") || isFile(name))) {
            return new ModelEntry(name, path("model", name), null, Map.of());
        }
        if (e == null) {
            throw new BenchException("unknown model '" + name + "'; expected one of: " + String.join(", ", models.keySet())
                    + " (or the path of an .onnx file, or add model." + name + ".file=... to " + FILE_NAME + ")");
        }
        return e;
    }

    private static boolean isFile(String name) {
        try {
            return Files.isRegularFile(Path.of(name));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private void checkKeys() throws BenchException {
        for (String key : new TreeSet<>(props.stringPropertyNames())) {
            String[] parts = key.split("\\.", -1);
            boolean known = switch (parts[0]) {
                case "run" -> parts.length == 2 && RUN_KEYS.contains(parts[1]);
                case "seed" -> parts.length == 2 && SEED_KEYS.contains(parts[1]);
                case "param" -> parts.length == 2;
                case "model" -> parts.length >= 3 && MODEL_KEYS.contains(parts[parts.length - 1]);
                default -> false;
            };
            if (!known) {
                throw new BenchException("unknown key '" + key + "' in " + source + "; expected run." + RUN_KEYS
                        + ", seed." + SEED_KEYS + ", param.<name> or model.<name>." + MODEL_KEYS);
            }
        }
    }

    private Map<String, ModelEntry> parseModels() throws BenchException {
        Set<String> names = new TreeSet<>();
        for (String k : props.stringPropertyNames()) {
            if (k.startsWith("model.")) {
                names.add(k.substring("model.".length(), k.lastIndexOf('.')));
            }
        }
        Map<String, ModelEntry> out = new LinkedHashMap<>();
        for (String name : names) {
            String prefix = "model." + name + ".";
            Zoo zoo = null;
            Optional<String> zooId = get(prefix + "zoo");
            if (zooId.isPresent()) {
                try {
                    zoo = Zoo.parse(zooId.get());
                } catch (BenchException e) {
                    throw new BenchException(prefix + "zoo in " + source + ": " + e.getMessage(), e);
                }
            }
            String file = get(prefix + "file").orElse(zoo != null ? "models/" + name + ".onnx" : null);
            if (file == null) {
                throw new BenchException("model '" + name + "' in " + source + " has no " + prefix
                        + "file; expected the path of an .onnx file");
            }
            out.put(name, new ModelEntry(name, path(prefix + "file", file), zoo, parseInputs(prefix + "inputs")));
        }
        return out;
    }

    private Path path(String key, String value) throws BenchException {
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new BenchException(key + "='" + value + "' in " + source + " is not a file path: " + e.getReason(), e);
        }
    }

    /** {@code name=3x224x224;mask=128}: per-sample shapes, batch dimension left out. */
    private Map<String, long[]> parseInputs(String key) throws BenchException {
        Map<String, long[]> shapes = new LinkedHashMap<>();
        Optional<String> v = get(key);
        if (v.isEmpty()) {
            return shapes;
        }
        for (String part : v.get().split(";")) {
            String[] kv = part.trim().split("=");
            try {
                if (kv.length != 2 || kv[0].isBlank()) {
                    throw new NumberFormatException();
                }
                long[] dims = Arrays.stream(kv[1].trim().split("x")).mapToLong(s -> Long.parseLong(s.trim())).toArray();
                if (Arrays.stream(dims).anyMatch(d -> d <= 0)) {
                    throw new NumberFormatException();
                }
                shapes.put(kv[0].trim(), dims);
            } catch (NumberFormatException e) {
                throw new BenchException(key + "='" + v.get() + "' in " + source
                        + " is not a list of shapes; expected name=DxDxD[;name=D...], e.g. input=3x224x224", e);
            }
        }
        return shapes;
    }

    static List<String> splitList(String s) {
        List<String> out = new ArrayList<>();
        for (String part : s.split(",")) {
            if (!part.isBlank()) {
                out.add(part.trim());
            }
        }
        return out;
    }
}
