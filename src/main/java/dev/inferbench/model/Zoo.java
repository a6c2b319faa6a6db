package dev.inferbench.model;

import dev.inferbench.BenchException;
import dev.inferbench.EnumLookup;

import java.util.function.Supplier;

/** The architectures inferbench can generate, by the name used in benchmarks.properties ({@code model.X.zoo}). */
public enum Zoo {
    RESNET50("resnet50", ResNet::resnet50),
    RESNET_TINY("resnet-tiny", ResNet::tiny),
    MOBILENET_V2("mobilenet_v2", MobileNetV2::mobilenetV2),
    VIT_B_16("vit_b_16", VisionTransformer::vitB16),
    BERT_BASE("bert_base", Bert::base),
    MOBILENET_TINY("mobilenet-tiny", MobileNetV2::tiny),
    VIT_TINY("vit-tiny", VisionTransformer::tiny),
    BERT_TINY("bert-tiny", Bert::tiny),
    MLP_TINY("mlp-tiny", Mlp::tiny),
    SMOLLM2_135M("smollm2_135m", Llama::smollm2),
    LLAMA_TINY("llama-tiny", Llama::tiny),
    ADD_ONE("add-one", AddSelf::floor);

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
        return EnumLookup.parse(values(), Zoo::id, "zoo architecture", id);
    }
}
