package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real file channel that can be told to fail positional writes past a byte offset (a full or
 * failing disk) and that counts forces. The seam for {@link DataLogTest}; everything else goes
 * to the real channel.
 */
final class FaultyChannel extends FileChannel {

  private final FileChannel real;
  private volatile long failWritesFrom = Long.MAX_VALUE;
  final AtomicInteger forces = new AtomicInteger();

  FaultyChannel(FileChannel real) {
    this.real = real;
  }

  void failWritesFrom(long offset) {
    failWritesFrom = offset;
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    if (position + src.remaining() > failWritesFrom) {
      throw new IOException("injected: no space left on device at offset " + position);
    }
    return real.write(src, position);
  }

  @Override
  public void force(boolean metaData) throws IOException {
    forces.incrementAndGet();
    real.force(metaData);
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    return real.read(dst, position);
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    return real.read(dst);
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    return real.read(dsts, offset, length);
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    return real.write(src);
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    return real.write(srcs, offset, length);
  }

  @Override
  public long position() throws IOException {
    return real.position();
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    real.position(newPosition);
    return this;
  }

  @Override
  public long size() throws IOException {
    return real.size();
  }

  @Override
  public FileChannel truncate(long size) throws IOException {
    real.truncate(size);
    return this;
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target)
      throws IOException {
    return real.transferTo(position, count, target);
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count)
      throws IOException {
    return real.transferFrom(src, position, count);
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
    return real.map(mode, position, size);
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) throws IOException {
    return real.lock(position, size, shared);
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) throws IOException {
    return real.tryLock(position, size, shared);
  }

  @Override
  protected void implCloseChannel() throws IOException {
    real.close();
  }
}
