package dev.canvasagent.document.patch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A temporary folder where real git diffs generated documents and applies patches to them: the
 * reference the patch tests hold the engine to. Documents live in folders as {@code c<i>.md}; git
 * runs once per diff and once for a whole batch of cases.
 */
final class GitWorkspace {
  /** A document named {@code name} (a file name), the text it holds, and the patch to apply. */
  record Case(String name, String target, String patch) {}

  private final Path root;
  private final GitCli git;

  GitWorkspace(Path root) throws IOException {
    GitCli.requireGit();
    this.root = root;
    this.git = new GitCli(Files.createDirectories(root.resolve("home")));
  }

  Path root() {
    return root;
  }

  GitCli git() {
    return git;
  }

  /** Writes {@code texts} as {@code folder/c<i>.md}. */
  void writeDocuments(String folder, List<String> texts) throws IOException {
    var directory = Files.createDirectories(root.resolve(folder));
    for (int i = 0; i < texts.size(); i++) {
      write(directory.resolve("c" + i + ".md"), texts.get(i));
    }
  }

  /**
   * One {@code git diff --no-index} of two folders, cut into one patch per document that differs,
   * by the document's index.
   */
  Map<Integer, String> diffs(String from, String to, int context) throws Exception {
    var run =
        git.run(
            root,
            "diff",
            "--no-index",
            "--no-color",
            "--no-ext-diff",
            "--no-renames",
            "-U" + context,
            from,
            to);
    assertTrue(run.exitCode() <= 1, run.stderr());
    var out = run.out();
    var fileHeader =
        Pattern.compile(
            "^diff --git a/" + from + "/c(\\d+)\\.md b/" + to + "/c\\d+\\.md$", Pattern.MULTILINE);
    var patches = new LinkedHashMap<Integer, String>();
    var matcher = fileHeader.matcher(out);
    int start = -1;
    int index = -1;
    while (matcher.find()) {
      if (start >= 0) {
        patches.put(index, out.substring(start, matcher.start()));
      }
      start = matcher.start();
      index = Integer.parseInt(matcher.group(1));
    }
    if (start >= 0) {
      patches.put(index, out.substring(start));
    }
    return patches;
  }

  /** The patch of document {@code index} addressed to the file {@code name} instead. */
  static String renamed(String patch, String from, String to, int index, String name) {
    int body = patch.indexOf("\n@@");
    var header =
        patch
            .substring(0, body)
            .replace("a/" + from + "/c" + index + ".md", "a/" + name)
            .replace("b/" + to + "/c" + index + ".md", "b/" + name);
    return header + patch.substring(body);
  }

  /** Each case's outcome with git: the new text, or null when git rejected the patch. */
  Map<String, String> applyEach(List<Case> cases) throws Exception {
    var directory = Files.createDirectories(root.resolve("apply-" + System.nanoTime()));
    var all = new StringBuilder();
    for (var c : cases) {
      write(directory.resolve(c.name()), c.target());
      if (!all.isEmpty() && all.charAt(all.length() - 1) != '\n') {
        // A patch that ends in text without a newline must not run into the next one's headers.
        all.append('\n');
      }
      all.append(c.patch());
    }
    var patchFile = directory.resolveSibling(directory.getFileName() + ".patch");
    write(patchFile, all.toString());
    // --reject goes on past a failing file (writing its .rej) instead of stopping at the first. A
    // hunk fails under --reject exactly when the patch fails without it: everything before the
    // first failure applies alike.
    var run = git.run(directory, "apply", "--reject", "../" + patchFile.getFileName());
    assertTrue(run.exitCode() <= 1, run.stderr());
    var outcomes = new LinkedHashMap<String, String>();
    for (var c : cases) {
      var rejects = directory.resolve(c.name() + ".rej");
      outcomes.put(c.name(), Files.exists(rejects) ? null : read(directory.resolve(c.name())));
    }
    return outcomes;
  }

  /** Fails naming the first disagreements with git, if there are any. */
  static void assertAgree(List<String> disagreements, int cases) {
    assertTrue(
        disagreements.isEmpty(),
        disagreements.size()
            + " of "
            + cases
            + " cases differ from git apply; the first:\n"
            + String.join("\n\n", disagreements.subList(0, Math.min(3, disagreements.size()))));
  }

  /** A case as a disagreement shows it: the document, the patch, and both outcomes. */
  static String describe(Case c, String theirs, ApplyResult ours) {
    return "case "
        + c.name()
        + "\n--- document:\n"
        + c.target()
        + "\n--- patch:\n"
        + c.patch()
        + "\n--- git apply: "
        + (theirs == null ? "rejected" : "\n" + theirs)
        + "\n--- ours: "
        + (ours instanceof ApplyResult.Applied a ? "\n" + a.text() : ours);
  }

  static void write(Path file, String text) throws IOException {
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
  }

  static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }
}
