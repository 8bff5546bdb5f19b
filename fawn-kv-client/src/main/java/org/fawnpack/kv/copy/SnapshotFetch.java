package org.fawnpack.kv.copy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.fawnpack.kv.wire.ArcChunk;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;

/** The copier's transfer of one file of a source's snapshot: ARC_CHUNK pieces, a few at once. */
public final class SnapshotFetch {
  /** Pieces asked for before the first has come: keeps the link busy across round trips. */
  private static final int IN_FLIGHT = 4;

  private SnapshotFetch() {}

  /**
   * Takes the pieces of a file in order, each as {@code length} bytes of {@code bytes} from
   * {@code offset} (where it lies in its answer: not copied out).
   */
  public interface PieceSink {
    void write(byte[] bytes, int offset, int length) throws IOException;
  }

  /**
   * Fetches {@code bytes} of one snapshot file into {@code part}, a few pieces in flight, each
   * awaited at most {@code pieceWait} (ARC_CHUNK's: {@code Timeouts.of(Verb.ARC_CHUNK)}).
   */
  public static void fetch(Connection source, long epoch, long snapshot, int file, long bytes,
      Path part, Duration pieceWait) throws IOException {
    try (FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      long[] written = {0};
      fetch(source, epoch, snapshot, file, bytes, pieceWait, (piece, offset, length) -> {
        ByteBuffer buffer = ByteBuffer.wrap(piece, offset, length);
        while (buffer.hasRemaining()) {
          written[0] += out.write(buffer, written[0]);
        }
      });
      out.force(true);
    }
  }

  /** Fetches {@code bytes} of one snapshot file into {@code sink}, as the other fetch. */
  public static void fetch(Connection source, long epoch, long snapshot, int file, long bytes,
      Duration pieceWait, PieceSink sink) throws IOException {
    Deque<CompletableFuture<Frame>> inFlight = new ArrayDeque<>();
    long requested = 0;
    long written = 0;
    while (written < bytes) {
      while (inFlight.size() < IN_FLIGHT && requested < bytes) {
        long length = Math.min(ProtocolLimits.MAX_ARC_CHUNK_BYTES, bytes - requested);
        inFlight.add(source.send(MessageType.ARC_CHUNK, epoch,
            new ArcChunk(snapshot, file, requested, length).encode()));
        requested += length;
      }
      Frame answer = CopyReplies.expect(await(inFlight.poll(), pieceWait), "ARC_CHUNK");
      int length = ArcChunk.pieceLength(answer);
      if (length == 0) {
        throw new IOException("snapshot " + snapshot + " ended at " + written + " of "
            + bytes + " bytes");
      }
      sink.write(answer.payload(), ArcChunk.PIECE_OFFSET, length);
      written += length;
    }
  }

  private static Frame await(CompletableFuture<Frame> reply, Duration wait) throws IOException {
    try {
      return reply.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IOException("no piece within " + wait.toMillis() + " ms (fawn.kv.timeout"
          + ".transfer-ms)");
    } catch (ExecutionException e) {
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
