package dev.inferbench.model;

/** A zoo network: builds its {@link Graph} from nothing but its own configuration. */
public interface Architecture {
    String name();

    Graph build();
}
