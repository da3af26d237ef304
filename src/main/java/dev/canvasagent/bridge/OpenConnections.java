package dev.canvasagent.bridge;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The streams open now (event streams, WebSockets, SockJS connections): how many per remote address,
 * and which rooms each client has them open to. Counts, not rates: a slot is taken when a stream opens
 * and given back when it closes, and an entry that drops to nothing is removed, so memory follows the
 * open streams. Not thread-safe: the bridge's event loop is its only caller.
 */
final class OpenConnections {
  /** Nothing says when a stream will close; a client may try again after this. */
  static final long RETRY_AFTER_SECONDS = 5;

  private final int perAddress;
  private final int roomsPerClient;
  private final Map<String, Integer> byAddress = new HashMap<>();

  /** Per client, its rooms and how many streams it has open to each. */
  private final Map<String, Map<String, Integer>> roomsByClient = new HashMap<>();

  OpenConnections(int perAddress, int roomsPerClient) {
    this.perAddress = perAddress;
    this.roomsPerClient = roomsPerClient;
  }

  Optional<RateLimit.Over> checkAddress(String address) {
    return byAddress.getOrDefault(address, 0) < perAddress
        ? Optional.empty()
        : Optional.of(
            new RateLimit.Over(
                "connections_per_address",
                "more than "
                    + perAddress
                    + " open connections from this address (CANVAS_AGENT_CONNECTIONS_PER_ADDRESS);"
                    + " close one first",
                RETRY_AFTER_SECONDS));
  }

  /** A stream to one more room is refused; one more to a room the client already has open is not. */
  Optional<RateLimit.Over> checkRoom(String client, String roomId) {
    Map<String, Integer> rooms = roomsByClient.getOrDefault(client, Map.of());
    return rooms.containsKey(roomId) || rooms.size() < roomsPerClient
        ? Optional.empty()
        : Optional.of(
            new RateLimit.Over(
                "rooms_per_client",
                "more than "
                    + roomsPerClient
                    + " rooms open at once by this client (CANVAS_AGENT_ROOMS_PER_CLIENT);"
                    + " leave one first",
                RETRY_AFTER_SECONDS));
  }

  void openFrom(String address) {
    byAddress.merge(address, 1, Integer::sum);
  }

  void closedFrom(String address) {
    byAddress.computeIfPresent(address, (key, count) -> count > 1 ? count - 1 : null);
  }

  void joined(String client, String roomId) {
    roomsByClient.computeIfAbsent(client, key -> new HashMap<>()).merge(roomId, 1, Integer::sum);
  }

  void left(String client, String roomId) {
    Map<String, Integer> rooms = roomsByClient.get(client);
    if (rooms == null) {
      return;
    }
    rooms.computeIfPresent(roomId, (key, count) -> count > 1 ? count - 1 : null);
    if (rooms.isEmpty()) {
      roomsByClient.remove(client);
    }
  }

  int addresses() {
    return byAddress.size();
  }

  int clients() {
    return roomsByClient.size();
  }
}
