package org.fawnpack.jobs.tera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class SplitSharesTest {

  @Test
  void allocate_exactTargetByLength() {
    assertArrayEquals(new int[] {4, 3}, SplitShares.allocate(new long[] {1_000_000, 1_000_000}, 7));
    assertArrayEquals(new int[] {6, 2}, SplitShares.allocate(new long[] {3_000_000, 1_000_000}, 8));
  }

  @Test
  void allocate_everyFileAtLeastOnePiece_noMorePiecesThanRecords() {
    assertArrayEquals(new int[] {7, 1, 1}, SplitShares.allocate(new long[] {10_000_000, 100, 0}, 7));
    assertArrayEquals(new int[] {2}, SplitShares.allocate(new long[] {200}, 8));
  }
}
