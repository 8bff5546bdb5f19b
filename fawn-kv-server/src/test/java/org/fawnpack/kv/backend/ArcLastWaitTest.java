package org.fawnpack.kv.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.ArcLast;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.WriteId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ARC_LAST with a wait, at a chain's head ({@link ArcSource#last}): answered with the head's
 * last sequence only once its sent list holds no write up to it (the tail has them all), at
 * once when none is on its way or when the copier asks without a wait, and refused by name
 * when the wait runs out; a copier the chain does not name is refused at once.
 */
class ArcLastWaitTest {
  private static final Member HEAD = new Member("b0", "127.0.0.1", 1);
  private static final Member TAIL = new Member("b1", "127.0.0.2", 2);
  private static final Member COPIER = new Member("b9", "127.0.0.9", 9);

  @TempDir
  Path dir;

  private ArcStore arc;
  private ArcSource source;
  private Map<Long, ArcStore> arcs;
  private long lastWritten;

  @BeforeEach
  void open() throws Exception {
    Chain chain = new Chain(new KeyRange(0, 1L << 40), List.of(HEAD, TAIL), List.of(COPIER), 3);
    arc = ArcStore.open(dir, chain, 1, DatastoreConfig.builder().expectedKeys(64).build());
    arcs = Map.of(chain.range().endInclusive(), arc);
    source = new ArcSource("backend b0", dir);
    for (int i = 0; i < 3; i++) { // applied and forwarded, as a head does under the arc's lock
      byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
      lastWritten = arc.store().put(key, key);
      arc.sent().add(new SentList.SentWrite(MessageType.CHAIN_PUT, key, key, lastWritten,
          WriteId.NONE));
    }
  }

  @AfterEach
  void close() throws Exception {
    source.close();
    arc.close();
  }

  @Test
  void withAWait_answeredOnceTheTailConfirmedEveryWrite() throws Exception {
    CompletableFuture<Frame> answer = ask(COPIER.id(), 30_000);
    arc.sent().confirmed(lastWritten - 2);
    arc.sent().confirmed(lastWritten); // out of order: one is still on its way
    // A confirmation completes its waiters on the confirming thread: an early answer would be
    // here already.
    assertTrue(!answer.isDone(), "answered with a write still on its way down");
    arc.sent().confirmed(lastWritten - 1);
    Frame reply = answer.get(10, TimeUnit.SECONDS);
    assertEquals(MessageType.VALUE, reply.type(), MessageType.messageOf(reply));
    assertEquals(lastWritten, reply.fields().nextLong());
  }

  @Test
  void withoutAWait_orNothingOnItsWay_answeredAtOnce() throws Exception {
    Frame now = ask(COPIER.id(), 0).get(10, TimeUnit.SECONDS);
    assertEquals(MessageType.VALUE, now.type());
    assertEquals(lastWritten, now.fields().nextLong());
    for (long s = lastWritten - 2; s <= lastWritten; s++) {
      arc.sent().confirmed(s);
    }
    Frame settled = ask(COPIER.id(), 30_000).get(10, TimeUnit.SECONDS);
    assertEquals(MessageType.VALUE, settled.type());
    assertEquals(lastWritten, settled.fields().nextLong());
  }

  @Test
  void waitRunsOut_refusedNamingTheWrites() throws Exception {
    Frame reply = ask(COPIER.id(), 50).get(10, TimeUnit.SECONDS);
    assertEquals(MessageType.REFUSED, reply.type());
    String said = MessageType.messageOf(reply);
    assertTrue(said.contains("writes up to " + lastWritten) && said.contains("after 50 ms"), said);
  }

  @Test
  void aCopierTheChainDoesNotName_refusedAtOnce() throws Exception {
    Frame reply = ask("b8", 30_000).get(10, TimeUnit.SECONDS);
    assertEquals(MessageType.REFUSED, reply.type());
    assertTrue(MessageType.messageOf(reply).contains("b8 copies"), MessageType.messageOf(reply));
  }

  private CompletableFuture<Frame> ask(String copier, long waitMs) throws Exception {
    CompletableFuture<Frame> answer = new CompletableFuture<>();
    Frame request = new Frame(MessageType.ARC_LAST, 7, 1,
        new ArcLast(arc.chain().range().endInclusive(), copier, waitMs).encode());
    source.last(request, arcs, answer::complete);
    return answer;
  }
}
