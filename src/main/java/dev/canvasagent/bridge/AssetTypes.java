package dev.canvasagent.bridge;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What an uploaded file is, read from its first bytes, never from what the client says it is: a
 * browser names a file by its extension, and a name is no promise. Only formats a browser shows
 * inertly in {@code <img>} or {@code <video>} are taken: PNG, JPEG, GIF, WebP, MP4 and WebM. SVG is
 * not, since it can carry script.
 */
final class AssetTypes {
  static final String KNOWN = "PNG, JPEG, GIF, WebP, MP4 or WebM";

  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  private static final byte[] JPEG = {(byte) 0xff, (byte) 0xd8, (byte) 0xff};
  private static final byte[] EBML = {0x1a, 0x45, (byte) 0xdf, (byte) 0xa3};

  /** How far into an EBML header its doc type ("webm") is looked for. */
  private static final int EBML_HEADER_BYTES = 64;

  private AssetTypes() {}

  /** The content type of {@code bytes}, or empty when they are none of the {@link #KNOWN} formats. */
  static Optional<String> sniff(Buffer bytes) {
    if (startsWith(bytes, 0, PNG)) {
      return Optional.of("image/png");
    }
    if (startsWith(bytes, 0, JPEG)) {
      return Optional.of("image/jpeg");
    }
    if (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a")) {
      return Optional.of("image/gif");
    }
    if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) {
      return Optional.of("image/webp");
    }
    // ISO base media: a first box of type ftyp (its size before it).
    if (ascii(bytes, 4, "ftyp") && bytes.length() >= 12) {
      return Optional.of("video/mp4");
    }
    if (startsWith(bytes, 0, EBML)) {
      String header =
          bytes
              .getBuffer(0, Math.min(bytes.length(), EBML_HEADER_BYTES))
              .toString(StandardCharsets.ISO_8859_1);
      if (header.contains("webm")) {
        return Optional.of("video/webm");
      }
    }
    return Optional.empty();
  }

  private static boolean ascii(Buffer bytes, int at, String text) {
    return startsWith(bytes, at, text.getBytes(StandardCharsets.US_ASCII));
  }

  private static boolean startsWith(Buffer bytes, int at, byte[] prefix) {
    if (bytes.length() < at + prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes.getByte(at + i) != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
