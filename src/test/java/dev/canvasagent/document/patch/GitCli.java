package dev.canvasagent.document.patch;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * Real git, the reference the strict patcher is held to. Run with no system or global config (so no
 * autocrlf, no whitespace options), English messages, and no repository above the working
 * directory. Without git the conformance tests are skipped, except under CI, where they fail.
 */
final class GitCli {
  record Run(int exitCode, byte[] stdout, String stderr) {
    String out() {
      return new String(stdout, StandardCharsets.UTF_8);
    }
  }

  private final Path home;

  GitCli(Path home) {
    this.home = home;
  }

  static void requireGit() {
    boolean present;
    try {
      var process = new ProcessBuilder("git", "--version").redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      present = process.waitFor() == 0;
    } catch (IOException e) {
      present = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      present = false;
    }
    if (!present) {
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail("git is not on the PATH; the patch conformance tests need it and never skip under CI");
      }
      Assumptions.abort("git is not on the PATH: skipping the git apply conformance tests");
    }
  }

  Run run(Path directory, String... arguments) throws IOException, InterruptedException {
    var command = new ArrayList<String>();
    command.add("git");
    command.addAll(List.of(arguments));
    var builder = new ProcessBuilder(command).directory(directory.toFile());
    var env = builder.environment();
    env.put("GIT_CONFIG_NOSYSTEM", "1");
    env.put("GIT_CONFIG_GLOBAL", "/dev/null");
    env.put("HOME", home.toString());
    env.put("LC_ALL", "C");
    env.put("GIT_CEILING_DIRECTORIES", directory.getParent().toString());
    env.remove("GIT_DIR");
    env.remove("GIT_WORK_TREE");
    var errors = home.resolve("stderr-" + System.nanoTime() + ".txt");
    builder.redirectError(errors.toFile());
    var process = builder.start();
    process.getOutputStream().close();
    byte[] stdout = process.getInputStream().readAllBytes();
    int exit = process.waitFor();
    var stderr = java.nio.file.Files.readString(errors, StandardCharsets.UTF_8);
    java.nio.file.Files.delete(errors);
    return new Run(exit, stdout, stderr);
  }
}
