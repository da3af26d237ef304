package dev.canvasagent.model;

/**
 * The keys of {@link ModelRequest#context()}: the run's context as structured JSON, in the model's
 * coordinates (offset to the session origin and rounded), the same facts {@code contextText} renders.
 * A key is absent when its part is empty or was cut by its budget.
 */
public final class ModelContext {
  private ModelContext() {}

  /** String: what the person asked. */
  public static final String MESSAGE = "message";

  /** Object {@code {x,y,w,h}}: the requester's viewport. */
  public static final String VIEWPORT = "viewport";

  /** Array of shape ids (as the model names them): the requester's selection. */
  public static final String SELECTION = "selection";

  /**
   * Array of {@code {id,type,x,y,w,h,text}}: shapes fully inside the viewport ("blurry"), in paint
   * order (back to front, so the last is the topmost), at most 300.
   */
  public static final String SHAPES = "shapes";

  /** Array of {@code {bounds:{x,y,w,h}, count}}: off-screen shapes grouped into clusters. */
  public static final String PERIPHERAL = "peripheral";

  /** Array of the selected shapes in full (their simplified records). */
  public static final String SELECTED_SHAPES = "selectedShapes";

  /** Array of {@code {id,text,status}}: the session's todos. */
  public static final String TODOS = "todos";

  /** Array of {@code {role,text}}: the session's chat history, oldest first. */
  public static final String CHAT = "chat";

  /** Array of {@code {speaker,text,ts}}: utterances of the transcript window, oldest first. */
  public static final String TRANSCRIPT = "transcript";

  /**
   * Object {@code {number, reason}}: present when the run is a follow-up the agent asked for
   * ({@code add_detail}, {@code review}) rather than a person's request.
   */
  public static final String FOLLOW_UP = "followUp";

  /**
   * Array of what a person pinned for the agent in the session, in the session's order:
   * {@code {type: "shape", shape: {id,type,x,y,w,h,text,…}}} (a pinned shape no longer on the board is
   * left out), {@code {type: "area", bounds: {x,y,w,h}}}, {@code {type: "point", x, y}}.
   */
  public static final String CONTEXT_ITEMS = "contextItems";

  /** String: the board revision the context was read at. */
  public static final String DOC_VERSION = "docVersion";
}
