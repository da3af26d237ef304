package dev.canvasagent.screenshot;

import java.util.Locale;

/**
 * Why a host's {@code agent:screenshot} was not taken. A rejected reply completes nothing: the capture
 * it names keeps waiting for a good one, or for its timeout.
 */
enum ReplyRejection {
  /** No capture is waiting for its {@code requestId} in this room. */
  UNMATCHED,
  /** Its {@code clientId} is not a host of the room. */
  NOT_HOST,
  /** Not a JSON object, or a field of the wrong type ({@code image}, {@code image.bytes}, {@code selection}, {@code docVersion}). */
  MALFORMED,
  /** {@code image.mime} is not image/png, image/jpeg or image/webp. */
  BAD_MIME,
  /** {@code image.dataUrl} is not {@code data:<mime>;base64,} followed by base64 that decodes to an image. */
  BAD_DATA_URL,
  /** The image, or the {@code image.bytes} it claims, is larger than {@code screenshot.maxBytes}. */
  TOO_LARGE,
  /** {@code bounds} or {@code viewport} is missing, or not four finite numbers with a width and height of at least 0. */
  BAD_GEOMETRY;

  /** The name in logs ({@code reason=not_host}) and in the health report. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
