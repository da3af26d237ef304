package dev.canvasagent.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/** Loopback names and addresses, told apart without asking DNS. */
public final class Loopback {
  private static final Pattern IP_LITERAL =
      Pattern.compile("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  private Loopback() {}

  /** {@code localhost}, {@code 127.0.0.0/8} and {@code ::1} (bracketed or not); nothing else. */
  public static boolean isLoopback(String host) {
    if (host == null) {
      return false;
    }
    String bare =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (bare.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (!IP_LITERAL.matcher(bare).matches()) {
      return false;
    }
    try {
      // An IP literal is parsed, never looked up.
      return InetAddress.getByName(bare).isLoopbackAddress();
    } catch (UnknownHostException notAnAddress) {
      return false;
    }
  }
}
