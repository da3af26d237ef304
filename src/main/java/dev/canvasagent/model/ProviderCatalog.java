package dev.canvasagent.model;

import static dev.canvasagent.config.ProviderEndpoints.ANTHROPIC;
import static dev.canvasagent.config.ProviderEndpoints.GEMINI;
import static dev.canvasagent.config.ProviderEndpoints.OPENAI;
import static dev.canvasagent.config.ProviderEndpoints.OPENAI_COMPATIBLE;

import dev.canvasagent.model.anthropic.AnthropicMessagesProtocol;
import dev.canvasagent.model.anthropic.AnthropicStreamNormalizer;
import dev.canvasagent.model.gemini.GeminiProtocol;
import dev.canvasagent.model.gemini.GeminiStreamNormalizer;
import dev.canvasagent.model.http.HttpProvider;
import dev.canvasagent.model.openai.ChatCompletionsProtocol;
import dev.canvasagent.model.openai.ChatCompletionsStreamNormalizer;
import dev.canvasagent.model.openai.ResponsesProtocol;
import dev.canvasagent.model.openai.ResponsesStreamNormalizer;
import java.util.List;

/**
 * Every HTTP model provider this server can call, one declaration each: its key prefix, its endpoint
 * (declared with the settings, in {@link dev.canvasagent.config.ProviderEndpoints}), how its request is
 * written and how its stream is read. Two providers may share an endpoint, as {@code openai:} and
 * {@code openai-responses:} share one account.
 */
public final class ProviderCatalog {
  public static final List<HttpProvider> ALL =
      List.of(
          new HttpProvider(
              "anthropic",
              ANTHROPIC,
              (endpoint, model) ->
                  new AnthropicMessagesProtocol(
                      endpoint.baseUrl(),
                      endpoint.apiKey(),
                      model.promptCacheDisabled() ? null : model.anthropicCacheTtl()),
              AnthropicStreamNormalizer::new),
          new HttpProvider(
              "openai",
              OPENAI,
              (endpoint, model) ->
                  ChatCompletionsProtocol.openai(endpoint.baseUrl(), endpoint.apiKey()),
              ChatCompletionsStreamNormalizer::new),
          new HttpProvider(
              "openai-responses",
              OPENAI,
              (endpoint, model) -> new ResponsesProtocol(endpoint.baseUrl(), endpoint.apiKey()),
              ResponsesStreamNormalizer::new),
          new HttpProvider(
              "google",
              GEMINI,
              (endpoint, model) -> new GeminiProtocol(endpoint.baseUrl(), endpoint.apiKey()),
              GeminiStreamNormalizer::new),
          new HttpProvider(
              "openai-compatible",
              OPENAI_COMPATIBLE,
              (endpoint, model) ->
                  ChatCompletionsProtocol.compatible(endpoint.baseUrl(), endpoint.apiKey()),
              ChatCompletionsStreamNormalizer::new));

  private ProviderCatalog() {}
}
