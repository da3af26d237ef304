package dev.canvasagent.support;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.auth.Role;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigLoader;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Tokens for a server started with {@link #ENVIRONMENT}: signed with the same secret, as {@code mint-token} signs them. */
public final class TestTokens {
  public static final String SECRET = "canvas-agent-test-secret-0123456789abcdef";

  /** Turns auth on. */
  public static final Map<String, String> ENVIRONMENT = Map.of("CANVAS_AGENT_JWT_SECRET", SECRET);

  private final AccessTokens tokens;

  /**
   * The auth settings as the server reads them with {@code environment} (variable to value), the
   * rest at their defaults: a test need not change when the section gains a setting.
   */
  public static AppConfig.Auth auth(Map<String, String> environment) {
    return ConfigLoader.load(environment).auth();
  }

  /** The auth settings of a server whose tokens are signed with {@code secret}. */
  public static AppConfig.Auth auth(String secret) {
    return auth(Map.of("CANVAS_AGENT_JWT_SECRET", secret));
  }

  public TestTokens(Vertx vertx) {
    this.tokens = AccessTokens.create(vertx, auth(SECRET));
  }

  public String token(String subject, Role role, String... rooms) {
    return tokens.mint(subject, List.of(rooms), List.of(), role, Duration.ofHours(1));
  }

  public String editor(String... rooms) {
    return token("editor", Role.EDITOR, rooms);
  }

  public String viewer(String... rooms) {
    return token("viewer", Role.VIEWER, rooms);
  }

  public String admin() {
    return token("admin", Role.ADMIN);
  }

  /** A token for {@code documents} alone (no room), as {@code role}. */
  public String forDocuments(Role role, String... documents) {
    return tokens.mint("writer", List.of(), List.of(documents), role, Duration.ofHours(1));
  }

  /** A token for {@code rooms} that stops working {@code ttl} from now. */
  public String lasting(Duration ttl, Role role, String... rooms) {
    return tokens.mint("brief", List.of(rooms), List.of(), role, ttl);
  }

  /** An editor's token for {@code rooms} that expired ten minutes ago. */
  public String expired(String... rooms) {
    long now = System.currentTimeMillis() / 1000;
    return tokens.sign(
        new JsonObject()
            .put("sub", "late")
            .put("role", "editor")
            .put("rooms", new JsonArray(List.of(rooms)))
            .put("iat", now - 3600)
            .put("exp", now - 600));
  }

  /** A token with exactly these claims. */
  public String signed(JsonObject claims) {
    return tokens.sign(claims);
  }

  public static String bearer(String token) {
    return "Bearer " + token;
  }
}
