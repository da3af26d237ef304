package dev.canvasagent.model.openai;

import java.util.regex.Pattern;

/**
 * OpenAI's reasoning models (the o-series and the GPT-5 family) refuse any {@code temperature} but
 * the default with a 400, so requests to them leave it out; leaving it out is always accepted.
 */
final class ReasoningModels {
  private static final Pattern REASONING =
      Pattern.compile("^(o\\d|gpt-5)", Pattern.CASE_INSENSITIVE);

  private ReasoningModels() {}

  static boolean acceptsTemperature(String model) {
    return !REASONING.matcher(model).find();
  }
}
