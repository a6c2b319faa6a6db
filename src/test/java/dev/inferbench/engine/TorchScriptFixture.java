package dev.inferbench.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes a TorchScript archive without Python: the layout {@code torch.jit.save} produces for a module with no
 * parameters (version, TorchScript source of the class, the pickled module object, empty constants). The module's
 * forward takes one tensor {@code x} and returns {@code relu(x)}.
 */
public final class TorchScriptFixture {
    private TorchScriptFixture() {
    }

    public static Path reluModule(Path file) throws IOException {
        String code = """
                class Relu(Module):
                  __parameters__ = []
                  __buffers__ = []
                  training : bool
                  def forward(self: __torch__.Relu,
                    x: Tensor) -> Tensor:
                    return torch.relu(x)
                """;
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
            stored(zip, "relu/version", "3\n".getBytes(StandardCharsets.US_ASCII));
            stored(zip, "relu/code/__torch__.py", code.getBytes(StandardCharsets.UTF_8));
            stored(zip, "relu/data.pkl", moduleObjectPickle());
            stored(zip, "relu/constants.pkl", new byte[]{(byte) 0x80, 2, ')', '.'}); // protocol 2: an empty tuple
        }
        return file;
    }

    /** Pickle protocol 2 of {@code __torch__.Relu} with state {@code {"training": False}}. */
    private static byte[] moduleObjectPickle() throws IOException {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        p.write(new byte[]{(byte) 0x80, 2});                                      // PROTO 2
        p.write("c__torch__\nRelu\n".getBytes(StandardCharsets.US_ASCII));         // GLOBAL __torch__.Relu
        p.write(new byte[]{')', (byte) 0x81, '}', 'X', 8, 0, 0, 0});               // EMPTY_TUPLE NEWOBJ EMPTY_DICT BINUNICODE
        p.write("training".getBytes(StandardCharsets.US_ASCII));
        p.write(new byte[]{(byte) 0x89, 's', 'b', '.'});                          // NEWFALSE SETITEM BUILD STOP
        return p.toByteArray();
    }

    private static void stored(ZipOutputStream zip, String name, byte[] data) throws IOException {
        ZipEntry e = new ZipEntry(name);
        e.setMethod(ZipEntry.STORED);
        e.setSize(data.length);
        CRC32 crc = new CRC32();
        crc.update(data);
        e.setCrc(crc.getValue());
        zip.putNextEntry(e);
        zip.write(data);
        zip.closeEntry();
    }
}
