package dev.canvasagent.board;

/**
 * Why a record was refused: its id, the path of the first field at fault ({@code props.color};
 * empty for the record as a whole) and what is wrong there.
 */
public record RecordProblem(String recordId, String path, String message) {
  @Override
  public String toString() {
    return path.isEmpty() ? recordId + ": " + message : recordId + " " + path + ": " + message;
  }
}
