package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One segment file of a {@link Journal}: created with its first force, appended to and forced
 * by one force pass at a time. Its map says, for each datastore ({@code W}) that wrote to it,
 * the last sequence number it wrote there; the journal keeps both under its own lock.
 */
final class JournalSegment<W> {
  private static final Logger LOG = LoggerFactory.getLogger(JournalSegment.class);

  private final long number;
  private final Path path;
  private final Map<W, Long> lastSequences = new HashMap<>();
  private FileChannel channel;
  private long bytes = JournalFormat.HEADER_BYTES;
  private int nextId;

  JournalSegment(Path directory, long number) {
    this.number = number;
    this.path = directory.resolve(JournalReplay.segmentName(number));
  }

  long number() {
    return number;
  }

  Path path() {
    return path;
  }

  /** Each writer's last sequence number here. */
  Map<W, Long> lastSequences() {
    return lastSequences;
  }

  /** Bytes appended to it so far, buffered ones included. */
  long bytes() {
    return bytes;
  }

  void grow(int appended) {
    bytes += appended;
  }

  /** The id for the next file named in it. */
  int nextId() {
    return nextId++;
  }

  /**
   * Appends {@code buffered} at the end and forces it. The first call creates the file, with
   * its header forced and its directory entry synced, so a forced segment cannot vanish.
   */
  void writeAndForce(ByteBuffer buffered) throws IOException {
    if (channel == null) {
      channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      FileIo.writeFully(channel, JournalFormat.header(number), 0);
      channel.force(true);
      Directories.syncParentOf(path);
    }
    FileIo.writeFully(channel, buffered, channel.size());
    channel.force(false);
  }

  void closeChannel() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        LOG.debug("closing {}: {}", path, e.toString());
      }
    }
  }
}
