package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.canvasagent.support.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A node's address: each operation to its handler, and a message another node should never send (an
 * unknown operation, a watch without its room) refused with a 400 naming the problem, the address
 * still answering.
 */
@ExtendWith(VertxExtension.class)
class ClusterLinkTest {
  Vertx vertx;
  ClusterLink link;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    link = new ClusterLink(vertx, "node-1");
    Await.result(
        link.start(
            Map.of(
                ClusterLink.Op.WATCH,
                body -> Future.succeededFuture(RoomWatch.fromJson(body).toJson())),
            host -> {}));
  }

  static ReplyException refusal(Future<?> answer) {
    Exception failed = assertThrows(Exception.class, () -> Await.result(answer));
    Throwable cause = failed;
    while (!(cause instanceof ReplyException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return (ReplyException) cause;
  }

  @Test
  void aWatchIsAnsweredByItsHandler() {
    RoomWatch watch =
        new RoomWatch(
            "room-a",
            "node-2",
            List.of(new RoomClientChange("room-a", "node-2", "c1", true, true)));
    JsonObject answer = Await.result(link.request("node-1", ClusterLink.Op.WATCH, watch));
    assertEquals(watch.toJson(), answer);
  }

  @Test
  void anUnknownOperationOrAWatchWithoutItsRoomIsRefusedByName() {
    ReplyException unknown =
        refusal(
            vertx
                .eventBus()
                .request(
                    ClusterLink.nodeAddress("node-1"),
                    new JsonObject(),
                    new DeliveryOptions().addHeader("op", "EXPLODE")));
    assertEquals(400, unknown.failureCode());
    assertEquals("unknown operation 'EXPLODE'", unknown.getMessage());

    ReplyException noRoom =
        refusal(
            link.request(
                "node-1", ClusterLink.Op.WATCH, () -> new JsonObject().put("nodeId", "n")));
    assertEquals(400, noRoom.failureCode());
    assertEquals("RoomWatch: 'roomId' must be a non-empty string", noRoom.getMessage());

    ReplyException badRoom =
        refusal(
            link.request(
                "node-1",
                ClusterLink.Op.WATCH,
                () -> new JsonObject().put("roomId", "no spaces.or dots").put("nodeId", "n")));
    assertEquals("RoomWatch: 'roomId' is not a room id", badRoom.getMessage());

    aWatchIsAnsweredByItsHandler();
  }
}
