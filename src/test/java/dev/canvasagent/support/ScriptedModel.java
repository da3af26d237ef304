package dev.canvasagent.support;

import dev.canvasagent.model.ModelCall;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.model.ModelEvent;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code test/script}: a model that answers exactly the tool calls its message spells, so a test says
 * which actions a run makes. The message is a JSON array of {@code {name, arguments}}; the calls are
 * streamed back to back as a provider streams them (start, end with the arguments), then a stop. A
 * message that is no script (a follow-up's text) is answered with a stop and no call.
 */
public final class ScriptedModel implements ModelProvider {
  public static final String MODEL = "test/script";

  private final Vertx vertx;

  public ScriptedModel(Vertx vertx) {
    this.vertx = vertx;
  }

  /** One tool call of a script. */
  public static JsonObject call(String name, JsonObject arguments) {
    return new JsonObject().put("name", name).put("arguments", arguments);
  }

  /** The message that makes a run of {@code test/script} answer {@code calls}. */
  public static String script(List<JsonObject> calls) {
    return new JsonArray(List.copyOf(calls)).encode();
  }

  /** A run request of {@code test/script} in {@code roomId} that answers {@code calls}. */
  public static JsonObject run(String roomId, List<JsonObject> calls) {
    return new JsonObject().put("roomId", roomId).put("model", MODEL).put("message", script(calls));
  }

  @Override
  public String id() {
    return "test";
  }

  @Override
  public boolean serves(String model) {
    return MODEL.equals(model);
  }

  @Override
  public ModelCall stream(ModelRequest request, Consumer<ModelEvent> events) {
    String message = request.context().getString(ModelContext.MESSAGE).strip();
    JsonArray calls = message.startsWith("[") ? new JsonArray(message) : new JsonArray();
    vertx.runOnContext(
        go -> {
          for (int ordinal = 0; ordinal < calls.size(); ordinal++) {
            JsonObject call = calls.getJsonObject(ordinal);
            String callId = "script_" + ordinal;
            events.accept(new ModelEvent.ToolCallStart(ordinal, callId, call.getString("name")));
            events.accept(
                new ModelEvent.ToolCallEnd(
                    ordinal, callId, call.getString("name"), call.getJsonObject("arguments")));
          }
          events.accept(new ModelEvent.Stop("tool_calls"));
        });
    return () -> {};
  }
}
