package dev.canvasagent.config;

import static dev.canvasagent.config.Check.oneOf;
import static dev.canvasagent.config.Check.textOrEmpty;
import static dev.canvasagent.config.Check.whole;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code auth}: how access tokens are checked. An HS256 secret (at least 32 bytes, as RFC 7518 asks
 * of HS256 keys) or a public key (PEM) with its algorithm, not both. Neither: auth is off, which only
 * a loopback address may serve.
 */
final class AuthSettings {
  /** A year and a day: tokens meant to last longer belong to a revocation scheme this server does not have. */
  static final int MAX_TOKEN_LIFETIME_SECONDS = 366 * 24 * 3600;

  static final Setting JWT_SECRET =
      Setting.secret(
          "auth.jwtSecret",
          "CANVAS_AGENT_JWT_SECRET",
          textOrEmpty(),
          "",
          "HS256 secret (at least 32 bytes) that access tokens are signed with. Empty and no public key: auth is off, allowed only when `HOST` is a loopback address. Never logged.");
  static final Setting JWT_PUBLIC_KEY =
      Setting.of(
          "auth.jwtPublicKey",
          "CANVAS_AGENT_JWT_PUBLIC_KEY",
          textOrEmpty(),
          "",
          "A PEM public key (`-----BEGIN PUBLIC KEY-----`) to verify tokens an external issuer signs, instead of a secret.");

  /** What a configured public key may sign with. */
  static final Setting JWT_ALGORITHM =
      Setting.of(
          "auth.jwtAlgorithm",
          "CANVAS_AGENT_JWT_ALGORITHM",
          oneOf("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"),
          "RS256",
          "The public key's algorithm: `RS256/384/512`, `PS256/384/512`, `ES256/384/512`.");

  static final Setting MAX_TOKEN_LIFETIME =
      Setting.of(
          "auth.maxTokenLifetimeSeconds",
          "CANVAS_AGENT_JWT_MAX_LIFETIME_SECONDS",
          whole(60, MAX_TOKEN_LIFETIME_SECONDS),
          2_592_000,
          "The longest a presented token may still be valid for (60 s – 366 days; 30 days, what `mint-token` can issue); a token whose `exp` is further away is refused `401`.");

  static final List<Setting> ALL =
      List.of(JWT_SECRET, JWT_PUBLIC_KEY, JWT_ALGORITHM, MAX_TOKEN_LIFETIME);

  private AuthSettings() {}

  static AppConfig.Auth read(ConfigValues values) {
    String secret = values.text(JWT_SECRET);
    String publicKey = values.text(JWT_PUBLIC_KEY);
    String algorithm = values.text(JWT_ALGORITHM);
    if (!secret.isEmpty() && !publicKey.isEmpty()) {
      throw values.bad(
          JWT_PUBLIC_KEY,
          "set either auth.jwtSecret (CANVAS_AGENT_JWT_SECRET) or a public key, not both");
    }
    if (!secret.isEmpty() && secret.getBytes(StandardCharsets.UTF_8).length < 32) {
      throw values.bad(JWT_SECRET, "an HS256 secret must be at least 32 bytes");
    }
    if (!publicKey.isEmpty() && !publicKey.contains("-----BEGIN PUBLIC KEY-----")) {
      throw values.bad(JWT_PUBLIC_KEY, "must be a PEM public key (-----BEGIN PUBLIC KEY-----)");
    }
    AppConfig.Auth auth =
        new AppConfig.Auth(secret, publicKey, algorithm, values.whole(MAX_TOKEN_LIFETIME));
    String host = values.text(HttpSettings.HOST);
    if (!auth.enabled() && !Loopback.isLoopback(host)) {
      throw values.bad(
          HttpSettings.HOST,
          "serving "
              + host
              + " without tokens would let anyone who can reach it read and drive every room;"
              + " set CANVAS_AGENT_JWT_SECRET (or CANVAS_AGENT_JWT_PUBLIC_KEY), or bind to 127.0.0.1");
    }
    return auth;
  }
}
