package dev.canvasagent.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The {@code agent:action} payload: {@code v} ({@link #VERSION}), the run's {@code sessionId}, a
 * {@code seq} strictly increasing per session, {@code partial} for a streamed fragment, the actions
 * and a timestamp; plus {@code rev} and {@code diff}: the board revision this envelope made and the
 * record diff that made it, so every browser applies the same change.
 */
public record ActionEnvelope(
    String sessionId,
    long seq,
    boolean partial,
    List<AgentAction> actions,
    long ts,
    long rev,
    JsonObject diff)
    implements BusMessage {

  public static final String VERSION = "tldraw-actions/1";

  @Override
  public JsonObject toJson() {
    JsonArray actionArray = new JsonArray();
    actions.forEach(action -> actionArray.add(action.toJson()));
    JsonObject json =
        new JsonObject()
            .put("v", VERSION)
            .put("sessionId", sessionId)
            .put("seq", seq)
            .put("actions", actionArray)
            .put("ts", ts);
    if (partial) {
      json.put("partial", true);
    }
    if (diff != null) {
      json.put("rev", rev).put("diff", diff);
    }
    return json;
  }
}
