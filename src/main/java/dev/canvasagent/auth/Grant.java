package dev.canvasagent.auth;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * What one verified token allows: its subject, the rooms and documents it names ({@value #EVERY} for
 * all), its role, and when it stops working. When auth is off every request holds {@link #open()}.
 */
public record Grant(
    String subject, Set<String> rooms, Set<String> documents, Role role, long expiresAtMillis) {
  public static final String EVERY = "*";

  /** The claims a token carries besides {@code sub} and {@code exp}. */
  public static final String ROOMS_CLAIM = "rooms";

  public static final String DOCUMENTS_CLAIM = "docs";
  public static final String ROLE_CLAIM = "role";
  static final int MAX_ENTRIES = 1_000;

  public Grant {
    rooms = Set.copyOf(rooms);
    documents = Set.copyOf(documents);
  }

  /** Auth is off: the server is on loopback, and whoever reaches it may do anything. */
  public static Grant open() {
    return new Grant("local", Set.of(EVERY), Set.of(EVERY), Role.ADMIN, Long.MAX_VALUE);
  }

  /** The grant of a verified token's claims, or why the claims are not a grant. */
  static Grant fromClaims(JsonObject claims) throws InvalidClaims {
    if (!(claims.getValue("sub") instanceof String subject)
        || subject.isBlank()
        || subject.length() > 200) {
      throw new InvalidClaims("sub must be a string of 1 to 200 characters");
    }
    long exp =
        NumericDate.of(claims.getValue("exp"))
            .orElseThrow(
                () ->
                    new InvalidClaims(
                        "exp must be a whole number of seconds: tokens without an expiry are not accepted"));
    for (String time : new String[] {"nbf", "iat"}) {
      if (claims.containsKey(time) && NumericDate.of(claims.getValue(time)).isEmpty()) {
        throw new InvalidClaims(time + " must be a whole number of seconds");
      }
    }
    Role role =
        Role.fromWire(claims.getValue(ROLE_CLAIM))
            .orElseThrow(() -> new InvalidClaims("role must be viewer, editor or admin"));
    Set<String> rooms = names(claims, ROOMS_CLAIM);
    Set<String> documents = names(claims, DOCUMENTS_CLAIM);
    return new Grant(subject, rooms, documents, role, NumericDate.millis(exp));
  }

  private static Set<String> names(JsonObject claims, String claim) throws InvalidClaims {
    Object value = claims.getValue(claim);
    if (value == null) {
      return Set.of();
    }
    if (!(value instanceof JsonArray array) || array.size() > MAX_ENTRIES) {
      throw new InvalidClaims(claim + " must be an array of at most " + MAX_ENTRIES + " ids");
    }
    Set<String> names = new LinkedHashSet<>();
    for (Object entry : array) {
      if (!(entry instanceof String name) || name.isEmpty() || name.length() > 128) {
        throw new InvalidClaims(claim + " must hold ids of 1 to 128 characters");
      }
      names.add(name);
    }
    return names;
  }

  public boolean expired(long nowMillis) {
    return nowMillis >= expiresAtMillis;
  }

  /** Whether this grant may act as {@code needed} in {@code roomId}. */
  public boolean allowsRoom(String roomId, Role needed) {
    return role.includes(needed)
        && (role == Role.ADMIN || rooms.contains(EVERY) || rooms.contains(roomId));
  }

  /** A document is reachable by its own id or through the room it belongs to. */
  public boolean allowsDocument(String docId, String roomId, Role needed) {
    return role.includes(needed)
        && (role == Role.ADMIN
            || documents.contains(EVERY)
            || documents.contains(docId)
            || allowsRoom(roomId, needed));
  }

  /** A document created without a room becomes a room of its own, which only an all-rooms or all-documents grant could use. */
  public boolean allowsNewStandaloneDocument() {
    return role.includes(Role.EDITOR)
        && (role == Role.ADMIN || documents.contains(EVERY) || rooms.contains(EVERY));
  }

  /** When the token stops working, if it ever does. */
  public Optional<Long> expiry() {
    return expiresAtMillis == Long.MAX_VALUE ? Optional.empty() : Optional.of(expiresAtMillis);
  }

  /** Claims that verify but do not make a grant (no expiry, an unknown role, ...). */
  static final class InvalidClaims extends Exception {
    InvalidClaims(String message) {
      super(message, null, false, false);
    }
  }
}
