package dev.canvasagent.model;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a provider is asked. Providers render it the same way: {@code systemPrompt} (stable across
 * runs, so it is the cacheable prefix), then one user turn made of {@code contextText}, the {@code
 * screenshot} when there is one, and {@code userMessage} last; then the later {@code turns}, if any.
 *
 * @param model the registry key the run asked for, e.g. {@code anthropic:claude-sonnet-4-5} or
 *     {@code debug/fake}
 * @param contextText the rendered prompt parts ("eyes"): viewport, shapes, transcript, todos…
 * @param userMessage what the person asked, verbatim
 * @param screenshot the host's view of the board, or null (the run is then text-only)
 * @param tools the catalog's tools, as {@code ActionCatalog.describe()} lists them ({@code name},
 *     {@code description}, {@code params}: a draft-07 schema)
 * @param sampling how to sample
 * @param context the same context as structured JSON, for providers that read it rather than text
 *     ({@code debug/fake}'s planner); see {@code ModelContext} for its keys
 * @param turns the conversation after the first user turn, oldest first (assistant answers with
 *     their tool calls, tool results, later user messages); empty for a single-turn request. Providers
 *     render them after the first user turn, so the system prompt, tools and first turn stay a stable
 *     cacheable prefix as turns are added.
 */
public record ModelRequest(
    String model,
    String systemPrompt,
    String contextText,
    String userMessage,
    Image screenshot,
    JsonArray tools,
    Sampling sampling,
    JsonObject context,
    List<Turn> turns) {

  public ModelRequest {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(systemPrompt, "systemPrompt");
    contextText = contextText == null ? "" : contextText;
    Objects.requireNonNull(userMessage, "userMessage");
    tools = tools == null ? new JsonArray() : tools;
    sampling = sampling == null ? Sampling.DEFAULT : sampling;
    context = context == null ? new JsonObject() : context;
    turns = turns == null ? List.of() : List.copyOf(turns);
  }

  /** A single-turn request. */
  public ModelRequest(
      String model,
      String systemPrompt,
      String contextText,
      String userMessage,
      Image screenshot,
      JsonArray tools,
      Sampling sampling,
      JsonObject context) {
    this(
        model,
        systemPrompt,
        contextText,
        userMessage,
        screenshot,
        tools,
        sampling,
        context,
        List.of());
  }

  /** A request with no context parts, no screenshot and default sampling. */
  public ModelRequest(String model, String systemPrompt, String userMessage, JsonArray tools) {
    this(model, systemPrompt, "", userMessage, null, tools, Sampling.DEFAULT, new JsonObject());
  }

  /** This request with {@code more} appended to its turns. */
  public ModelRequest plus(List<Turn> more) {
    List<Turn> all = new ArrayList<>(turns);
    all.addAll(more);
    return new ModelRequest(
        model, systemPrompt, contextText, userMessage, screenshot, tools, sampling, context, all);
  }

  /**
   * The tools as providers declare them: name, description and the parameter schema without its
   * {@code $schema} line (a draft-07 declaration some providers refuse inside a tool).
   */
  public List<Tool> toolDeclarations() {
    List<Tool> declarations = new ArrayList<>();
    for (Object item : tools) {
      if (item instanceof JsonObject tool && tool.getValue("name") instanceof String name) {
        JsonObject parameters =
            tool.getValue("params") instanceof JsonObject params
                ? params.copy()
                : new JsonObject().put("type", "object").put("properties", new JsonObject());
        parameters.remove("$schema");
        String description = tool.getValue("description") instanceof String text ? text : "";
        declarations.add(new Tool(name, description, parameters));
      }
    }
    return declarations;
  }

  /** One tool as declared to a provider; {@code parameters} is a JSON Schema of its arguments object. */
  public record Tool(String name, String description, JsonObject parameters) {}

  /** A screenshot: its media type ({@code image/png}, {@code image/jpeg}) and base64 bytes, no data-URL prefix. */
  public record Image(String mediaType, String base64) {
    /** {@code data:<mediaType>;base64,<bytes>}, as OpenAI's APIs take an inline image. */
    public String dataUrl() {
      return "data:" + mediaType + ";base64," + base64;
    }
  }

  /**
   * {@code temperature} in [0, 2]; {@code maxOutputTokens} caps the answer.
   * {@link #STRICT} is the stricter sampling of a follow-up (lower temperature).
   */
  public record Sampling(double temperature, int maxOutputTokens) {
    public static final Sampling DEFAULT = new Sampling(0.7, 8192);
    public static final Sampling STRICT = new Sampling(0.2, 8192);
  }
}
