package dev.canvasagent.bench;

/** Maven runs a benchmark as a child process: if Maven is killed, the benchmark (and so its server) stops too. */
final class ParentWatch {
  private ParentWatch() {}

  static void start() {
    ProcessHandle.current()
        .parent()
        .ifPresent(
            parent -> {
              Thread watch =
                  new Thread(
                      () -> {
                        while (parent.isAlive()) {
                          try {
                            Thread.sleep(1_000);
                          } catch (InterruptedException e) {
                            return;
                          }
                        }
                        System.err.println("bench: the parent process is gone; stopping");
                        System.exit(1);
                      },
                      "bench-parent-watch");
              watch.setDaemon(true);
              watch.start();
            });
  }
}
