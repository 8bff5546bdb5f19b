package org.fawnpack.jobs.tera;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.fawnpack.jobs.FrameworkTuning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sizes terasort's map-side sort buffer so that a map's whole output fits in one spill. A map
 * whose output overflows the buffer spills several times and then reads, merges and rewrites
 * everything once more; terasort knows its output exactly (every input record comes out as 100
 * bytes plus Hadoop's 16 bytes of metadata), so it can ask for the buffer that avoids that.
 * The buffer is only raised, never lowered, and never above {@link #HEAP_SHARE} of the map's
 * heap: it is one array that must fit in the old generation (two thirds of the heap with the
 * serial and parallel collectors' default ratio) beside everything else.
 */
final class SortBufferSizer {
  static final double HEAP_SHARE = 0.6;
  /** Spill threshold used when sizing: the buffer is sized for the output, so fill it. */
  static final float SPILL_PERCENT = 0.9f;
  /** Hadoop's per-record accounting in the map output buffer (4 ints). */
  static final int METADATA_BYTES = 16;

  private static final Logger LOG = LoggerFactory.getLogger(SortBufferSizer.class);
  private static final Pattern XMX = Pattern.compile("-Xmx(\\d+)([kKmMgG]?)");

  private SortBufferSizer() {}

  /** Raises mapreduce.task.io.sort.mb for maps of at most {@code recordsPerMap} records. */
  static void size(Configuration conf, long recordsPerMap) {
    if (!TeraSortConfig.sizeSortBuffer(conf)) {
      return;
    }
    int configuredMb = conf.getInt(MRJobConfig.IO_SORT_MB, MRJobConfig.DEFAULT_IO_SORT_MB);
    boolean spillSet = FrameworkTuning.isUserSet(conf, MRJobConfig.MAP_SORT_SPILL_PERCENT);
    float spill = spillSet ? conf.getFloat(MRJobConfig.MAP_SORT_SPILL_PERCENT, 0.8f)
        : SPILL_PERCENT;
    long neededBytes = recordsPerMap * (SortRecord.BYTES + METADATA_BYTES);
    int neededMb = (int) Math.ceil(neededBytes / spill / (1 << 20)) + 1;
    long heapMb = mapHeapMb(conf);
    int capMb = (int) Math.min(2047, (long) (heapMb * HEAP_SHARE));
    int chosen = Math.min(neededMb, capMb);
    if (chosen <= configuredMb) {
      LOG.info("Sort buffer: keeping {} MB ({} MB would hold a map's {} records, cap {} MB)",
          configuredMb, neededMb, recordsPerMap, capMb);
      return;
    }
    conf.setInt(MRJobConfig.IO_SORT_MB, chosen);
    if (!spillSet) {
      conf.setFloat(MRJobConfig.MAP_SORT_SPILL_PERCENT, SPILL_PERCENT);
    }
    LOG.info("Sort buffer: {} MB for {} records per map ({} MB needed, map heap {} MB)", chosen,
        recordsPerMap, neededMb, heapMb);
  }

  /** The map JVM's -Xmx, else the container size × the heap ratio Hadoop derives it with. */
  static long mapHeapMb(Configuration conf) {
    String opts = conf.get(MRJobConfig.MAP_JAVA_OPTS, "");
    Matcher m = XMX.matcher(opts);
    long mb = -1;
    while (m.find()) {
      long value = Long.parseLong(m.group(1));
      mb = switch (m.group(2)) {
        case "g", "G" -> value * 1024;
        case "m", "M" -> value;
        case "k", "K" -> value / 1024;
        default -> value / (1 << 20);
      };
    }
    if (mb > 0) {
      return mb;
    }
    int containerMb = conf.getInt(MRJobConfig.MAP_MEMORY_MB, MRJobConfig.DEFAULT_MAP_MEMORY_MB);
    float ratio = conf.getFloat(MRJobConfig.HEAP_MEMORY_MB_RATIO,
        MRJobConfig.DEFAULT_HEAP_MEMORY_MB_RATIO);
    return (long) (containerMb * ratio);
  }
}
