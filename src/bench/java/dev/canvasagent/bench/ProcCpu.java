package dev.canvasagent.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time from Linux's {@code /proc}, in clock ticks (USER_HZ, 100 per second on Linux). */
final class ProcCpu {
  static final int TICKS_PER_SECOND = 100;

  private ProcCpu() {}

  /** utime + stime of a process (fields 14 and 15 of /proc/&lt;pid&gt;/stat); -1 if unknown. */
  static long processTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** {busy, total} ticks of the whole machine, all cores, from the first line of /proc/stat. */
  static long[] machineTicks() {
    try {
      String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long total = 0;
      // user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
      for (int i = 1; i < Math.min(fields.length, 9); i++) {
        total += Long.parseLong(fields[i]);
      }
      long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
      return new long[] {total - idle, total};
    } catch (IOException | RuntimeException e) {
      return new long[] {-1, -1};
    }
  }

  /** The machine's load averages, as /proc/loadavg gives them ("1.02 0.80 0.55"). */
  static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
