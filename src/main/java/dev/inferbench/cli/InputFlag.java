package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.cell.ShapeParam;
import dev.inferbench.input.InputValues;
import dev.inferbench.input.data.NpyFile;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code -p shape=SPEC} and {@code -p values=SPEC} outside a run: the same parameters, in the same words, that a run
 * takes for a model's open dimensions and its inputs' values, declared once here for the subcommands that load a
 * model ({@code models}, {@code verify}), so that a line naming {@code -p shape=x:3xNxN} is answered by every
 * command that prints it.
 */
final class InputFlag {
    /** What a subcommand's {@code -p} gave: input shapes per sample (by input or dimension name), and values. */
    record Given(Map<String, long[]> shapes, InputValues values) {
    }

    private InputFlag() {
    }

    /** The flag in {@code table}: {@code values} whether the command also takes {@code -p values=}. */
    static Options.Flag<String[]> declare(Options table, boolean values) {
        String names = values ? "shape or values" : "shape";
        return table.value("-p", values ? "shape=SPEC|values=SPEC" : "shape=SPEC", new Options.Type<>(
                "-p " + (values ? "shape=SPEC or -p values=SPEC" : "shape=SPEC") + ", as a run takes it, e.g. -p"
                        + " shape=x:3x640x640", (t, f) -> split(t, values, names)), null,
                "an input's shape per sample (batch left out) or a dimension's size by its name, as a run's -p shape"
                        + (values ? "; -p values: what inputs hold, as a run's -p values" : "")).repeatable();
    }

    /** The shapes and values of every {@code -p} given (the last of each name counts, as in a run's -p). */
    static Given read(Options.Parsed p, Options.Flag<String[]> flag) throws BenchException {
        Map<String, String> last = new LinkedHashMap<>();
        for (String[] kv : p.all(flag)) {
            last.put(kv[0], kv[1]);
        }
        Map<String, long[]> shapes = ShapeParam.parse(last.get(CellSpec.SHAPE));
        InputValues values = InputValues.parse(last.get(CellSpec.VALUES), NpyFile::read);
        return new Given(shapes, values);
    }

    private static String[] split(String text, boolean values, String names) throws BenchException {
        int eq = text.indexOf('=');
        String name = eq < 0 ? text : text.substring(0, eq);
        if (eq < 0 || !(name.equals(CellSpec.SHAPE) || (values && name.equals(CellSpec.VALUES)))) {
            throw new BenchException("-p " + text + ": this command takes " + names + " only; expected -p "
                    + CellSpec.SHAPE + "=SPEC" + (values ? " or -p " + CellSpec.VALUES + "=SPEC" : "")
                    + " (the other parameters are a run's)");
        }
        return new String[]{name, text.substring(eq + 1)};
    }
}
