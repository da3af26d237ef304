package dev.canvasagent.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.cluster.RendezvousOwners;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Rooms and sessions that a chosen node owns, so that a cluster test knows where a room's stream is
 * sequenced and where a session's runs run. A room's id is the test's to choose, so it is picked by
 * the rendezvous hashing every node computes; a session's id is the server's, so sessions are
 * created until one falls where the test wants it.
 */
public final class OwnedKeys {
  private OwnedKeys() {}

  /**
   * The first of {@code prefix-0}, {@code prefix-1}, … that {@code nodeId} owns among {@code
   * members}: the same name on every run, and one every node that sees those members agrees on.
   */
  public static String roomOwnedBy(String nodeId, List<String> members, String prefix) {
    for (int attempt = 0; ; attempt++) {
      String roomId = prefix + "-" + attempt;
      if (nodeId.equals(RendezvousOwners.ownerOf(roomId, members))) {
        return roomId;
      }
    }
  }

  /**
   * A new session of {@code roomId}, created through {@code http}, for which {@code owned} holds (a
   * test of who owns it, and where it would go next); at most {@code tries} sessions are created.
   */
  public static String sessionWhere(
      WebClient http, String roomId, Predicate<String> owned, int tries) {
    List<String> created = new ArrayList<>();
    for (int attempt = 0; attempt < tries; attempt++) {
      HttpResponse<Buffer> answer =
          Await.result(
              http.post("/api/sessions").sendJsonObject(new JsonObject().put("roomId", roomId)));
      assertEquals(201, answer.statusCode(), answer.bodyAsString());
      String sessionId = answer.bodyAsJsonObject().getJsonObject("session").getString("id");
      created.add(sessionId);
      if (owned.test(sessionId)) {
        return sessionId;
      }
    }
    throw new AssertionError("none of " + tries + " new sessions was the one wanted: " + created);
  }
}
