package dev.canvasagent.board;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.net.IDN;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * tldraw's {@code T.linkUrl} (geo and note {@code url}): empty, or what the browser's {@code new URL}
 * parses with the protocol {@code http:}, {@code https:} or {@code mailto:}; a value starting with
 * {@code /} or {@code ./} is read against {@code http://example.com}. The WHATWG URL rules are followed
 * as far as they decide whether such a URL parses at all: the host (forbidden characters, IPv4 and
 * IPv6 forms, international names) and the port. Where a rare form is in doubt it is refused: a
 * refused link costs a person an edit, a wrongly accepted one stops tldraw from loading the board.
 */
final class LinkUrl {
  private static final Pattern SCHEME =
      Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*):(.*)", Pattern.DOTALL);
  private static final String FORBIDDEN_IN_DOMAIN = " #%/:<>?@[\\]^|\u007f";
  private static final BigInteger MAX_PORT = BigInteger.valueOf(65535);
  private static final Pattern DECIMAL = Pattern.compile("[0-9]+");
  private static final Pattern HEX = Pattern.compile("0[xX][0-9A-Fa-f]*");
  private static final Pattern OCTAL = Pattern.compile("0[0-7]+");
  private static final Pattern IPV6_PIECE = Pattern.compile("[0-9A-Fa-f]{1,4}");
  private static final Pattern IPV4_IN_IPV6 =
      Pattern.compile("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");

  private LinkUrl() {}

  static boolean isValid(String value) {
    if (value.isEmpty()) {
      return true;
    }
    String input = withoutIgnoredCharacters(value);
    Matcher scheme = SCHEME.matcher(input);
    if (scheme.matches()) {
      String rest = scheme.group(2);
      return switch (scheme.group(1).toLowerCase(Locale.ROOT)) {
        case "http", "https" -> hasValidAuthority(withoutLeadingSlashes(rest));
        // mailto has no host to check; "mailto://" would have one, which nobody means.
        case "mailto" -> !rest.startsWith("//");
        default -> false;
      };
    }
    if (value.startsWith("/") || value.startsWith("./")) {
      boolean schemeRelative =
          input.length() > 1 && isSlash(input.charAt(0)) && isSlash(input.charAt(1));
      return !schemeRelative || hasValidAuthority(withoutLeadingSlashes(input));
    }
    return false;
  }

  /** WHATWG: leading and trailing C0 controls and spaces go, and tabs and newlines anywhere. */
  private static String withoutIgnoredCharacters(String value) {
    int start = 0;
    int end = value.length();
    while (start < end && value.charAt(start) <= ' ') {
      start++;
    }
    while (end > start && value.charAt(end - 1) <= ' ') {
      end--;
    }
    return value.substring(start, end).replaceAll("[\t\n\r]", "");
  }

  private static boolean isSlash(char c) {
    return c == '/' || c == '\\';
  }

  private static String withoutLeadingSlashes(String rest) {
    int start = 0;
    while (start < rest.length() && isSlash(rest.charAt(start))) {
      start++;
    }
    return rest.substring(start);
  }

  private static boolean hasValidAuthority(String rest) {
    int end = 0;
    while (end < rest.length() && "/\\?#".indexOf(rest.charAt(end)) < 0) {
      end++;
    }
    String authority = rest.substring(0, end);
    String hostAndPort = authority.substring(authority.lastIndexOf('@') + 1);
    if (hostAndPort.startsWith("[")) {
      int close = hostAndPort.indexOf(']');
      if (close < 0) {
        return false;
      }
      String afterHost = hostAndPort.substring(close + 1);
      return isIpv6(hostAndPort.substring(1, close))
          && (afterHost.isEmpty() || afterHost.startsWith(":") && isPort(afterHost.substring(1)));
    }
    int colon = hostAndPort.indexOf(':');
    String host = colon < 0 ? hostAndPort : hostAndPort.substring(0, colon);
    return isDomainOrIpv4(host) && (colon < 0 || isPort(hostAndPort.substring(colon + 1)));
  }

  private static boolean isPort(String port) {
    return port.isEmpty()
        || DECIMAL.matcher(port).matches() && new BigInteger(port).compareTo(MAX_PORT) <= 0;
  }

  private static boolean isDomainOrIpv4(String host) {
    if (host.isEmpty()) {
      return false;
    }
    String ascii = asciiDomain(percentDecoded(host));
    if (ascii == null
        || ascii.isEmpty()
        || ascii.chars().anyMatch(c -> c < 0x20 || FORBIDDEN_IN_DOMAIN.indexOf(c) >= 0)) {
      return false;
    }
    if (labels(ascii).stream()
        .anyMatch(label -> label.startsWith("xn--") && IDN.toUnicode(label).equals(label))) {
      return false; // toUnicode gives back what it cannot decode: not punycode
    }
    return !endsInNumber(ascii) || isIpv4(ascii);
  }

  /**
   * The host as browsers send it, or null. Browsers use UTS 46; Java has IDNA 2003, which is close
   * for names of letters, digits and marks, and refuses more (mixed scripts, some symbols). Invisible
   * and unassigned characters, which the two treat differently, are refused outright.
   */
  private static String asciiDomain(String host) {
    if (host.chars().allMatch(c -> c < 0x80)) {
      return host.toLowerCase(Locale.ROOT);
    }
    boolean plain =
        host.codePoints()
            .allMatch(
                c ->
                    c < 0x80
                        || switch (Character.getType(c)) {
                          case Character.FORMAT,
                              Character.CONTROL,
                              Character.SURROGATE,
                              Character.PRIVATE_USE,
                              Character.UNASSIGNED,
                              Character.SPACE_SEPARATOR,
                              Character.LINE_SEPARATOR,
                              Character.PARAGRAPH_SEPARATOR ->
                              false;
                          default -> true;
                        });
    if (!plain) {
      return null;
    }
    try {
      return IDN.toASCII(host).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException notADomain) {
      return null;
    }
  }

  private static String percentDecoded(String host) {
    byte[] bytes = host.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream decoded = new ByteArrayOutputStream();
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '%'
          && i + 2 < bytes.length
          && isHexDigit(bytes[i + 1])
          && isHexDigit(bytes[i + 2])) {
        decoded.write(Integer.parseInt(new String(bytes, i + 1, 2, StandardCharsets.US_ASCII), 16));
        i += 2;
      } else {
        decoded.write(bytes[i]);
      }
    }
    return decoded.toString(StandardCharsets.UTF_8);
  }

  private static boolean isHexDigit(byte b) {
    return Character.digit(b, 16) >= 0;
  }

  /** WHATWG: a host whose last label looks like a number must be a whole IPv4 address. */
  private static boolean endsInNumber(String host) {
    List<String> labels = labels(host);
    String last = labels.get(labels.size() - 1);
    return DECIMAL.matcher(last).matches() || HEX.matcher(last).matches();
  }

  private static List<String> labels(String host) {
    List<String> labels = new ArrayList<>(Arrays.asList(host.split("\\.", -1)));
    if (labels.size() > 1 && labels.get(labels.size() - 1).isEmpty()) {
      labels.remove(labels.size() - 1);
    }
    return labels;
  }

  private static boolean isIpv4(String host) {
    List<String> parts = labels(host);
    if (parts.size() > 4) {
      return false;
    }
    List<BigInteger> numbers = new ArrayList<>();
    for (String part : parts) {
      BigInteger number = ipv4Number(part);
      if (number == null) {
        return false;
      }
      numbers.add(number);
    }
    BigInteger byteLimit = BigInteger.valueOf(255);
    for (int i = 0; i < numbers.size() - 1; i++) {
      if (numbers.get(i).compareTo(byteLimit) > 0) {
        return false;
      }
    }
    BigInteger lastLimit = BigInteger.valueOf(256).pow(5 - numbers.size());
    return numbers.get(numbers.size() - 1).compareTo(lastLimit) < 0;
  }

  private static BigInteger ipv4Number(String part) {
    if (HEX.matcher(part).matches()) {
      return part.length() == 2 ? BigInteger.ZERO : new BigInteger(part.substring(2), 16);
    }
    if (OCTAL.matcher(part).matches()) {
      return new BigInteger(part.substring(1), 8);
    }
    if (DECIMAL.matcher(part).matches() && (part.length() == 1 || part.charAt(0) != '0')) {
      return new BigInteger(part);
    }
    return null;
  }

  /** Up to eight hex pieces, one {@code ::} standing for at least one of them, an IPv4 tail for two. */
  private static boolean isIpv6(String address) {
    int compressed = address.indexOf("::");
    if (compressed >= 0 && address.indexOf("::", compressed + 1) >= 0) {
      return false;
    }
    String head = compressed < 0 ? address : address.substring(0, compressed);
    String tail = compressed < 0 ? "" : address.substring(compressed + 2);
    int headPieces = ipv6Pieces(head, compressed < 0);
    int tailPieces = ipv6Pieces(tail, true);
    if (headPieces < 0 || tailPieces < 0) {
      return false;
    }
    int pieces = headPieces + tailPieces;
    return compressed < 0 ? pieces == 8 : pieces <= 7;
  }

  /** How many 16-bit pieces {@code groups} holds, or -1 if it is not a run of pieces. */
  private static int ipv6Pieces(String groups, boolean mayEndInIpv4) {
    if (groups.isEmpty()) {
      return 0;
    }
    String[] parts = groups.split(":", -1);
    int pieces = 0;
    for (int i = 0; i < parts.length; i++) {
      if (IPV6_PIECE.matcher(parts[i]).matches()) {
        pieces++;
      } else if (mayEndInIpv4 && i == parts.length - 1 && isIpv4InIpv6(parts[i])) {
        pieces += 2;
      } else {
        return -1;
      }
    }
    return pieces;
  }

  private static boolean isIpv4InIpv6(String part) {
    if (!IPV4_IN_IPV6.matcher(part).matches()) {
      return false;
    }
    return Arrays.stream(part.split("\\.")).allMatch(number -> Integer.parseInt(number) <= 255);
  }
}
