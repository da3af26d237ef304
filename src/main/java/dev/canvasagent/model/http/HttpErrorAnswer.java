package dev.canvasagent.model.http;

import dev.canvasagent.model.ModelEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A provider's non-2xx answer as one {@link ModelEvent.Error}: its status, and the error type and
 * message of its body when the body is the usual JSON ({@code {"error":{…}}}, Anthropic's {@code
 * {"type":"error","error":{…}}}, Gemini's {@code {"error":{code,message,status}}}, or a list of
 * those). Retryable for 408, 409, 429 and 5xx. Its message is the provider's text, which may quote the
 * key: it is for the operator's log, redacted; the caller is told the error by {@link CallerError}.
 */
final class HttpErrorAnswer {
  static final int MAX_MESSAGE_CHARS = 500;

  private HttpErrorAnswer() {}

  static boolean isRetryable(int status) {
    return status == 408 || status == 409 || status == 429 || status >= 500;
  }

  static ModelEvent.Error toError(int status, String body) {
    JsonObject error = errorObject(body);
    String type = null;
    String detail = null;
    if (error != null) {
      type = firstText(error, "type", "status", "code");
      detail = error.getValue("message") instanceof String message ? message : null;
    }
    if (type == null) {
      type = "http_" + status;
    }
    if (detail == null) {
      detail = body.isBlank() ? "(no body)" : body.strip();
    }
    if (detail.length() > MAX_MESSAGE_CHARS) {
      detail = detail.substring(0, MAX_MESSAGE_CHARS) + "…";
    }
    return new ModelEvent.Error(type, detail, isRetryable(status), status, null);
  }

  private static JsonObject errorObject(String body) {
    Object parsed;
    try {
      String text = body.strip();
      parsed =
          text.startsWith("[")
              ? new JsonArray(text)
              : text.startsWith("{") ? new JsonObject(text) : null;
    } catch (RuntimeException notJson) {
      return null;
    }
    if (parsed instanceof JsonArray list && !list.isEmpty()) {
      parsed = list.getValue(0);
    }
    if (!(parsed instanceof JsonObject object)) {
      return null;
    }
    if (object.getValue("error") instanceof JsonObject nested) {
      return nested;
    }
    if (object.getValue("error") instanceof String message) {
      return new JsonObject().put("message", message);
    }
    return object.containsKey("message") ? object : null;
  }

  private static String firstText(JsonObject error, String... fields) {
    for (String field : fields) {
      Object value = error.getValue(field);
      if (value instanceof String text && !text.isBlank()) {
        return text;
      }
      if (value instanceof Number number) {
        return String.valueOf(number);
      }
    }
    return null;
  }
}
