package org.fawnpack.input;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local file system under the scheme {@code located:}, reporting each file as one block on
 * the host named by the file name's prefix: {@code hostA-3.txt} lives on {@code hostA} in rack
 * {@code /rack-hostA}. Lets split locality be tested without HDFS.
 *
 * <p>Statuses are plain {@link FileStatus} copies: the local file system's own status loads its
 * permissions lazily through {@code new File(uri)}, which accepts only {@code file:} URIs.
 */
public class HostMappedFileSystem extends RawLocalFileSystem {

  static final String SCHEME = "located";
  private static final URI NAME = URI.create(SCHEME + ":///");

  /** The host a file of this name is placed on. */
  static String hostOf(String fileName) {
    return fileName.substring(0, fileName.indexOf('-'));
  }

  static String rackOf(String host) {
    return "/rack-" + host;
  }

  @Override
  public URI getUri() {
    return NAME;
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  private static FileStatus plain(FileStatus s) {
    return new FileStatus(s.getLen(), s.isDirectory(), 1, s.getBlockSize(),
        s.getModificationTime(), s.getAccessTime(),
        s.isDirectory() ? FsPermission.getDirDefault() : FsPermission.getFileDefault(),
        "fawn", "fawn", s.getPath());
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    return plain(super.getFileStatus(f));
  }

  @Override
  public FileStatus getFileLinkStatus(Path f) throws IOException {
    return plain(super.getFileLinkStatus(f));
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    FileStatus[] statuses = super.listStatus(f);
    for (int i = 0; i < statuses.length; i++) {
      statuses[i] = plain(statuses[i]);
    }
    return statuses;
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) {
    if (file == null || file.isDirectory() || start >= file.getLen()) {
      return new BlockLocation[0];
    }
    String host = hostOf(file.getPath().getName());
    return new BlockLocation[] {
      new BlockLocation(new String[] {host + ":9866"}, new String[] {host},
          new String[] {rackOf(host) + "/" + host}, 0, file.getLen())
    };
  }
}
