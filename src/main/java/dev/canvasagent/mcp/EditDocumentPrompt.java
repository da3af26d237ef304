package dev.canvasagent.mcp;

import dev.canvasagent.bus.Failure;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.regex.Pattern;

/**
 * {@code edit_document}: walks the model through one edit of a Markdown document as the lease rules
 * want it: check out, read, one patch on the revision read, check in, and what to do when a person
 * takes the document back meanwhile.
 */
final class EditDocumentPrompt implements McpPrompt {
  static final String NAME = "edit_document";
  static final int MAX_INSTRUCTION_CHARS = 4_000;
  static final Pattern DOC_ID =
      Pattern.compile("[A-Za-z0-9_-]{1," + ToolArguments.MAX_DOC_ID_CHARS + "}");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public JsonObject descriptor() {
    return new JsonObject()
        .put("name", NAME)
        .put("title", "Edit a document")
        .put(
            "description",
            "Edit a Markdown document under its lease: check out, read, apply one patch, check in.")
        .put(
            "arguments",
            new JsonArray()
                .add(PromptArguments.describe("docId", "The document to edit (doc-<uuid>).", true))
                .add(PromptArguments.describe("instruction", "What to change.", true)));
  }

  @Override
  public Future<JsonObject> get(JsonObject arguments) {
    try {
      return Future.succeededFuture(message(arguments));
    } catch (Failure refused) {
      return Future.failedFuture(refused);
    }
  }

  private static JsonObject message(JsonObject arguments) {
    String docId =
        PromptArguments.required(arguments, "docId", ToolArguments.MAX_DOC_ID_CHARS, DOC_ID);
    String instruction =
        PromptArguments.required(arguments, "instruction", MAX_INSTRUCTION_CHARS, null);
    String text =
        "Edit the Markdown document "
            + docId
            + " (pass docId \""
            + docId
            + "\" to every canvas_* tool) as follows:\n\n"
            + instruction
            + "\n\n"
            + "1. canvas_check_out: take the document's lease. Keep its lease_id and canvas_epoch for every "
            + "later call. If the lease is held (LOCK_NOT_AVAILABLE), say so and stop.\n"
            + "2. canvas_read_all (or canvas_read_lines / canvas_grep for a long document) with the lease: note "
            + "the revision_id you read.\n"
            + "3. canvas_apply_patch with one unified diff that makes the change, the lease_id, canvas_epoch, "
            + "base_revision_id (the revision you read) and a short reason. If it is refused, read again and "
            + "make a new patch; do not guess line numbers.\n"
            + "4. canvas_check_in with the lease_id, whatever happened.\n"
            + "If a call answers STALE_EPOCH or LEASE_EXPIRED, a person took the document back: stop editing and "
            + "say what you had done. End with one or two sentences on what changed.";
    return PromptArguments.userMessage("Edit a Markdown document", text);
  }
}
