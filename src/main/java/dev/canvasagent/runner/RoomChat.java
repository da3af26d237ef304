package dev.canvasagent.runner;

import dev.canvasagent.bus.AgentChat;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.runner.context.ChatRecorder;
import dev.canvasagent.schema.NulCharacters;
import io.vertx.core.eventbus.EventBus;

/** What a run says: published on the room's {@code agent:chat} and kept in the session's chat history. */
final class RoomChat {
  static final int MAX_PROSE_CHARS = 4_000;

  private final EventBus bus;
  private final RunRequest request;
  private final ChatRecorder history;

  RoomChat(EventBus bus, RunRequest request, ChatRecorder history) {
    this.bus = bus;
    this.request = request;
    this.history = history;
  }

  void say(String text) {
    RoomTopic.AGENT_CHAT.publish(
        bus, request.roomId(), new AgentChat(request.sessionId(), "assistant", text));
    history.assistant(text);
  }

  /** The model's text beside its actions, once the stream has ended; nothing when it wrote none. */
  void sayProse(String prose) {
    // Not through the sanitizer: a NUL the model wrote is stripped here, or the chat store would
    // refuse the text.
    String text = NulCharacters.stripped(prose);
    if (text.length() > MAX_PROSE_CHARS) {
      text = text.substring(0, MAX_PROSE_CHARS);
    }
    if (!text.isEmpty()) {
      say(text);
    }
  }
}
