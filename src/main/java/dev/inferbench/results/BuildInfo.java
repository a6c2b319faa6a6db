package dev.inferbench.results;

import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * What this jar is: inferbench's version and JMH's (written by the build from the pom), the engine versions it bundles
 * (read from the engines' own files inside the jar: ONNX Runtime's pom, DJL's and its PyTorch engine's properties, so
 * a build given another version on the command line says the version it holds, not the one the pom names), and the
 * commit it was built from (git.properties, written by the build; "unknown" for a build outside git). Read from the
 * jar's own files, so asking costs no engine start.
 */
public record BuildInfo(String version, String commit, String dirty, String jmh, String onnxruntime, String djl,
                        String pytorch) {
    static final String UNKNOWN = "unknown";

    public static BuildInfo ofThisJar() {
        Properties v = properties("/dev/inferbench/version.properties");
        Properties git = properties("/dev/inferbench/git.properties");
        String ort = bundledOrt().orElse(built(v, "onnxruntime"));
        String djl = properties("/ai/djl/engine/api.properties").getProperty("djl_version", built(v, "djl"));
        String torch = properties("/pytorch-engine.properties").getProperty("pytorch_version", built(v, "pytorch"));
        return new BuildInfo(built(v, "version"), git.getProperty("git.commit.id", UNKNOWN),
                git.getProperty("git.dirty", UNKNOWN), built(v, "jmh"), ort, djl, torch);
    }

    /** The version in the pom that ONNX Runtime's jar (CPU or GPU) ships inside itself, as bundled here. */
    static Optional<String> bundledOrt() {
        for (String artifact : List.of("onnxruntime", "onnxruntime_gpu")) {
            try (InputStream in = BuildInfo.class.getResourceAsStream(
                    "/META-INF/maven/com.microsoft.onnxruntime/" + artifact + "/pom.xml")) {
                if (in == null) {
                    continue;
                }
                DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
                factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
                factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
                Element project = factory.newDocumentBuilder().parse(in).getDocumentElement();
                for (Node n = project.getFirstChild(); n != null; n = n.getNextSibling()) {
                    if (n instanceof Element e && e.getTagName().equals("version") && !e.getTextContent().isBlank()) {
                        return Optional.of(e.getTextContent().strip());
                    }
                }
            } catch (IOException | ParserConfigurationException | SAXException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The lines {@code --version} prints. */
    public String describe() {
        String shortCommit = commit.length() > 12 ? commit.substring(0, 12) : commit;
        return "inferbench " + version + " (commit " + shortCommit + ("true".equals(dirty) ? ", with local changes" : "")
                + ")\nJMH " + jmh + ", ONNX Runtime " + onnxruntime + ", DJL " + djl + " (PyTorch " + pytorch + "), Java "
                + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")";
    }

    /** A value the build filled in; a placeholder left as it was (a build that skipped filtering) is unknown. */
    private static String built(Properties p, String key) {
        String value = p.getProperty(key, UNKNOWN);
        return value.startsWith("${") ? UNKNOWN : value;
    }

    static Properties properties(String resource) {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(resource)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return p;
        }
        return p;
    }
}
