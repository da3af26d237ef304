package dev.canvasagent.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.bus.RoomTopic;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.handler.sockjs.SockJSSocket;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One SockJS client on its own: it sends only what its browser registered, holds a bounded amount
 * its connection has not taken yet, and can host once it listens to envelopes and screenshot requests.
 */
class SockJSClientTest {
  static final int MAX_PENDING_CHARS = 1_000;

  /** A socket that records what is written and lets the test decide when the connection takes it. */
  static final class Socket {
    final List<String> written = new ArrayList<>();
    final List<Promise<Void>> taken = new ArrayList<>();
    boolean closed;

    SockJSSocket proxy() {
      return (SockJSSocket)
          Proxy.newProxyInstance(
              SockJSSocket.class.getClassLoader(),
              new Class<?>[] {SockJSSocket.class},
              (self, method, arguments) ->
                  switch (method.getName()) {
                    case "write" -> {
                      written.add(
                          arguments[0] instanceof Buffer buffer
                              ? buffer.toString()
                              : (String) arguments[0]);
                      Promise<Void> promise = Promise.promise();
                      taken.add(promise);
                      yield promise.future();
                    }
                    case "writeQueueFull" -> false;
                    case "close" -> {
                      closed = true;
                      yield null;
                    }
                    case "setWriteQueueMaxSize" -> self;
                    case "hashCode" -> System.identityHashCode(self);
                    case "equals" -> self == arguments[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                  });
    }
  }

  final Socket socket = new Socket();
  final SockJSClient client =
      new SockJSClient(socket.proxy(), "sockjs-1", MAX_PENDING_CHARS, new MessageRate(10));

  SockJSClientTest() {
    client.joining("r1", false);
    client.joined(Future.succeededFuture());
  }

  static RoomEvent event(RoomTopic topic, String id, int size) {
    return new RoomEvent(id, topic, new JsonObject().put("text", "x".repeat(size)));
  }

  @Test
  void itSendsWhatItsBrowserRegisteredAsTheBridgesRecMessages() {
    client.register(RoomTopic.AGENT_ACTION);
    assertTrue(
        client.deliver(event(RoomTopic.AGENT_CHAT, "b-1", 1)),
        "a topic it did not register is skipped, not a failure");
    assertTrue(client.deliver(event(RoomTopic.AGENT_ACTION, "b-2", 1)));
    assertEquals(
        List.of(
            new JsonObject()
                .put("type", "rec")
                .put("address", "room.r1.agent:action")
                .put("body", new JsonObject().put("text", "x"))
                .put("headers", new JsonObject().put("id", "b-2"))),
        socket.written.stream().map(JsonObject::new).toList());

    client.unregister(RoomTopic.AGENT_ACTION);
    assertTrue(client.deliver(event(RoomTopic.AGENT_ACTION, "b-3", 1)));
    assertEquals(1, socket.written.size());
  }

  @Test
  void aResumingClientGetsWhatItMissedOnEveryTopicUntilItHasCaughtUp() {
    SockJSClient resuming =
        new SockJSClient(socket.proxy(), "sockjs-2", MAX_PENDING_CHARS, new MessageRate(10));
    resuming.joining("r1", true);
    Promise<Room> joined = Promise.promise();
    resuming.joined(joined.future());
    assertTrue(resuming.deliver(event(RoomTopic.AGENT_CHAT, "b-1", 1)));
    joined.complete();
    assertTrue(resuming.deliver(event(RoomTopic.AGENT_CHAT, "b-2", 1)));
    assertEquals(
        1, socket.written.size(), "replayed while catching up, then only what it registered");
  }

  @Test
  void aClientWhoseConnectionTakesNothingIsClosedOnceItHoldsTheBound() {
    client.register(RoomTopic.AGENT_ACTION);
    int delivered = 0;
    while (client.deliver(event(RoomTopic.AGENT_ACTION, "b-" + delivered, 300))) {
      delivered++;
      assertTrue(delivered < 10, "the client must stop taking events");
    }
    assertTrue(socket.closed, "a slow consumer is closed");
    int pending = socket.written.stream().mapToInt(String::length).sum();
    assertTrue(
        pending >= MAX_PENDING_CHARS && pending < MAX_PENDING_CHARS + 400,
        "held at most the bound and one event: " + pending);
    assertFalse(client.deliver(event(RoomTopic.AGENT_ACTION, "b-late", 1)));
  }

  @Test
  void whatTheConnectionTookNoLongerCounts() {
    client.register(RoomTopic.AGENT_ACTION);
    for (int i = 0; i < 20; i++) {
      assertTrue(client.deliver(event(RoomTopic.AGENT_ACTION, "b-" + i, 300)), "event " + i);
      socket.taken.get(i).complete();
    }
    assertFalse(socket.closed);
  }

  @Test
  void itCanHostOnceItListensToEnvelopesAndScreenshotRequestsWithAnEditorsToken() {
    assertFalse(client.canHost());
    client.register(RoomTopic.AGENT_ACTION);
    assertFalse(client.canHost());
    client.register(RoomTopic.AGENT_SCREENSHOT_REQUEST);
    assertFalse(client.canHost(), "a viewer's connection listens, and never hosts");
    client.mayEdit(true);
    assertTrue(client.canHost());
    client.unregister(RoomTopic.AGENT_ACTION);
    assertFalse(client.canHost());
  }
}
