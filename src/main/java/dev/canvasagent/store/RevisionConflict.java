package dev.canvasagent.store;

/** A board commit whose base revision is no longer the room's current one. */
public final class RevisionConflict extends RuntimeException {
  private final long currentRevision;

  public RevisionConflict(String roomId, long baseRevision, long currentRevision) {
    super(
        "room " + roomId + " is at revision " + currentRevision + ", not " + baseRevision,
        null,
        false,
        false);
    this.currentRevision = currentRevision;
  }

  public long currentRevision() {
    return currentRevision;
  }
}
