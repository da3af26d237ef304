package dev.canvasagent.bus;

import dev.canvasagent.board.RecordDiff;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A page of a board's stored revisions, oldest first: the patch engine's answer to a {@link BoardRevisionsQuery}. */
public record BoardRevisionPage(List<Revision> revisions) implements BusMessage {
  public BoardRevisionPage {
    revisions = List.copyOf(revisions);
  }

  /** One stored revision: its number, the diff that made it, who made it, and when (epoch ms). */
  public record Revision(long revision, RecordDiff diff, String author, long createdAt) {
    public JsonObject toJson() {
      return new JsonObject()
          .put("revision", revision)
          .put("diff", diff.toJson())
          .put("author", author)
          .put("createdAt", createdAt);
    }

    public static Revision fromJson(JsonObject json) {
      return new Revision(
          MessageFields.number(json, "revision", "BoardRevisionPage.Revision"),
          RecordDiff.fromJson(MessageFields.object(json, "diff", "BoardRevisionPage.Revision")),
          json.getString("author"),
          MessageFields.number(json, "createdAt", "BoardRevisionPage.Revision"));
    }
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject()
        .put("revisions", new JsonArray(revisions.stream().map(Revision::toJson).toList()));
  }

  public static BoardRevisionPage fromJson(JsonObject json) {
    return new BoardRevisionPage(
        MessageFields.jsonArray(json, "revisions", "BoardRevisionPage").stream()
            .map(revision -> Revision.fromJson((JsonObject) revision))
            .toList());
  }
}
