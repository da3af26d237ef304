package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code limits}: what one client, one room and one remote address may use (see "Security: Limits"). */
final class LimitsSettings {
  static final Setting RUNS_PER_MINUTE =
      Setting.of(
          "limits.runsPerMinute",
          "CANVAS_AGENT_RUNS_PER_MINUTE",
          whole(1, 100_000),
          20,
          "Runs one client (a token's subject; its address when auth is off) may start a minute: canvas runs, document-agent runs and delegated edits. Counted across every node on PostgreSQL. See \"Security: Limits\" for this and the next seven.");
  static final Setting ROOM_RUNS_PER_MINUTE =
      Setting.of(
          "limits.roomRunsPerMinute",
          "CANVAS_AGENT_ROOM_RUNS_PER_MINUTE",
          whole(1, 100_000),
          60,
          "Runs one room may start a minute, whoever starts them; counted across every node on PostgreSQL.");
  static final Setting REQUESTS_PER_SECOND =
      Setting.of(
          "limits.requestsPerSecond",
          "CANVAS_AGENT_REQUESTS_PER_SECOND",
          whole(1, 100_000),
          50,
          "HTTP API requests (`/api`) a second per client.");
  static final Setting ROOM_MESSAGES_PER_SECOND =
      Setting.of(
          "limits.roomMessagesPerSecond",
          "CANVAS_AGENT_ROOM_MESSAGES_PER_SECOND",
          whole(1, 1_000_000),
          200,
          "Messages a second all browsers of one room may send together.");
  static final Setting SCREENSHOT_BYTES_PER_MINUTE =
      Setting.of(
          "limits.screenshotBytesPerMinute",
          "CANVAS_AGENT_SCREENSHOT_BYTES_PER_MINUTE",
          whole(1_024, Integer.MAX_VALUE),
          33_554_432,
          "Screenshot bytes one client may send a minute.");
  static final Setting CONNECTIONS_PER_ADDRESS =
      Setting.of(
          "limits.connectionsPerAddress",
          "CANVAS_AGENT_CONNECTIONS_PER_ADDRESS",
          whole(1, 100_000),
          32,
          "Open event streams, WebSockets and SockJS connections per remote address.");
  static final Setting ROOMS_PER_CLIENT =
      Setting.of(
          "limits.roomsPerClient",
          "CANVAS_AGENT_ROOMS_PER_CLIENT",
          whole(1, 100_000),
          16,
          "Rooms one client may have open connections to at once.");
  static final Setting TCP_CONNECTIONS_PER_ADDRESS =
      Setting.of(
          "limits.tcpConnectionsPerAddress",
          "CANVAS_AGENT_TCP_CONNECTIONS_PER_ADDRESS",
          whole(1, 100_000),
          64,
          "Open TCP connections of any kind per remote address, streams included (1–100000, at least `CANVAS_AGENT_CONNECTIONS_PER_ADDRESS`); one more is closed when it is accepted.");

  static final List<Setting> ALL =
      List.of(
          RUNS_PER_MINUTE,
          ROOM_RUNS_PER_MINUTE,
          REQUESTS_PER_SECOND,
          ROOM_MESSAGES_PER_SECOND,
          SCREENSHOT_BYTES_PER_MINUTE,
          CONNECTIONS_PER_ADDRESS,
          ROOMS_PER_CLIENT,
          TCP_CONNECTIONS_PER_ADDRESS);

  private LimitsSettings() {}

  static AppConfig.Limits read(ConfigValues values) {
    int streams = values.whole(CONNECTIONS_PER_ADDRESS);
    int connections = values.whole(TCP_CONNECTIONS_PER_ADDRESS);
    if (connections < streams) {
      // Every stream is a connection: a lower cap would refuse streams the stream limit allows.
      throw values.bad(
          TCP_CONNECTIONS_PER_ADDRESS,
          "must be at least limits.connectionsPerAddress (" + streams + ")");
    }
    return new AppConfig.Limits(
        values.whole(RUNS_PER_MINUTE),
        values.whole(ROOM_RUNS_PER_MINUTE),
        values.whole(REQUESTS_PER_SECOND),
        values.whole(ROOM_MESSAGES_PER_SECOND),
        values.whole(SCREENSHOT_BYTES_PER_MINUTE),
        streams,
        values.whole(ROOMS_PER_CLIENT),
        connections);
  }
}
