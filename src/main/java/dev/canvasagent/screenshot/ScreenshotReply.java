package dev.canvasagent.screenshot;

import dev.canvasagent.bus.Screenshot;
import dev.canvasagent.bus.Viewport;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * The checks a host's {@code agent:screenshot} passes before a capture takes it, and its reading into
 * the {@link Screenshot} record the capture answers its caller with. The host's message comes from a
 * browser (a room topic, the wire protocol), so each field is checked here first, and each refusal
 * has its own reason. What a rejection says names fields and sizes, never image data.
 */
final class ScreenshotReply {
  static final Set<String> MIME_TYPES = Set.of("image/png", "image/jpeg", "image/webp");
  private static final List<String> MIME_LIST = MIME_TYPES.stream().sorted().toList();
  private static final int SHOWN_CHARS = 64;

  private ScreenshotReply() {}

  /** A reply that is not taken, and why. */
  static final class Rejected extends Exception {
    private final ReplyRejection reason;

    Rejected(ReplyRejection reason, String detail) {
      super(detail, null, false, false);
      this.reason = reason;
    }

    ReplyRejection reason() {
      return reason;
    }
  }

  /**
   * The capture's answer made from a host's reply whose request and host are already known to match,
   * not cached, with the image's {@code bytes} its decoded size.
   */
  static Screenshot accept(JsonObject reply, int maxBytes) throws Rejected {
    if (!(reply.getValue("image") instanceof JsonObject image)) {
      throw new Rejected(ReplyRejection.MALFORMED, "image is not an object");
    }
    String mime = image.getValue("mime") instanceof String text ? text : null;
    if (mime == null || !MIME_TYPES.contains(mime)) {
      throw new Rejected(
          ReplyRejection.BAD_MIME,
          "image.mime " + shown(image.getValue("mime")) + " is not one of " + MIME_LIST);
    }
    if (!(image.getValue("bytes") instanceof Number claimed)
        || !isWholeNumber(claimed)
        || claimed.doubleValue() < 0) {
      throw new Rejected(
          ReplyRejection.MALFORMED,
          "image.bytes " + shown(image.getValue("bytes")) + " is not a byte count");
    }
    if (claimed.doubleValue() > maxBytes) {
      throw new Rejected(
          ReplyRejection.TOO_LARGE, "image.bytes " + claimed.longValue() + " is over " + maxBytes);
    }
    int bytes = decodedSize(image.getValue("dataUrl"), mime, maxBytes);
    Viewport bounds = Viewport.checked(reply.getValue("bounds"));
    Viewport viewport = Viewport.checked(reply.getValue("viewport"));
    if (bounds == null || viewport == null) {
      throw new Rejected(
          ReplyRejection.BAD_GEOMETRY,
          (bounds == null ? "bounds " : "viewport ")
              + "is not {x, y, w, h} of finite numbers with w and h at least 0");
    }
    Object selection =
        reply.getValue("selection") == null ? new JsonArray() : reply.getValue("selection");
    if (!(selection instanceof JsonArray ids) || !ids.stream().allMatch(String.class::isInstance)) {
      throw new Rejected(ReplyRejection.MALFORMED, "selection is not an array of shape ids");
    }
    Object docVersion = reply.getValue("docVersion");
    if (docVersion != null && !(docVersion instanceof String)) {
      throw new Rejected(
          ReplyRejection.MALFORMED, "docVersion " + shown(docVersion) + " is not a string");
    }
    return new Screenshot(
        reply.getString("requestId"),
        reply.getString("clientId"),
        new Screenshot.Image(mime, image.getString("dataUrl"), bytes),
        bounds,
        viewport,
        ids.stream().map(String.class::cast).toList(),
        (String) docVersion,
        false);
  }

  /** The size of the image a data URL carries, checked against its mime type and the limit before and after decoding. */
  private static int decodedSize(Object dataUrl, String mime, int maxBytes) throws Rejected {
    String prefix = "data:" + mime + ";base64,";
    if (!(dataUrl instanceof String url) || !url.startsWith(prefix)) {
      throw new Rejected(
          ReplyRejection.BAD_DATA_URL, "image.dataUrl does not start with " + prefix);
    }
    int encodedChars = url.length() - prefix.length();
    // Refused before decoding: four base64 characters carry at most three bytes.
    if ((long) encodedChars / 4 * 3 - 2 > maxBytes) {
      throw new Rejected(
          ReplyRejection.TOO_LARGE,
          "image.dataUrl carries about "
              + (long) encodedChars / 4 * 3
              + " bytes, over "
              + maxBytes);
    }
    byte[] decoded;
    try {
      decoded = Base64.getDecoder().decode(url.substring(prefix.length()));
    } catch (IllegalArgumentException e) {
      throw new Rejected(ReplyRejection.BAD_DATA_URL, "image.dataUrl is not base64");
    }
    if (decoded.length == 0) {
      throw new Rejected(ReplyRejection.BAD_DATA_URL, "image.dataUrl is empty");
    }
    if (decoded.length > maxBytes) {
      throw new Rejected(
          ReplyRejection.TOO_LARGE,
          "image.dataUrl carries " + decoded.length + " bytes, over " + maxBytes);
    }
    return decoded.length;
  }

  private static boolean isWholeNumber(Number number) {
    double value = number.doubleValue();
    return Double.isFinite(value) && value == Math.rint(value);
  }

  /** A value from a client as a message may quote it: short, on one line. */
  static String shown(Object value) {
    return clipped(value instanceof String string ? "'" + string + "'" : String.valueOf(value));
  }

  /** Text from a client as a log may show it: short, on one line. */
  static String clipped(String text) {
    String clipped = text.length() > SHOWN_CHARS ? text.substring(0, SHOWN_CHARS) + "…" : text;
    return clipped.replaceAll("\\p{Cntrl}", "?");
  }
}
