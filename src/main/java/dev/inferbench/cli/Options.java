package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.Numbers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One command's options table: each flag declared once, with the label of its value, how the value is read, its
 * default and its help line. One parser reads every command line against its table, and the usage is printed from
 * it, so a flag cannot be parsed without being documented. A refusal is one line naming the flag and what was
 * expected ({@link FlagValue} for a missing value, {@link Numbers} for numbers, durations and percentages).
 * An argument that is no flag of the table is an operand; a table that {@link #passing() passes} the rest on keeps
 * unknown options among the operands, in order (JMH's options, for a run and for a comparison's sides), and any
 * other table refuses them.
 */
final class Options {
    /** Reads a flag's value; a refusal names the flag. */
    @FunctionalInterface
    interface Reader<T> {
        T read(String text, String flag) throws BenchException;
    }

    /** What a flag's value is: the phrase a refusal says was expected, and how the text is read. */
    record Type<T>(String expected, Reader<T> reader) {
        Type<T> expecting(String phrase) {
            return new Type<>(phrase, reader);
        }
    }

    static final Type<String> TEXT = new Type<>("a value", (t, f) -> t);
    static final Type<Path> FOLDER = new Type<>("a folder", (t, f) -> Path.of(t));
    static final Type<Path> FILE = new Type<>("a file", (t, f) -> Path.of(t));
    static final Type<Duration> DURATION = new Type<>("a duration, e.g. 20m", Numbers::duration);
    static final Type<Double> PERCENT = new Type<>("a percentage, e.g. 2%", Numbers::percent);
    static Type<Integer> whole(int least, String expected) {
        return new Type<>(expected, (t, f) -> Numbers.wholeAtLeast(t, least, f, expected));
    }

    /** One of {@code choices}; anything else is refused as "FLAG 'text' is not {@code what}". */
    static <T> Type<T> choice(String what, Map<String, T> choices) {
        return new Type<>(what, (t, f) -> {
            T v = choices.get(t);
            if (v == null) {
                throw new BenchException(f + " '" + t + "' is not " + what);
            }
            return v;
        });
    }

    /** Options for another program in one argument ({@code "-Donnxruntime.version=1.22.0"}), as words. */
    static final Type<List<String>> WORDS = new Type<>("options in one argument, e.g. \"-Donnxruntime.version=1.22.0\"",
            (t, f) -> t.isBlank() ? List.of() : Arrays.asList(t.strip().split("\\s+")));

    /** One flag of a table; a toggle has no type. The modifiers are for its declaration. */
    static final class Flag<T> {
        private final String name;
        private final String label;
        private final Type<T> type;
        private final T fallback;
        private final String help;
        private boolean repeatable;
        private boolean passedOn;
        private Predicate<String> optional;
        private T bare;

        private Flag(String name, String label, Type<T> type, T fallback, String help) {
            this.name = name;
            this.label = label;
            this.type = type;
            this.fallback = fallback;
            this.help = help;
        }

        /** Given again, it adds a value ({@link Parsed#all}); otherwise the last one given counts. */
        Flag<T> repeatable() {
            repeatable = true;
            return this;
        }

        /** Read here and also left among the operands, value and all, for the program they are passed on to. */
        Flag<T> passedOn() {
            passedOn = true;
            return this;
        }

        /** Takes the next argument only when {@code takes} accepts it, else stands for {@code bareValue}. */
        Flag<T> optional(Predicate<String> takes, T bareValue) {
            optional = takes;
            bare = bareValue;
            return this;
        }

        private String left() {
            return name + (type == null ? "" : " " + (optional != null ? "[" + label + "]" : label));
        }
    }

    /** A command line read against the table. */
    static final class Parsed {
        private final Map<Flag<?>, List<Object>> values = new HashMap<>();
        private final List<String> operands = new ArrayList<>();

        boolean has(Flag<?> flag) {
            return values.containsKey(flag);
        }

        /** The value given last, or the flag's default; for a toggle, whether it was given. */
        @SuppressWarnings("unchecked")
        <T> T get(Flag<T> flag) {
            List<Object> v = values.get(flag);
            return flag.type == null ? (T) Boolean.valueOf(v != null) : v == null ? flag.fallback : (T) v.get(v.size() - 1);
        }

        /** Every value given, in order. */
        @SuppressWarnings("unchecked")
        <T> List<T> all(Flag<T> flag) {
            return (List<T>) List.copyOf(values.getOrDefault(flag, List.of()));
        }

        /** The arguments that are no flag of the table, and those passed on, in order. */
        List<String> operands() {
            return List.copyOf(operands);
        }
    }

    private static final int WIDTH = 116;
    private static final int MAX_LEFT = 24;

    private final String command;
    private final String operands;
    private final Map<String, Flag<?>> flags = new LinkedHashMap<>();
    private final Map<String, String> rows = new LinkedHashMap<>();
    private boolean passing;

    /**
     * @param command  the subcommand's name, for the usage and the refusals ("" for the run)
     * @param operands how the synopsis shows the operands, e.g. {@code BASE HEAD [JMH args]}; "" for none
     */
    Options(String command, String operands) {
        this.command = command;
        this.operands = operands;
    }

    /** Options of no flag here are operands too, passed on in order. */
    Options passing() {
        passing = true;
        return this;
    }

    /** A line of the option list that is no flag: the operands' meaning, or what is passed on. */
    Options row(String left, String help) {
        rows.put(left, help);
        return this;
    }

    Flag<Boolean> toggle(String name, String help) {
        return add(new Flag<>(name, "", null, false, help));
    }

    <T> Flag<T> value(String name, String label, Type<T> type, T fallback, String help) {
        return add(new Flag<>(name, label, type, fallback, help));
    }

    private <T> Flag<T> add(Flag<T> flag) {
        flags.put(flag.name, flag);
        rows.put(flag.name, null);
        return flag;
    }

    Parsed parse(List<String> args) throws BenchException {
        Parsed p = new Parsed();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            Flag<?> f = flags.get(a);
            if (f == null && !passing && a.startsWith("-")) {
                throw new BenchException("unknown option '" + a + "' for " + command + "; expected: " + synopsis());
            }
            if (f == null || f.passedOn) {
                p.operands.add(a);
            }
            if (f == null) {
                continue;
            }
            Object value = Boolean.TRUE;
            if (f.optional != null && (i + 1 >= args.size() || !f.optional.test(args.get(i + 1)))) {
                value = f.bare;
            } else if (f.type != null) {
                String text = FlagValue.of(args, ++i, a, f.type.expected(), f.type == WORDS);
                value = f.type.reader().read(text, a);
                if (f.passedOn) {
                    p.operands.add(text);
                }
            }
            p.values.computeIfAbsent(f, k -> new ArrayList<>()).add(value);
        }
        return p;
    }

    /** {@code compare BASE HEAD [--min-effect P] [--fail-on-regression] ...}, on one line. */
    String synopsis() {
        StringBuilder sb = new StringBuilder(command);
        if (!operands.isEmpty()) {
            sb.append(sb.isEmpty() ? "" : " ").append(operands);
        }
        for (Flag<?> f : flags.values()) {
            sb.append(sb.isEmpty() ? "[" : " [").append(f.left()).append(']').append(f.repeatable ? "..." : "");
        }
        return sb.toString();
    }

    /**
     * What {@code --help} prints: the usage line from the table, {@code about} (what the command does, as written),
     * a line per operand and flag, then {@code after} (exit codes and the like).
     */
    String usage(String about, String after) {
        return wrap(Subcommand.USAGE_PREFIX + synopsis(), 8).substring(8) + "\n" + about + list() + after;
    }

    /** The option list: a line per operand and flag with its help, in a column. */
    String list() {
        int column = 4 + Math.min(MAX_LEFT, rows.keySet().stream().mapToInt(k -> left(k).length()).max().orElse(0));
        StringBuilder sb = new StringBuilder();
        rows.forEach((key, text) -> {
            String left = "  " + left(key);
            sb.append(left.length() <= column - 2 ? left + " ".repeat(column - left.length()) : left + "\n"
                    + " ".repeat(column));
            sb.append(wrap(text != null ? text : flags.get(key).help, column).substring(column)).append('\n');
        });
        return sb.toString();
    }

    private String left(String key) {
        return rows.get(key) == null ? flags.get(key).left() : key;
    }

    /** {@code text} in lines of at most {@link #WIDTH} characters, each indented by {@code indent}. */
    private static String wrap(String text, int indent) {
        StringBuilder sb = new StringBuilder();
        StringBuilder line = new StringBuilder(" ".repeat(indent));
        boolean first = true;
        for (String word : text.split(" ")) {
            if (!first && line.length() + 1 + word.length() > WIDTH) {
                sb.append(line).append('\n');
                line = new StringBuilder(" ".repeat(indent));
                first = true;
            }
            line.append(first ? "" : " ").append(word);
            first = false;
        }
        return sb.append(line).toString();
    }
}
