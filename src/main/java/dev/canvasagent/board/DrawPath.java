package dev.canvasagent.board;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;

/**
 * tldraw 5's encoding of a draw segment's points ({@code b64Vecs.encodePoints}): the first point as
 * three little-endian Float32 (x, y, pressure), every later point as three Float16 deltas from the
 * point before, all base64. Float16 rounding follows tldraw's own {@code numberToFloat16Bits}, so the
 * same points give the same string in Java and in the browser.
 */
public final class DrawPath {
  public static final double DEFAULT_PRESSURE = 0.5;

  /** A point of a stroke: page-relative x and y, pressure z in 0..1. */
  public record Point(double x, double y, double z) {}

  private DrawPath() {}

  public static String encode(List<Point> points) {
    if (points.isEmpty()) {
      return "";
    }
    ByteBuffer bytes =
        ByteBuffer.allocate(12 + (points.size() - 1) * 6).order(ByteOrder.LITTLE_ENDIAN);
    Point first = points.get(0);
    bytes.putFloat((float) first.x()).putFloat((float) first.y()).putFloat((float) first.z());
    for (int i = 1; i < points.size(); i++) {
      Point previous = points.get(i - 1);
      Point point = points.get(i);
      bytes.putShort(float16Bits(point.x() - previous.x()));
      bytes.putShort(float16Bits(point.y() - previous.y()));
      bytes.putShort(float16Bits(point.z() - previous.z()));
    }
    return Base64.getEncoder().encodeToString(bytes.array());
  }

  /** The points back (as tldraw's {@code decodePoints} reads them), for bounds and tests. */
  public static List<Point> decode(String path) {
    if (path.isEmpty()) {
      return List.of();
    }
    ByteBuffer bytes =
        ByteBuffer.wrap(Base64.getDecoder().decode(path)).order(ByteOrder.LITTLE_ENDIAN);
    double x = bytes.getFloat();
    double y = bytes.getFloat();
    double z = bytes.getFloat();
    List<Point> points = new java.util.ArrayList<>();
    points.add(new Point(x, y, z));
    while (bytes.remaining() >= 6) {
      x += float16Value(bytes.getShort());
      y += float16Value(bytes.getShort());
      z += float16Value(bytes.getShort());
      points.add(new Point(x, y, z));
    }
    return points;
  }

  /**
   * tldraw's fallback {@code numberToFloat16Bits} (browsers and Node without a native Float16):
   * round-half-up on the mantissa, saturating to infinity, and a fraction that rounds up to 1024 in
   * the subnormal range masked to 0, as tldraw masks it.
   */
  static short float16Bits(double value) {
    if (value == 0) {
      return (short) (Double.doubleToRawLongBits(value) < 0 ? 0x8000 : 0);
    }
    if (Double.isNaN(value)) {
      return (short) 0x7e00;
    }
    if (Double.isInfinite(value)) {
      return (short) (value > 0 ? 0x7c00 : 0xfc00);
    }
    int sign = value < 0 ? 1 << 15 : 0;
    double magnitude = Math.abs(value);
    int exponent = Math.getExponent(magnitude);
    int biased = exponent + 15;
    if (biased >= 31) {
      return (short) (sign | 0x7c00);
    }
    if (biased <= 0) {
      if (log2RoundsToMinus14(magnitude)) {
        // tldraw takes Math.floor(Math.log2(value)) as the exponent, and log2 of a value this close
        // below 2^-14 is -14 itself: tldraw encodes 2^-14, the smallest normal Float16.
        return (short) (sign | 0x0400);
      }
      int fraction = (int) Math.round(magnitude * 0x1p24);
      return (short) (sign | fraction & 1023);
    }
    double mantissa = magnitude / Math.pow(2, exponent) - 1;
    int fraction = (int) Math.round(mantissa * 1024);
    if (fraction >= 1024) {
      fraction = 0;
      biased++;
      if (biased >= 31) {
        return (short) (sign | 0x7c00);
      }
    }
    return (short) (sign | biased << 10 | fraction);
  }

  /**
   * Whether the double nearest to log2(magnitude) is exactly -14 for a magnitude below 2^-14, as V8's
   * Math.log2 returns it. Below 2^-14 by a relative d, log2 is about -14 - d/ln 2, which rounds to
   * -14 while that is under half the spacing of doubles there (2^-50).
   */
  private static boolean log2RoundsToMinus14(double magnitude) {
    double below = 1 - magnitude * 0x1p14;
    return below > 0 && below / Math.log(2) < 0x1p-50;
  }

  static double float16Value(short raw) {
    int bits = raw & 0xffff;
    int sign = bits >> 15;
    int exponent = bits >> 10 & 31;
    int fraction = bits & 1023;
    double magnitude;
    if (exponent == 0) {
      magnitude = fraction * Math.pow(2, -14) / 1024;
    } else if (exponent == 31) {
      magnitude = fraction != 0 ? Double.NaN : Double.POSITIVE_INFINITY;
    } else {
      magnitude = Math.pow(2, exponent - 15) * (1 + fraction / 1024.0);
    }
    return sign == 1 ? -magnitude : magnitude;
  }
}
