package org.fawnpack.energy.cpu;

/**
 * The few fields of one {@code /proc/<pid>/stat} line that CPU attribution needs.
 *
 * @param pid field 1
 * @param ppid field 4, the parent, for building the process tree
 * @param cpuTicks fields 14-17: utime + stime + cutime + cstime, in clock ticks. The c-fields hold
 *     the time of children that exited and were waited for, so a short-lived task is not lost
 * @param startTime field 22, ticks after boot; with the pid it names a process uniquely, so a
 *     recycled pid is not mistaken for the container's process
 */
record ProcessCpuStat(int pid, int ppid, long cpuTicks, long startTime) {

  private static final int PPID = 4;
  private static final int UTIME = 14;
  private static final int CSTIME = 17;
  private static final int STARTTIME = 22;

  /**
   * Parses the stat line in {@code bytes[0, length)}; null if it is malformed. Field 2 (comm) is
   * the executable name in parentheses and may itself contain spaces and ')', so fields are
   * counted from the LAST ')'. Hand-rolled (no regex or split): it runs for every process each
   * second.
   */
  static ProcessCpuStat parse(byte[] bytes, int length) {
    int close = length - 1;
    while (close >= 0 && bytes[close] != ')') {
      close--;
    }
    int open = 0;
    while (open < length && bytes[open] != '(') {
      open++;
    }
    if (close < 0 || open >= close) {
      return null;
    }
    long pid = SmallFileReader.parseDecimal(bytes, 0, open);
    long ppid = -1;
    long ticks = 0;
    long startTime = -1;
    int field = 2;
    int pos = close + 1;
    while (field < STARTTIME) {
      while (pos < length && SmallFileReader.isSpace(bytes[pos])) {
        pos++;
      }
      if (pos >= length) {
        return null;
      }
      int start = pos;
      while (pos < length && !SmallFileReader.isSpace(bytes[pos])) {
        pos++;
      }
      field++;
      if (field == PPID) {
        ppid = SmallFileReader.parseDecimal(bytes, start, pos);
      } else if (field >= UTIME && field <= CSTIME) {
        long value = SmallFileReader.parseDecimal(bytes, start, pos);
        if (value < 0) {
          return null;
        }
        ticks += value;
      } else if (field == STARTTIME) {
        startTime = SmallFileReader.parseDecimal(bytes, start, pos);
      }
    }
    if (pid <= 0 || pid > Integer.MAX_VALUE || ppid < 0 || ppid > Integer.MAX_VALUE
        || startTime < 0) {
      return null;
    }
    return new ProcessCpuStat((int) pid, (int) ppid, ticks, startTime);
  }
}
