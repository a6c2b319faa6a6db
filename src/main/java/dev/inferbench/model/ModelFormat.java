package dev.inferbench.model;

import java.nio.file.Path;
import java.util.Locale;

/**
 * A model file's format, told by its name as users name them: TorchScript archives ({@code .pt}, {@code .pth},
 * {@code .torchscript}), which only djl-pytorch reads, or ONNX (anything else; a file that is not ONNX after all is
 * refused when it is read). In one place so that engines and input makers agree on which files they may parse.
 */
public enum ModelFormat {
    ONNX, TORCHSCRIPT;

    public static ModelFormat of(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".pt") || name.endsWith(".pth") || name.endsWith(".torchscript") ? TORCHSCRIPT : ONNX;
    }
}
