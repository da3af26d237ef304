package dev.canvasagent.runner;

import dev.canvasagent.bus.AgentChat;
import dev.canvasagent.bus.AgentChatDelta;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunRequest;
import dev.canvasagent.runner.context.ChatRecorder;
import dev.canvasagent.schema.NulCharacters;
import io.vertx.core.eventbus.EventBus;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run says, published on the room's {@code agent:chat} as the model writes it and kept in the
 * session's chat history. A message takes its place when its first words come (the model's order):
 * its deltas go out at once, its end ({@code final}, the whole text) only after the messages begun
 * before it have ended, so every client and the history see the messages in the order the model
 * began them, even when a {@code think} waits behind board actions in the pipeline while the next
 * prose is already written. The model's prose between its tool calls is one message per stretch.
 */
final class RoomChat {
  static final int MAX_PROSE_CHARS = 4_000;
  private static final String ROLE = "assistant";

  private final EventBus bus;
  private final RunRequest request;
  private final ChatRecorder history;

  /** The messages begun and not yet published whole, in the order they were begun. */
  private final Map<String, Message> pending = new LinkedHashMap<>();

  private String proseId;
  private int proseStretches;
  private boolean closed;

  RoomChat(EventBus bus, RunRequest request, ChatRecorder history) {
    this.bus = bus;
    this.request = request;
    this.history = history;
  }

  private static final class Message {
    /** What its deltas said so far. */
    String sent = "";

    /** The newest text seen, which may not extend {@link #sent} (then no delta went out for it). */
    String latest = "";

    String whole;
    boolean ended;
  }

  /** The text so far of the action {@code messageId} (a {@code think} or {@code message} being written). */
  void partial(String messageId, String textSoFar) {
    if (closed || textSoFar == null) {
      return;
    }
    String text = clean(textSoFar);
    Message message = pending.get(messageId);
    if (message == null) {
      if (text.isEmpty()) {
        return;
      }
      message = new Message();
      pending.put(messageId, message);
    }
    if (message.ended) {
      return;
    }
    message.latest = text;
    if (text.length() > message.sent.length() && text.startsWith(message.sent)) {
      String delta = text.substring(message.sent.length());
      message.sent = text;
      RoomTopic.AGENT_CHAT.publish(
          bus, request.roomId(), AgentChatDelta.delta(request.sessionId(), messageId, ROLE, delta));
    }
  }

  /** The message {@code messageId} whole (a {@code think} or {@code message} the sanitizer accepted). */
  void say(String messageId, String text) {
    if (closed) {
      return;
    }
    Message message = pending.computeIfAbsent(messageId, id -> new Message());
    message.whole = text == null ? "" : text;
    message.ended = true;
    flush();
  }

  /**
   * The action {@code messageId} has been handled: a message it began and did not say (the action
   * refused or dropped) is withdrawn.
   */
  void settle(String messageId) {
    Message message = pending.get(messageId);
    if (message != null && !message.ended) {
      message.ended = true;
      flush();
    }
  }

  /** The model's prose of the current stretch so far (between tool calls, outside an actions JSON). */
  void prose(String stretchSoFar) {
    if (closed) {
      return;
    }
    if (proseId == null) {
      if (clean(stretchSoFar).isEmpty()) {
        return;
      }
      proseId = request.runId() + ":p" + proseStretches++;
    }
    partial(proseId, stretchSoFar);
  }

  /** The stretch of prose is over (a tool call or an actions JSON began, the model stopped). */
  void proseEnds() {
    if (proseId == null) {
      return;
    }
    String id = proseId;
    proseId = null;
    Message message = pending.get(id);
    if (message != null && !message.ended) {
      say(id, message.latest);
    }
  }

  /**
   * The run is ending, before its final status: its prose is said as far as it was written, the
   * messages never completed are withdrawn, and nothing more is said.
   */
  void close() {
    if (closed) {
      return;
    }
    proseEnds();
    pending.values().forEach(message -> message.ended = true);
    flush();
    closed = true;
  }

  /** Publishes and records the ended messages at the head of the queue, in order. */
  private void flush() {
    Iterator<Map.Entry<String, Message>> head = pending.entrySet().iterator();
    while (head.hasNext()) {
      Map.Entry<String, Message> next = head.next();
      Message message = next.getValue();
      if (!message.ended) {
        return;
      }
      head.remove();
      String messageId = next.getKey();
      String text = message.whole == null ? "" : clean(message.whole);
      if (text.isEmpty()) {
        if (!message.sent.isEmpty()) {
          RoomTopic.AGENT_CHAT.publish(
              bus,
              request.roomId(),
              AgentChatDelta.withdrawal(request.sessionId(), messageId, ROLE));
        }
        continue;
      }
      RoomTopic.AGENT_CHAT.publish(
          bus, request.roomId(), AgentChat.finalOf(request.sessionId(), messageId, ROLE, text));
      history.assistant(text);
    }
  }

  /**
   * Not through the sanitizer: a NUL the model wrote is stripped here, or the chat store would refuse
   * the text; a message is kept to {@link #MAX_PROSE_CHARS}.
   */
  private static String clean(String text) {
    String stripped = NulCharacters.stripped(text);
    return stripped.length() > MAX_PROSE_CHARS ? stripped.substring(0, MAX_PROSE_CHARS) : stripped;
  }
}
