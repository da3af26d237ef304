package dev.canvasagent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.runner.context.ChatRecorder;
import dev.canvasagent.store.ChatStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A run's chat in the order the model began its messages: a message whole before the one begun
 * before it waits for it; one begun and never said is withdrawn; nothing is said after the run
 * closed its chat. Published on the local bus, recorded in a store that keeps what it is given.
 */
class RoomChatTest {
  static final String ROOM = "room-chat";

  Vertx vertx;
  final List<JsonObject> published = new ArrayList<>();
  final List<String> recorded = new ArrayList<>();
  RoomChat chat;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    // Delivered on the event loop later; the test reads what the chat handed to the bus instead.
    vertx
        .eventBus()
        .addOutboundInterceptor(
            context -> {
              if (context.message().address().equals(RoomTopic.AGENT_CHAT.address(ROOM))) {
                published.add((JsonObject) context.message().body());
              }
              context.next();
            });
    ChatStore store =
        new ChatStore() {
          @Override
          public Future<ChatMessage> append(
              String sessionId, String runId, String role, String text) {
            recorded.add(role + ": " + text);
            return Future.succeededFuture(new ChatMessage(role, text, 0, runId));
          }

          @Override
          public Future<List<ChatMessage>> recent(String sessionId, int limit) {
            return Future.succeededFuture(List.of());
          }
        };
    RunRequest request = new RunRequest("r1", "s1", ROOM, "hi", "debug/fake", null, null, null);
    chat = new RoomChat(vertx.eventBus(), request, new ChatRecorder(store, "s1", "r1"));
  }

  @AfterEach
  void stop() {
    vertx.close();
  }

  private List<String> lines() {
    return published.stream()
        .map(
            c ->
                c.getString("messageId")
                    + (c.getBoolean("withdrawn", false)
                        ? " withdrawn"
                        : c.containsKey("delta")
                            ? " +" + c.getString("delta")
                            : " = " + c.getString("text")))
        .toList();
  }

  @Test
  void aMessageWholeBeforeTheOneBegunEarlierWaitsForIt() {
    chat.partial("r1:0", "Thin");
    chat.prose("Then");
    chat.proseEnds();
    chat.partial("r1:0", "Thinking");
    chat.say("r1:0", "Thinking.");
    assertEquals(
        List.of("r1:0 +Thin", "r1:p0 +Then", "r1:0 +king", "r1:0 = Thinking.", "r1:p0 = Then"),
        lines());
    assertEquals(List.of("assistant: Thinking.", "assistant: Then"), recorded);
  }

  @Test
  void aMessageBegunAndNotSaidIsWithdrawnAndNotRecorded() {
    chat.partial("r1:0", "half a thought");
    chat.prose("After it");
    chat.proseEnds();
    chat.settle("r1:0");
    assertEquals(
        List.of("r1:0 +half a thought", "r1:p0 +After it", "r1:0 withdrawn", "r1:p0 = After it"),
        lines());
    assertEquals(List.of("assistant: After it"), recorded);
  }

  @Test
  void closingSaysTheProseSoFarWithdrawsTheRestAndThenSaysNothing() {
    chat.prose("Half a sen");
    chat.partial("r1:1", "never finished");
    chat.close();
    chat.say("r1:1", "too late");
    chat.prose("more");
    assertEquals(
        List.of(
            "r1:p0 +Half a sen", "r1:1 +never finished", "r1:p0 = Half a sen", "r1:1 withdrawn"),
        lines());
    assertEquals(List.of("assistant: Half a sen"), recorded);
  }

  @Test
  void proseThatShrinksSendsNoDeltaAndItsFinalSaysWhatIsLeft() {
    chat.prose("Here:\n```json");
    chat.prose("Here:");
    chat.proseEnds();
    chat.say("r1:2", "");
    assertEquals(List.of("r1:p0 +Here:\n```json", "r1:p0 = Here:"), lines());
    assertEquals(List.of("assistant: Here:"), recorded);
  }
}
