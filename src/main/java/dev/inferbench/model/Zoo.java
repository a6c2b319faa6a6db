package dev.inferbench.model;

import dev.inferbench.BenchException;
import dev.inferbench.Choices;

import java.util.function.Supplier;

/** The architectures inferbench can generate, by the name used in benchmarks.properties ({@code model.X.zoo}). */
public enum Zoo {
    RESNET50("resnet50", ResNet::resnet50),
    RESNET_TINY("resnet-tiny", ResNet::tiny),
    MLP_TINY("mlp-tiny", Mlp::tiny),
    ADD_ONE("add-one", AddOne::floor);

    private final String id;
    private final Supplier<Architecture> factory;

    Zoo(String id, Supplier<Architecture> factory) {
        this.id = id;
        this.factory = factory;
    }

    public String id() {
        return id;
    }

    public Architecture architecture() {
        return factory.get();
    }

    public static Zoo parse(String id) throws BenchException {
        return Choices.parse(values(), Zoo::id, "zoo architecture", id);
    }
}
