package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Creates and opens {@link DataLog} files: the in-JVM claim ({@link OpenLogs}), the exclusive
 * file lock, the header written and forced (create) or read and checked (open). Every failure
 * releases what was taken, so a refused open leaves no lock or claim behind.
 */
final class DataLogFiles {

  private DataLogFiles() {}

  /**
   * Creates a new empty log (the file must not exist), forcing the file and its directory
   * entry. {@code writebackBytes} 0 turns the background forces off.
   */
  static DataLog create(Path path, int bufferBytes, long writebackBytes) throws IOException {
    OpenLogs.Claim claim = OpenLogs.claim(path);
    try {
      return create(path, claim, FileChannel.open(path, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.READ, StandardOpenOption.WRITE), bufferBytes, writebackBytes);
    } catch (IOException | RuntimeException e) {
      claim.release();
      throw e;
    }
  }

  /** Same, on a channel opened by the caller (tests wrap it to inject I/O failures). */
  static DataLog create(Path path, FileChannel channel, int bufferBytes, long writebackBytes)
      throws IOException {
    OpenLogs.Claim claim = OpenLogs.claim(path);
    try {
      return create(path, claim, channel, bufferBytes, writebackBytes);
    } catch (IOException | RuntimeException e) {
      claim.release();
      throw e;
    }
  }

  private static DataLog create(Path path, OpenLogs.Claim claim, FileChannel channel,
      int bufferBytes, long writebackBytes) throws IOException {
    try {
      LogFileHeader.lockExclusively(path, channel);
      LogFileHeader header = LogFileHeader.fresh();
      FileIo.writeFully(channel, header.encode(), 0);
      channel.force(true);
      Directories.syncParentOf(path);
      return new DataLog(path, claim, channel, header, DataLog.HEADER_BYTES, bufferBytes,
          writebackBytes);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Opens an existing log; its length is taken as is (recovery decides what to keep).
   *
   * @throws DatastoreLockedException when the file is open already, here or elsewhere
   */
  static DataLog open(Path path, int bufferBytes, long writebackBytes) throws IOException {
    OpenLogs.Claim claim = OpenLogs.claim(path);
    FileChannel channel = null;
    try {
      channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
      LogFileHeader.lockExclusively(path, channel);
      return new DataLog(path, claim, channel, LogFileHeader.read(path, channel),
          channel.size(), bufferBytes, writebackBytes);
    } catch (IOException | RuntimeException e) {
      if (channel != null) {
        channel.close();
      }
      claim.release();
      throw e;
    }
  }
}
