package org.fawnpack.jobs.pi;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Counts its split's points inside the circle into counters: the job needs no shuffle, no reduce
 * and no output files, and counters are summed exactly over successful attempts.
 *
 * <p>The split's range is cut into one contiguous part per vcore of the task's container
 * ({@code mapreduce.map.cpu.vcores}), counted on that many threads: a count is a sum, so the
 * result is the same however the range is cut, and a 2-vcore container keeps both cores busy.
 *
 * <p>A map in a container of its own also counts what its JVM cost before the map began (wall
 * time from the JVM's start, and the JVM's CPU time): Hadoop 3 starts one JVM per task, and for
 * pi that start is most of a task's cost.
 */
public final class PiMapper extends Mapper<LongWritable, LongWritable, NullWritable, NullWritable> {
  /** Points per step of a thread: a fraction of a second of work. */
  static final long CHUNK = 1L << 24;
  /** How often the task tells the AM it is alive while the threads count. */
  private static final long PROGRESS_MILLIS = 1000;
  /** Set by Hadoop's LocalContainerLauncher on the tasks of an uber job. */
  static final String UBERIZED = "mapreduce.task.uberized";

  private ExecutorService pool;
  private int threads;

  @Override
  protected void setup(Context context) {
    countTaskStart(context);
    threads = Math.max(1, context.getConfiguration().getInt(MRJobConfig.MAP_CPU_VCORES,
        MRJobConfig.DEFAULT_MAP_CPU_VCORES));
    if (threads > 1) {
      pool = Executors.newFixedThreadPool(threads, r -> {
        Thread t = new Thread(r, "pi-counter");
        t.setDaemon(true); // never keeps a task JVM alive
        return t;
      });
    }
  }

  @Override
  protected void map(LongWritable first, LongWritable count, Context context)
      throws IOException, InterruptedException {
    long started = System.nanoTime();
    long inside = pool == null ? countOnThisThread(first.get(), count.get(), context)
        : countOnThreads(first.get(), count.get(), context);
    context.getCounter(PiCounter.COUNT_MILLIS).increment((System.nanoTime() - started)
        / 1_000_000);
    context.getCounter(PiCounter.INSIDE).increment(inside);
    context.getCounter(PiCounter.SAMPLES).increment(count.get());
  }

  /**
   * In a task JVM of its own (a YARN container, not an uber job's AM, not the local runner):
   * how long since the JVM started, and the CPU it has used, before any point is counted.
   */
  private static void countTaskStart(Context context) {
    boolean ownContainer = System.getenv("CONTAINER_ID") != null
        && !context.getConfiguration().getBoolean(UBERIZED, false);
    if (!ownContainer) {
      return;
    }
    long sinceStart = System.currentTimeMillis()
        - ManagementFactory.getRuntimeMXBean().getStartTime();
    context.getCounter(PiCounter.TASK_JVMS).increment(1);
    context.getCounter(PiCounter.TASK_START_MILLIS).increment(sinceStart);
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean hotspot
        && hotspot.getProcessCpuTime() >= 0) {
      context.getCounter(PiCounter.TASK_START_CPU_MILLIS)
          .increment(hotspot.getProcessCpuTime() / 1_000_000);
    }
  }

  private static long countOnThisThread(long first, long count, Context context) {
    long done = 0;
    long inside = 0;
    while (done < count) {
      long chunk = Math.min(CHUNK, count - done);
      inside += HaltonCircle.countInside(first + done, chunk);
      done += chunk;
      context.progress(); // long maps must not look hung to the AM
    }
    return inside;
  }

  private long countOnThreads(long first, long count, Context context)
      throws IOException, InterruptedException {
    long[] cuts = new long[threads + 1];
    for (int i = 0; i <= threads; i++) {
      cuts[i] = first + count / threads * i + Math.min(i, count % threads);
    }
    List<Future<Long>> parts = new ArrayList<>(threads);
    for (int i = 0; i < threads; i++) {
      long from = cuts[i];
      long n = cuts[i + 1] - cuts[i];
      parts.add(pool.submit(() -> countInChunks(from, n)));
    }
    long inside = 0;
    for (Future<Long> part : parts) {
      inside += await(part, context);
    }
    return inside;
  }

  private static long countInChunks(long first, long count) {
    long done = 0;
    long inside = 0;
    while (done < count) {
      long chunk = Math.min(CHUNK, count - done);
      inside += HaltonCircle.countInside(first + done, chunk);
      done += chunk;
    }
    return inside;
  }

  private static long await(Future<Long> part, Context context)
      throws IOException, InterruptedException {
    while (true) {
      try {
        return part.get(PROGRESS_MILLIS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        context.progress(); // still counting: long maps must not look hung to the AM
      } catch (ExecutionException e) {
        throw new IOException("A pi counting thread failed", e.getCause());
      }
    }
  }

  @Override
  protected void cleanup(Context context) {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
