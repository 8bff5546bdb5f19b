package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Moving key ranges between datastores: split one into two, split pieces off one in place,
 * merge or absorb one into another. Each is one sequential pass over a log, record bytes
 * unchanged; the work and the lock order shared by every move are {@link RangeMover}'s and
 * {@link SplitOff}'s. Kept apart from {@link Datastore}, whose methods serve one key range.
 *
 * <pre>{@code
 * RangeMoves.SplitResult halves = RangeMoves.split(ds, ringPosition, lowPath, highPath);
 * RangeMoves.merge(halves.lower(), halves.upper());
 * RangeMoves.absorb(target, other);   // other's live entries numbered after target's last
 * }</pre>
 *
 * <p>A move may run while other threads read and write the datastores it touches: writes to
 * them wait until it is done, reads go on.
 */
public final class RangeMoves {

  private RangeMoves() {}

  /** The two datastores a split made; both open. */
  public record SplitResult(Datastore lower, Datastore upper) {}

  /**
   * Splits {@code ds}'s live entries at {@code ringPosition} in one sequential pass: keys
   * whose {@link RingPositions ring position} is at most {@code ringPosition} (unsigned) go to
   * a new datastore in {@code lowerPath}, the others to one in {@code upperPath}. {@code ds}
   * is left as it was; writes to it wait until the split is done, reads go on.
   *
   * @throws java.nio.file.FileAlreadyExistsException when a target file exists
   */
  public static SplitResult split(Datastore ds, long ringPosition, Path lowerPath,
      Path upperPath) throws IOException {
    return RangeMover.split(ds, p -> Long.compareUnsigned(p, ringPosition) <= 0, true,
        lowerPath, upperPath);
  }

  /**
   * Like {@link #split}, for a ring arc: entries in {@code lower} (which may wrap past zero) go
   * to {@code lowerPath}, the others to {@code upperPath}. The upper datastore continues
   * {@code ds}'s sequence numbers; the lower one continues after its own records' (so every
   * replica of a settled arc numbers its lower part alike, whatever upper writes it took
   * before).
   */
  public static SplitResult splitArc(Datastore ds, KeyRange lower, Path lowerPath,
      Path upperPath) throws IOException {
    return RangeMover.split(ds, lower::contains, false, lowerPath, upperPath);
  }

  /**
   * A split that rewrites only what leaves: the live entries of each of {@code moved} go to a
   * new datastore at the matching path (returned open, in that order; each numbers its writes
   * after its own records, as {@link #splitArc}'s lower part), and {@code ds}'s file keeps the
   * rest in place, {@code kept}, marked so by a range mark ({@link RangeMarks}) forced before
   * this returns. From then on a read of {@code ds} of a key outside {@code kept} is refused
   * until the file is reopened (which finds such keys absent). The moved records stay in its
   * log as garbage until a compaction; {@link Datastore#recordsFrom} still visits them (their
   * numbers are below every write made after the split). One sequential pass; writes wait,
   * reads go on.
   *
   * @throws IllegalArgumentException when the ranges overlap each other or {@code kept}, or a
   *     live key lies in none of them (nothing is changed)
   * @throws java.nio.file.FileAlreadyExistsException when a target file exists
   */
  public static List<Datastore> splitOff(Datastore ds, List<KeyRange> moved, List<Path> paths,
      KeyRange kept) throws IOException {
    return SplitOff.split(ds, moved, paths, kept);
  }

  /**
   * Appends every live entry of {@code other} to {@code into} in one sequential pass over
   * {@code other}'s log; where both hold a key, {@code other}'s value wins. {@code other} is
   * left as it was (the caller deletes it); writes to both wait meanwhile, reads go on. When
   * {@code into}'s index has no room for both key sets it is rebuilt on a second thread while
   * the records are copied, and swapped in at the end: gets see the old contents until then.
   */
  public static void merge(Datastore into, Datastore other) throws IOException {
    RangeMover.merge(into, other);
  }

  /**
   * Appends every live entry of {@code other} to {@code into} renumbered after
   * {@code into}'s writes: an entry numbered s there is numbered
   * {@code into.lastSequence() + s} here, so the log stays in sequence order and two replicas
   * that absorb equal pieces number them alike, whatever either compacted. Afterwards the
   * numbering goes on after both, and cuts below that point are refused
   * ({@link Datastore#historyFrom}): {@code other}'s overwritten versions were not copied. One
   * sequential pass over {@code other}'s log; the caller lets no one write to either meanwhile
   * and deletes {@code other}. Used where a removal merges two arcs.
   */
  public static void absorb(Datastore into, Datastore other) throws IOException {
    RangeMover.absorb(into, other);
  }
}
