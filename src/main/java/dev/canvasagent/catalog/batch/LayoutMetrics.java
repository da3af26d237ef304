package dev.canvasagent.catalog.batch;

/**
 * The measures a batch is laid out with (a note's size, the gaps between notes and between frames,
 * a frame's padding and header, a column's width) and the default sizes of what a batch creates (a
 * frame 300 × 300, a geo shape 200 × 200), in page units, in one place.
 */
public final class LayoutMetrics {
  /** A tldraw note at scale 1 is 200 × 200. */
  public static final double NOTE_W = 200;

  public static final double NOTE_H = 200;
  public static final double NOTE_GAP = 20;
  public static final double NOTE_PADDING = 30;

  /** Room under a frame's top edge, so children clear its name. */
  public static final double FRAME_HEADER = 40;

  public static final double FRAME_GAP = 80;

  /** A column of the columns and journey templates holds one note across. */
  public static final double COL_W = NOTE_W + 2 * NOTE_PADDING;

  public static final double FRAME_DEFAULT_SIZE = 300;
  public static final double SHAPE_DEFAULT_SIZE = 200;
  public static final double MIN_SIZE = 10;
  public static final double MAX_SIZE = 4000;

  /** A text line of tldraw's draw font at size m, roughly. */
  static final double TEXT_CHAR_W = 13;

  static final double TEXT_LINE_H = 34;
  static final double TEXT_MAX_W = 800;

  private LayoutMetrics() {}

  /** What a text shape will roughly measure (tldraw sizes it on the client; the layout needs an estimate). */
  public static Size textSize(String text) {
    String[] lines = text.split("\n", -1);
    int longest = 1;
    for (String line : lines) {
      longest = Math.max(longest, line.length());
    }
    return new Size(
        Math.min(TEXT_MAX_W, Math.max(40, longest * TEXT_CHAR_W + 16)), lines.length * TEXT_LINE_H);
  }

  /** A title is a text at size l, about 1.4 times size m. */
  public static Size titleSize(String text) {
    Size base = textSize(text);
    return new Size(base.w() * 1.4, base.h() * 1.4);
  }

  static double clampSize(double value) {
    return Math.max(MIN_SIZE, Math.min(MAX_SIZE, value));
  }
}
