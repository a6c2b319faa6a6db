package dev.inferbench.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GraphTest {

    @Test
    void resnet50HasTorchvisionParameterCount() {
        Graph g = ResNet.resnet50().build();
        assertThat(g.parameterCount()).isEqualTo(25_557_032L);
        assertThat(g.inputs().get(0).shape()).containsExactly(3, 224, 224);
        assertThat(g.outputs().get("output").shape()).containsExactly(1000);
    }

    @Test
    void resnet50HasFiftyWeightLayers() {
        Graph g = ResNet.resnet50().build();
        long convs = g.nodes().stream().filter(n -> n.op() == Graph.Op.CONV).count();
        long linears = g.nodes().stream().filter(n -> n.op() == Graph.Op.LINEAR).count();
        // 49 convolutions + 1 fully connected on the main path, plus 4 projection shortcuts
        assertThat(convs + linears).isEqualTo(50 + 4);
    }

    @Test
    void tinyModelsHaveHandCountedParameters() {
        // 64*32+32 + 32*10+10
        assertThat(Mlp.tiny().build().parameterCount()).isEqualTo(2080 + 330);
        Graph tiny = ResNet.tiny().build();
        long stem = 3 * 16 * 9 + 2 * 16;
        long block1 = 2 * (16 * 16 * 9 + 2 * 16);
        long block2 = 16 * 32 * 9 + 2 * 32 + 32 * 32 * 9 + 2 * 32 + 16 * 32 + 2 * 32;
        long fc = 32 * 10 + 10;
        assertThat(tiny.parameterCount()).isEqualTo(stem + block1 + block2 + fc);
        assertThat(tiny.outputs().get("output").shape()).containsExactly(10);
    }

    @Test
    void addRejectsMismatchedShapes() {
        Graph g = new Graph("bad");
        Graph.Value x = g.input(4);
        Graph.Value y = g.linear("fc", x, 3);
        assertThatThrownBy(() -> g.add(x, y)).isInstanceOf(IllegalArgumentException.class);
    }
}
