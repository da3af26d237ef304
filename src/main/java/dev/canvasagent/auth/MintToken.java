package dev.canvasagent.auth;

import dev.canvasagent.config.AppConfig;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code java -jar canvas-agent.jar mint-token --sub alice --room demo --role editor [--doc id] [--ttl 3600]}:
 * prints a development token signed with {@code CANVAS_AGENT_JWT_SECRET}. {@code --room '*'} or
 * {@code --doc '*'} grants every room or document.
 */
public final class MintToken {
  static final String USAGE =
      "usage: mint-token --sub <subject> --room <roomId|*>... [--doc <docId|*>...] [--role viewer|editor|admin]"
          + " [--ttl <seconds>]   (signs with CANVAS_AGENT_JWT_SECRET)";
  static final long MAX_TTL_SECONDS = 30L * 24 * 3600;

  private MintToken() {}

  /** Returns the process's exit code: 0 with the token on {@code out}, 2 with the reason on {@code err}. */
  public static int run(List<String> args, AppConfig config, PrintStream out, PrintStream err) {
    String subject = null;
    List<String> rooms = new ArrayList<>();
    List<String> documents = new ArrayList<>();
    Role role = Role.EDITOR;
    long ttlSeconds = 3600;
    if (args.contains("--help")) {
      out.println(USAGE);
      return 0;
    }
    for (int i = 0; i < args.size(); i++) {
      String flag = args.get(i);
      if (i + 1 >= args.size()) {
        err.println(flag + " needs a value\n" + USAGE);
        return 2;
      }
      String value = args.get(++i);
      switch (flag) {
        case "--sub" -> subject = value;
        case "--room" -> rooms.add(value);
        case "--doc" -> documents.add(value);
        case "--role" -> {
          var parsed = Role.fromWire(value);
          if (parsed.isEmpty()) {
            err.println("--role must be viewer, editor or admin\n" + USAGE);
            return 2;
          }
          role = parsed.get();
        }
        case "--ttl" -> {
          try {
            ttlSeconds = Long.parseLong(value);
          } catch (NumberFormatException notANumber) {
            ttlSeconds = -1;
          }
          if (ttlSeconds < 1 || ttlSeconds > MAX_TTL_SECONDS) {
            err.println("--ttl must be 1 to " + MAX_TTL_SECONDS + " seconds\n" + USAGE);
            return 2;
          }
        }
        default -> {
          err.println("unknown option " + flag + "\n" + USAGE);
          return 2;
        }
      }
    }
    if (subject == null || subject.isBlank() || (rooms.isEmpty() && documents.isEmpty())) {
      err.println("give --sub and at least one --room or --doc\n" + USAGE);
      return 2;
    }
    if (config.auth().jwtSecret().isEmpty()) {
      err.println(
          "CANVAS_AGENT_JWT_SECRET is not set: a development token is signed with the server's secret");
      return 2;
    }
    Vertx vertx = Vertx.vertx();
    try {
      out.println(
          AccessTokens.create(vertx, config.auth())
              .mint(subject, rooms, documents, role, Duration.ofSeconds(ttlSeconds)));
      return 0;
    } finally {
      vertx.close();
    }
  }
}
