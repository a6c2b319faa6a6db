package dev.inferbench.model;

import dev.inferbench.model.Graph.Value;

/**
 * The smallest model there is: one Add of the input to itself, 1 float per sample, no weights. Its per-call time is
 * the harness floor: everything an engine and the harness spend on a call apart from the network's own work.
 */
public record AddSelf(String name) implements Architecture {

    public static AddSelf floor() {
        return new AddSelf("add-one");
    }

    @Override
    public Graph build() {
        Graph g = new Graph(name);
        Value x = g.input(1);
        g.output("output", g.add(x, x));
        return g;
    }
}
