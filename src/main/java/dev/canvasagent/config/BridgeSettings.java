package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code bridge}: delivery to browsers, and what a browser may send. */
final class BridgeSettings {
  static final Setting ACK_TIMEOUT_MS =
      Setting.of(
          "bridge.ackTimeoutMs",
          "CANVAS_AGENT_ACK_TIMEOUT_MS",
          whole(100, 60_000),
          3000,
          "How long the host has to ack an envelope before it is sent again.");
  static final Setting ACK_RETRIES =
      Setting.of(
          "bridge.ackRetries",
          "CANVAS_AGENT_ACK_RETRIES",
          whole(0, 10),
          2,
          "Re-sends before the failure is reported on `agent:status` (`ACK_TIMEOUT`).");
  static final Setting REPLAY_EVENTS =
      Setting.of(
          "bridge.replayEvents",
          "CANVAS_AGENT_REPLAY_EVENTS",
          whole(0, 100_000),
          1000,
          "Events a room keeps for clients that reconnect; older → `canvas:resync`.");
  static final Setting MAX_MESSAGE_BYTES =
      Setting.of(
          "bridge.maxMessageBytes",
          "CANVAS_AGENT_MAX_MESSAGE_BYTES",
          whole(1_024, 64 * 1024 * 1024),
          4_194_304,
          "Largest message a browser may send (WebSocket, SockJS); larger closes the connection (1009).");
  static final Setting MESSAGES_PER_SECOND =
      Setting.of(
          "bridge.messagesPerSecond",
          "CANVAS_AGENT_CLIENT_MESSAGES_PER_SECOND",
          whole(1, 10_000),
          50,
          "Messages a second per connection (bursts of twice that); more are refused with `RATE_LIMITED`.");

  static final List<Setting> ALL =
      List.of(ACK_TIMEOUT_MS, ACK_RETRIES, REPLAY_EVENTS, MAX_MESSAGE_BYTES, MESSAGES_PER_SECOND);

  private BridgeSettings() {}

  static AppConfig.Bridge read(ConfigValues values) {
    return new AppConfig.Bridge(
        values.whole(ACK_TIMEOUT_MS),
        values.whole(ACK_RETRIES),
        values.whole(REPLAY_EVENTS),
        values.whole(MAX_MESSAGE_BYTES),
        values.whole(MESSAGES_PER_SECOND));
  }
}
