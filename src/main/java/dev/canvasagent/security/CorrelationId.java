package dev.canvasagent.security;

import java.util.HexFormat;
import java.util.UUID;

/**
 * What a client is given in place of text it must not see (a provider's error, a driver's message):
 * 16 hex digits, on the client's answer and on the operator's one log line of the same event, so the
 * two can be matched. Random (a v4 UUID's 62 random low bits), so it tells a client nothing about the
 * server or about other requests.
 */
public final class CorrelationId {
  private CorrelationId() {}

  public static String next() {
    return HexFormat.of().toHexDigits(UUID.randomUUID().getLeastSignificantBits());
  }
}
