package dev.inferbench.model;

import dev.inferbench.model.Graph.Value;

/** A multilayer perceptron: the smallest zoo model, for fast tests of every engine. */
public record Mlp(String name, int inputs, int[] hidden, int classes) implements Architecture {

    public static Mlp tiny() {
        return new Mlp("mlp-tiny", 64, new int[]{32}, 10);
    }

    @Override
    public Graph build() {
        Graph g = new Graph(name);
        Value x = g.input(inputs);
        for (int i = 0; i < hidden.length; i++) {
            x = g.relu(g.linear("fc" + (i + 1), x, hidden[i]));
        }
        x = g.linear("fc" + (hidden.length + 1), x, classes);
        g.output("output", g.softmax(x));
        return g;
    }
}
