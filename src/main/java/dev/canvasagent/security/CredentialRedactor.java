package dev.canvasagent.security;

import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.DatabaseConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes credentials out of text the server did not write — a provider's error message, a proxy's
 * error page — before it goes to the operator's log. Providers quote the key they were sent ("invalid
 * x-api-key: sk-ant-…"; OpenAI quotes its start and end; proxies quote more), so what is removed is
 * every configured secret (and any word holding a long secret's last {@value #TAIL_CHARS}
 * characters, as masked keys show them), and anything shaped like a credential: {@code sk-…} and
 * {@code AIza…} keys, bearer and basic credentials, JWTs, {@code password=…}-style pairs, and long
 * tokens that mix upper case, lower case and digits (or are long hex). Each becomes {@value #MARK}.
 *
 * <p>It errs towards removing too much: a long request id of a provider is taken for a token. The
 * operator loses that id, never a key.
 */
public final class CredentialRedactor {
  public static final String MARK = "<redacted>";

  /** Shorter configured values are left to the patterns: replacing two letters everywhere hides nothing. */
  static final int MIN_SECRET_CHARS = 4;

  /** A masked key ({@code sk-proj-****…abcd}) still shows its end; a secret this long has its end looked for too. */
  static final int TAIL_FROM_CHARS = 16;

  static final int TAIL_CHARS = 8;

  private static final Pattern KEY_PREFIXED =
      Pattern.compile("\\b(?:sk-[A-Za-z0-9_\\-*.]{8,}|AIza[0-9A-Za-z_\\-*]{16,})");
  private static final Pattern AUTHORIZATION =
      Pattern.compile("(?i)\\b(bearer|basic)(\\s+)[A-Za-z0-9._~+/=\\-*]{16,}");
  private static final Pattern JWT =
      Pattern.compile("\\beyJ[A-Za-z0-9_\\-]*\\.[A-Za-z0-9_\\-]+\\.[A-Za-z0-9_\\-]*");
  private static final Pattern NAMED_SECRET =
      Pattern.compile(
          "(?i)\\b((?:x-)?(?:api[_-]?key|goog-api-key|access[_-]?token|auth[_-]?token|password|passwd|secret|key|token))"
              + "(\\\\?[\"']?\\s*[=:]\\s*\\\\?[\"']?)([^\\s\"'\\\\&,;)}\\]]+)");
  private static final Pattern LONG_TOKEN = Pattern.compile("[A-Za-z0-9_\\-+/=]{20,}");
  private static final Pattern LONG_HEX = Pattern.compile("\\b[0-9a-fA-F]{32,}\\b");

  /** What surrounds a secret's end inside a word: the rest of that word goes too. */
  private static final String WORD = "[^\\s\"'<>,;()\\[\\]{}]*";

  /** Longest first, so a secret that contains another is removed whole. */
  private final List<String> secrets;

  private final List<Pattern> tails;

  public CredentialRedactor(Collection<String> secrets) {
    this.secrets =
        secrets.stream()
            .filter(secret -> secret != null && secret.length() >= MIN_SECRET_CHARS)
            .distinct()
            .sorted(Comparator.comparingInt(String::length).reversed())
            .toList();
    this.tails =
        this.secrets.stream()
            .filter(secret -> secret.length() >= TAIL_FROM_CHARS)
            .map(
                secret ->
                    Pattern.compile(
                        WORD
                            + Pattern.quote(secret.substring(secret.length() - TAIL_CHARS))
                            + WORD))
            .toList();
  }

  /** The configuration's secrets: every provider's API key, the JWT secret and the database password. */
  public static CredentialRedactor of(AppConfig config) {
    List<String> secrets = new ArrayList<>();
    secrets.add(config.auth().jwtSecret());
    for (AppConfig.Endpoint endpoint : config.providers().endpoints().values()) {
      secrets.add(endpoint.apiKey());
    }
    config.database().map(DatabaseConfig::password).ifPresent(secrets::add);
    return new CredentialRedactor(secrets);
  }

  /** With no configured secret: only what looks like a credential is removed. */
  public static CredentialRedactor patternsOnly() {
    return new CredentialRedactor(List.of());
  }

  /** {@code text} with every credential in it replaced by {@value #MARK}; null stays null. */
  public String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String redacted = text;
    for (String secret : secrets) {
      redacted = redacted.replace(secret, MARK);
    }
    for (Pattern tail : tails) {
      redacted = tail.matcher(redacted).replaceAll(MARK);
    }
    redacted = JWT.matcher(redacted).replaceAll(MARK);
    redacted = AUTHORIZATION.matcher(redacted).replaceAll("$1$2" + Matcher.quoteReplacement(MARK));
    redacted = KEY_PREFIXED.matcher(redacted).replaceAll(MARK);
    redacted = replace(NAMED_SECRET, redacted, 3, value -> !value.startsWith(MARK));
    redacted = replace(LONG_TOKEN, redacted, 0, CredentialRedactor::looksRandom);
    return LONG_HEX.matcher(redacted).replaceAll(MARK);
  }

  /** Group {@code group} of each match that passes {@code secret} becomes the mark. */
  private static String replace(Pattern pattern, String text, int group, Predicate<String> secret) {
    Matcher matcher = pattern.matcher(text);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      String value = matcher.group(group);
      String replaced =
          secret.test(value)
              ? matcher.group().substring(0, matcher.start(group) - matcher.start())
                  + MARK
                  + matcher.group().substring(matcher.end(group) - matcher.start())
              : matcher.group();
      matcher.appendReplacement(out, Matcher.quoteReplacement(replaced));
    }
    matcher.appendTail(out);
    return out.toString();
  }

  /** Upper case, lower case and digits mixed: what generated keys look like, and words, paths and model names do not. */
  private static boolean looksRandom(String token) {
    return token.chars().anyMatch(Character::isUpperCase)
        && token.chars().anyMatch(Character::isLowerCase)
        && token.chars().anyMatch(Character::isDigit)
        && !token.contains(MARK);
  }
}
