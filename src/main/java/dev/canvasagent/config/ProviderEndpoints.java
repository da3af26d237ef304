package dev.canvasagent.config;

import java.util.List;

/**
 * The accounts model providers are called with: each endpoint's settings ({@code
 * providers.<name>.apiKey} and {@code .baseUrl}), their variables, the default base URL, and what the
 * variables mean in the configuration table. The providers that use them are declared in {@code
 * model/ProviderCatalog}; the settings live here so that configuration depends on no model code.
 */
public final class ProviderEndpoints {
  public static final ProviderEndpoint ANTHROPIC =
      new ProviderEndpoint(
          "anthropic",
          "ANTHROPIC",
          true,
          "https://api.anthropic.com",
          "Key for `anthropic:<model>`, Anthropic Messages (sent as `x-api-key`). Secret: never logged or shown in errors.",
          "Where the Messages API is (`/v1/messages` is appended).");
  public static final ProviderEndpoint OPENAI =
      new ProviderEndpoint(
          "openai",
          "OPENAI",
          true,
          "https://api.openai.com/v1",
          "Key for `openai:<model>`, Chat Completions, and `openai-responses:<model>`, Responses (`Authorization: Bearer`). Secret.",
          "With `/v1`, as the OpenAI SDKs take it (`/chat/completions`, `/responses` are appended).");
  public static final ProviderEndpoint GEMINI =
      new ProviderEndpoint(
          "gemini",
          "GEMINI",
          true,
          "https://generativelanguage.googleapis.com",
          "Key for `google:<model>`, Gemini (`x-goog-api-key`). Secret.",
          "Where the Gemini API is (`/v1beta/models/<model>:streamGenerateContent?alt=sse` is appended).");

  /** A local server (Ollama, llama.cpp, vLLM) may want no key: only its base URL is required. */
  public static final ProviderEndpoint OPENAI_COMPATIBLE =
      new ProviderEndpoint(
          "openaiCompatible",
          "OPENAI_COMPATIBLE",
          false,
          "",
          "Key for `openai-compatible:<model>`, Chat Completions, if the server wants one (`Authorization: Bearer` only when set). Secret.",
          "With `/v1`, e.g. `http://127.0.0.1:11434/v1` (Ollama); unset → `openai-compatible:<model>` is refused with `MODEL_NOT_CONFIGURED`.");

  /** Every endpoint, in the order of the configuration table. */
  public static final List<ProviderEndpoint> ALL =
      List.of(ANTHROPIC, OPENAI, GEMINI, OPENAI_COMPATIBLE);

  private ProviderEndpoints() {}
}
