package dev.canvasagent.board;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.canvasagent.board.DrawPath.Point;
import dev.canvasagent.support.TldrawOracle;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Draw paths byte for byte as tldraw makes them: for every stroke, {@link DrawPath#encode} gives the
 * string tldraw's {@code b64Vecs.encodePoints} gives (on Node 20, which has no native Float16 and
 * uses tldraw's own rounding), and {@link DrawPath#decode} reads back the points tldraw reads.
 */
class DrawPathTest {
  private static final double SMALLEST_NORMAL_FLOAT16 = Math.pow(2, -14);

  static Stream<Arguments> strokes() {
    return Stream.of(
        Arguments.of("one point", List.of(new Point(12.5, -40.25, 0.5))),
        Arguments.of(
            "a short stroke",
            deltas(
                new Point(100, 200, 0.5), new double[][] {{1, 2, 0}, {3.5, -1.25, 0}, {0, 0, 0}})),
        Arguments.of(
            "negative deltas",
            deltas(
                new Point(-5, -7, 0.5),
                new double[][] {{-1, -2, -0.1}, {-17.3, -0.004, -0.2}, {-1234.5, -0.5, 0.25}})),
        Arguments.of(
            "pressures",
            deltas(
                new Point(0, 0, 0.1),
                new double[][] {{1, 1, 0.3}, {1, 1, 0.35}, {1, 1, -0.7}, {1, 1, 0.9}})),
        Arguments.of(
            "tiny deltas",
            deltas(
                new Point(0, 0, 0.5),
                new double[][] {
                  {0.001, -0.001, 0.0001}, {1e-4, 3e-4, -2e-4}, {0.0625, 1.0 / 3, 0}
                })),
        Arguments.of(
            "large deltas",
            deltas(
                new Point(0, 0, 0.5),
                new double[][] {
                  {60000, -60000, 0}, {-59999.7, 33333.3, 0}, {2049, -2049, 0}, {4097, 65504, 0}
                })),
        Arguments.of(
            "subnormal-range deltas",
            fromOrigin(
                new double[] {
                  3e-5,
                  -3e-5,
                  5.960464477539063e-8,
                  2.9e-8,
                  3.1e-8,
                  1e-9,
                  6.09e-5,
                  6.1e-5,
                  SMALLEST_NORMAL_FLOAT16,
                  -SMALLEST_NORMAL_FLOAT16,
                  Math.nextDown(SMALLEST_NORMAL_FLOAT16),
                  -Math.nextDown(SMALLEST_NORMAL_FLOAT16),
                  SMALLEST_NORMAL_FLOAT16 * (1 - 1.0 / 4096),
                  SMALLEST_NORMAL_FLOAT16 * (1 - 1e-15)
                })),
        Arguments.of(
            "just below the smallest normal Float16",
            fromOrigin(justBelow(SMALLEST_NORMAL_FLOAT16, 12))),
        Arguments.of(
            "near powers of two",
            fromOrigin(
                new double[] {
                  Math.nextDown(1.0),
                  Math.nextUp(1.0),
                  1 - 1e-12,
                  1 + 0.5 / 1024,
                  1 + 1.5 / 1024,
                  Math.nextDown(2048.0),
                  Math.nextDown(65520.0),
                  65519.99,
                  65520,
                  70000,
                  -70000
                })),
        Arguments.of("a long stroke", randomStroke(1000, new Random(42))),
        Arguments.of(
            "a stroke far from the origin",
            randomStroke(50, new Random(7)).stream()
                .map(point -> new Point(point.x() + 123456.789, point.y() - 98765.4321, point.z()))
                .toList()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("strokes")
  void encodesAsTldrawDoes(String name, List<Point> points) {
    assertEquals(TldrawOracle.encodePoints(points), DrawPath.encode(points));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("strokes")
  void decodesAsTldrawDoes(String name, List<Point> points) {
    String path = TldrawOracle.encodePoints(points);
    assertEquals(TldrawOracle.decodePoints(path), DrawPath.decode(path));
  }

  @Test
  void everyFloat16DeltaRoundTripsAsInTldraw() {
    // Each delta below is exactly one Float16, so the stroke visits every finite Float16 value
    // once.
    List<Point> points = new ArrayList<>();
    points.add(new Point(0, 0, 0.5));
    for (int bits = 0; bits < 0x10000; bits++) {
      double value = DrawPath.float16Value((short) bits);
      if (Double.isFinite(value)) {
        points.add(new Point(value, -value, 0.5));
        points.add(new Point(0, 0, 0.5));
      }
    }
    String path = DrawPath.encode(points);
    assertEquals(TldrawOracle.encodePoints(points), path);
    assertEquals(TldrawOracle.decodePoints(path), DrawPath.decode(path));
  }

  @Test
  void noPointsIsTheEmptyPath() {
    assertEquals("", DrawPath.encode(List.of()));
    assertEquals(List.of(), DrawPath.decode(""));
  }

  private static List<Point> deltas(Point first, double[][] steps) {
    List<Point> points = new ArrayList<>(List.of(first));
    Point previous = first;
    for (double[] step : steps) {
      previous = new Point(previous.x() + step[0], previous.y() + step[1], previous.z() + step[2]);
      points.add(previous);
    }
    return points;
  }

  /** The {@code count} doubles right below {@code value}, nearest first. */
  private static double[] justBelow(double value, int count) {
    double[] values = new double[count];
    for (int i = 0; i < count; i++) {
      value = Math.nextDown(value);
      values[i] = value;
    }
    return values;
  }

  /** Each value as one exact delta: out from the origin and back. */
  private static List<Point> fromOrigin(double[] values) {
    List<Point> points = new ArrayList<>(List.of(new Point(0, 0, 0.5)));
    for (double value : values) {
      points.add(new Point(value, -value, 0.5));
      points.add(new Point(0, 0, 0.5));
    }
    return points;
  }

  private static List<Point> randomStroke(int size, Random random) {
    List<Point> points = new ArrayList<>();
    double x = random.nextDouble() * 1000;
    double y = random.nextDouble() * 1000;
    for (int i = 0; i < size; i++) {
      x += random.nextGaussian() * 8;
      y += random.nextGaussian() * 8;
      points.add(new Point(x, y, Math.min(1, Math.max(0, 0.5 + random.nextGaussian() * 0.2))));
    }
    return points;
  }
}
