package dev.inferbench.results;

import dev.inferbench.generate.GenerationSpec;
import dev.inferbench.generate.PromptFile;
import dev.inferbench.serve.ServingSpec;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A cell's params as its settings: without those that had no effect in it, whose values (often defaults JMH still
 * records) a table must not claim for the cell. {@code promptLen} beside a prompt file (the file gives the prompt
 * lengths), {@code rate} and {@code stepSeconds} with closed-loop users (the users set the pace, and a step is their
 * requests). The one rule for the summary, the reports and compare; the run folder keeps every param as JMH ran it.
 */
public final class SettingParams {
    private SettingParams() {
    }

    public static Map<String, String> of(Map<String, String> params) {
        Map<String, String> settings = new LinkedHashMap<>(params);
        String prompts = params.getOrDefault(PromptFile.PARAM, PromptFile.NONE).strip();
        if (!prompts.isEmpty() && !prompts.equals(PromptFile.NONE)) {
            settings.remove(GenerationSpec.PROMPT_LEN);
        }
        if (closedLoop(params.getOrDefault(ServingSpec.USERS, "0"))) {
            settings.remove(ServingSpec.RATE);
            settings.remove(ServingSpec.STEP_SECONDS);
        }
        return settings;
    }

    private static boolean closedLoop(String users) {
        try {
            return Integer.parseInt(users.strip()) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
