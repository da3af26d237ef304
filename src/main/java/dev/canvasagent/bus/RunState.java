package dev.canvasagent.bus;

/** The states a run moves through, as published on {@code agent:status}. */
public enum RunState {
  WAITING_CONTEXT("waiting_context"),
  CALLING_MODEL("calling_model"),
  STREAMING("streaming"),
  SCHEDULED("scheduled"),
  DONE("done"),
  CANCELED("canceled"),
  ERROR("error");

  private final String wireName;

  RunState(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /** The state named {@code wireName} on the bus. */
  public static RunState fromWire(String wireName) {
    for (RunState state : values()) {
      if (state.wireName.equals(wireName)) {
        return state;
      }
    }
    throw new IllegalArgumentException("not a run state: " + wireName);
  }

  public boolean isFinal() {
    return this == DONE || this == CANCELED || this == ERROR;
  }
}
