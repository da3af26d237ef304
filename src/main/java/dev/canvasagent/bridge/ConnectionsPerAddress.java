package dev.canvasagent.bridge;

import java.util.HashMap;
import java.util.Map;

/**
 * The TCP connections open now, counted per remote address, whatever they carry: a request, an event
 * stream, a WebSocket, nothing yet. A slot is taken when a connection is accepted and given back when it
 * closes; an address whose count drops to nothing is removed, so memory follows the open connections.
 * Not thread-safe: the bridge's event loop is its only caller.
 */
final class ConnectionsPerAddress {
  private final int cap;
  private final Map<String, Integer> byAddress = new HashMap<>();
  private int open;

  ConnectionsPerAddress(int cap) {
    this.cap = cap;
  }

  /** Takes a slot of {@code address}, or none when it already has {@code cap} connections open. */
  boolean tryOpen(String address) {
    int current = byAddress.getOrDefault(address, 0);
    if (current >= cap) {
      return false;
    }
    byAddress.put(address, current + 1);
    open++;
    return true;
  }

  /** Gives back a slot {@link #tryOpen} took; once for each. */
  void closed(String address) {
    Integer count = byAddress.get(address);
    if (count == null) {
      return;
    }
    if (count > 1) {
      byAddress.put(address, count - 1);
    } else {
      byAddress.remove(address);
    }
    open--;
  }

  int open() {
    return open;
  }

  int addresses() {
    return byAddress.size();
  }
}
