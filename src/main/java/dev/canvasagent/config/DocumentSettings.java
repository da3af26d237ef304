package dev.canvasagent.config;

import static dev.canvasagent.config.Check.whole;

import java.util.List;

/** {@code documents}: leases, the size of a document, and the document agent's loop. */
final class DocumentSettings {
  static final Setting LEASE_TTL_MS =
      Setting.of(
          "documents.leaseTtlMs",
          "CANVAS_AGENT_LEASE_TTL_MS",
          whole(100, 600_000),
          15_000,
          "How long a document lease lasts without agent activity; every tool call that carries the lease renews it (100–600000).");
  static final Setting MAX_CONTENT_BYTES =
      Setting.of(
          "documents.maxContentBytes",
          "CANVAS_AGENT_DOCUMENT_MAX_BYTES",
          whole(1_024, 16 * 1024 * 1024),
          1_048_576,
          "The largest document content in UTF-8 bytes; a create, edit or tool write past it is refused with 413 (1024–16777216).");
  static final Setting AGENT_MAX_STEPS =
      Setting.of(
          "documents.agentMaxSteps",
          "CANVAS_AGENT_DOC_AGENT_MAX_STEPS",
          whole(1, 100),
          12,
          "How many times the document agent may ask its model in one loop; the answer that reaches the cap has its tool calls left unrun (1–100).");
  static final Setting AGENT_TIMEOUT_MS =
      Setting.of(
          "documents.agentTimeoutMs",
          "CANVAS_AGENT_DOC_AGENT_TIMEOUT_MS",
          whole(1_000, 3_600_000),
          120_000,
          "How long one document-agent loop may run before it is interrupted; a delegated edit request waits this long plus 5 s (1000–3600000).");

  static final List<Setting> ALL =
      List.of(LEASE_TTL_MS, MAX_CONTENT_BYTES, AGENT_MAX_STEPS, AGENT_TIMEOUT_MS);

  private DocumentSettings() {}

  static AppConfig.Documents read(ConfigValues values) {
    return new AppConfig.Documents(
        values.whole(LEASE_TTL_MS),
        values.whole(MAX_CONTENT_BYTES),
        values.whole(AGENT_MAX_STEPS),
        values.whole(AGENT_TIMEOUT_MS));
  }
}
