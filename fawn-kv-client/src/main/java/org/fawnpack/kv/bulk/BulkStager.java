package org.fawnpack.kv.bulk;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.fawnpack.kv.bulk.BulkAttach.ArcFile;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.BulkMessages;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.Verb;

/**
 * A bulk load's first step: each arc's file to every serving member of the arc's chain, in
 * BULK_STAGE pieces sent to all of them at once (one read of the file), checked against its
 * length and CRC32C at both ends. A member that joined a chain meanwhile gets it too; an arc
 * the ring no longer has, or one with no live member, fails the load by name.
 */
final class BulkStager {
  /** Bytes per BULK_STAGE piece. */
  static final int PIECE_BYTES = 4 << 20;
  /** Arcs sent at once: each member writes several files while the next pieces travel. */
  static final int STAGE_THREADS = 4;

  /** Waits for one member's answer to {@code verb} (its wait, within the driver's deadline). */
  @FunctionalInterface
  interface Answers {
    Frame await(CompletableFuture<Frame> answer, Verb verb, Member from, String what)
        throws IOException;
  }

  private final BulkAttach.RingSource rings;
  private final ConnectionPool pool;
  private final Answers answers;

  BulkStager(BulkAttach.RingSource rings, ConnectionPool pool, Answers answers) {
    this.rings = rings;
    this.pool = pool;
    this.answers = answers;
  }

  long stageAll(String job, Map<Long, ArcFile> byEnd) throws IOException {
    long total = 0;
    Map<Long, Set<Member>> stagedAt = new LinkedHashMap<>();
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors
        .newFixedThreadPool(STAGE_THREADS, r -> {
          Thread t = new Thread(r, "fawn-kv-bulk-stage");
          t.setDaemon(true);
          return t;
        });
    try {
      // Twice at most: a member that joined a chain while the first pass ran gets it too (one
      // that joins later gets the records from its predecessor's log).
      for (int pass = 1; pass <= 2; pass++) {
        Ring ring = rings.current();
        List<java.util.concurrent.Future<Long>> sends = new ArrayList<>();
        for (ArcFile file : byEnd.values()) {
          Chain chain = ring.chainFor(file.range().endInclusive());
          if (!chain.range().equals(file.range())) {
            throw new IOException("bulk load " + job + ": ring epoch " + ring.epoch()
                + " no longer has arc " + file.range() + " (" + chain.range() + "): abandoned");
          }
          if (chain.isEmpty()) {
            throw new IOException("bulk load " + job + ": arc " + file.range() + " has no live"
                + " member in ring epoch " + ring.epoch() + ": abandoned");
          }
          Set<Member> done = stagedAt.computeIfAbsent(file.range().endInclusive(),
              e -> new HashSet<>());
          List<Member> missing = new ArrayList<>(chain.members());
          missing.removeAll(done);
          if (!missing.isEmpty()) {
            sends.add(pool.submit(() -> stage(job, file, missing)));
            done.addAll(missing);
          }
        }
        if (sends.isEmpty()) {
          break;
        }
        for (java.util.concurrent.Future<Long> send : sends) {
          total += await(send, job);
        }
      }
      return total;
    } finally {
      pool.shutdownNow();
    }
  }

  /** The result of a task of the load's pools, with its IOException as thrown. */
  static <T> T await(java.util.concurrent.Future<T> task, String job) throws IOException {
    try {
      return task.get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("bulk load " + job + ": interrupted");
    }
  }

  /** Sends one file to {@code members} at once, piece by piece. */
  private long stage(String job, ArcFile file, List<Member> members) throws IOException {
    long end = file.range().endInclusive();
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    long offset = 0;
    try (InputStream in = file.source().open()) {
      byte[] buffer = new byte[PIECE_BYTES];
      while (true) {
        int n = in.readNBytes(buffer, 0, buffer.length);
        boolean lastPiece = offset + n >= file.bytes();
        if (n == 0 && !lastPiece) {
          throw new IOException("bulk load " + job + ": the file for " + file.range()
              + " ended at " + offset + " bytes, not " + file.bytes());
        }
        crc.update(buffer, 0, n);
        byte[] piece = java.util.Arrays.copyOf(buffer, n);
        byte[] bytes = new BulkMessages.Stage(job, end, offset, piece,
            lastPiece ? offset + n : -1, file.crc32c()).encode();
        List<CompletableFuture<Frame>> answers = new ArrayList<>();
        for (Member m : members) {
          answers.add(pool.to(m).send(MessageType.BULK_STAGE, 0, bytes));
        }
        for (int i = 0; i < members.size(); i++) {
          Frame answer = this.answers.await(answers.get(i), Verb.BULK_STAGE, members.get(i),
              "staging " + file.range());
          if (answer.type() != MessageType.OK) {
            throw new IOException("bulk load " + job + ": " + members.get(i) + " did not stage"
                + " the file for " + file.range() + ": " + MessageType.name(answer.type()) + " "
                + MessageType.messageOf(answer));
          }
        }
        offset += n;
        if (lastPiece) {
          break;
        }
      }
    }
    if (offset != file.bytes() || (int) crc.getValue() != file.crc32c()) {
      throw new IOException("bulk load " + job + ": the file for " + file.range() + " read as "
          + offset + " bytes with CRC32C " + Integer.toHexString((int) crc.getValue())
          + ", not " + file.bytes() + " bytes with " + Integer.toHexString(file.crc32c()));
    }
    return offset * members.size();
  }

}
