package org.fawnpack.kv.store;

/**
 * Points inside a datastore's write, sync and compaction paths where a test can hold one thread
 * while another acts, so that a race is forced in every run instead of hoped for. Production code
 * uses {@link #NONE}; a seam costs one call to an empty method.
 */
@FunctionalInterface
interface TestSeams {

  /** Where a thread is. */
  enum Seam {
    /** A put or delete has appended its record but not yet pointed (or cleared) its bucket. */
    WRITE_APPENDED,
    /** A compaction has fixed the end of the range it copies without the writer lock. */
    COMPACTION_RANGE_FIXED,
    /** A compaction has copied that range and is about to carry over the tail. */
    COMPACTION_COPIED,
    /** A sync has chosen the log it will flush and force. */
    SYNC_LOG_CHOSEN,
    /** A split in place has forced its new files and not yet written its range mark. */
    SPLIT_PARTS_FORCED,
    /** A split in place has forced its range mark and not yet swapped in the narrowed index. */
    SPLIT_MARKED
  }

  TestSeams NONE = seam -> { };

  void reached(Seam seam);

  /** A datastore's installed seams, shared by its parts; {@link #NONE} until a test sets one. */
  final class Hook implements TestSeams {
    private volatile TestSeams seams = NONE;

    void install(TestSeams testSeams) {
      this.seams = testSeams;
    }

    @Override
    public void reached(Seam seam) {
      seams.reached(seam);
    }
  }
}
