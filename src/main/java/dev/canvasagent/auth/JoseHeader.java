package dev.canvasagent.auth;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The protected header of a compact JWS, read for what vertx-auth-jwt does not check: {@code crit}.
 * Only the header is decoded here; the signature is still checked by vertx-auth-jwt.
 */
final class JoseHeader {
  private JoseHeader() {}

  /**
   * Whether the token's header carries {@code crit} at all. This server implements no JWS extension,
   * so any list (an empty one is malformed, RFC 7515 §4.1.11) makes the token unusable. A header that
   * does not decode is left to the signature check, which refuses it.
   */
  static boolean namesCriticalExtensions(String token) {
    int dot = token.indexOf('.');
    if (dot <= 0) {
      return false;
    }
    try {
      byte[] header = Base64.getUrlDecoder().decode(token.substring(0, dot));
      return new JsonObject(new String(header, StandardCharsets.UTF_8)).containsKey("crit");
    } catch (RuntimeException undecodable) {
      return false;
    }
  }
}
